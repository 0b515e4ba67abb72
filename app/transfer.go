package app

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// CompanyExportFormat names the format of a company export; its version is
// CompanyExportVersion (docs/transfer.md).
const (
	CompanyExportFormat  = "costdb.company-export"
	CompanyExportVersion = CompanyExportV2
)

// CompanyExport is a company's own data as one document: its groups,
// resources, compositions and budgets (without their frozen versions),
// each as the domain keeps it, with the ids of the exporting server (an
// import gives new ones) and without company, user and department.
type CompanyExport struct {
	Format       string
	Version      int
	ExportedAt   time.Time
	Groups       []*domain.Group
	Resources    []*domain.Resource
	Compositions []*domain.Composition
	Budgets      []*domain.Budget
	// Profile is the company's profile (profile.go), absent when it has
	// none; an import takes it only into a company that has none.
	Profile *ExportedProfile `json:"Profile,omitempty"`
	// Schedules are the budgets' schedules (schedule.go), each naming its
	// budget by its id in the export; those of frozen versions are not
	// exported, as the versions are not.
	Schedules []*domain.Schedule `json:"Schedules,omitempty"`
	// Indexes are the company's price index series (indexes.go); an
	// import refuses a name the company already has.
	Indexes []*domain.IndexSeries `json:"Indexes,omitempty"`
}

// ExportedProfile is a company profile in an export: its fields, and its
// logo in base64 (standard encoding, "" none) with its media type.
type ExportedProfile struct {
	LegalName        string
	CNPJ             string
	Address          string
	EngineerName     string
	EngineerRegistry string
	LogoType         string
	Logo             string
}

// ExportCompany returns the caller's company's own data.
func (s *Service) ExportCompany(ctx context.Context, p domain.Principal) (*CompanyExport, error) {
	out := &CompanyExport{Format: CompanyExportFormat, Version: CompanyExportVersion, ExportedAt: s.now(),
		Groups: []*domain.Group{}, Resources: []*domain.Resource{}, Compositions: []*domain.Composition{}, Budgets: []*domain.Budget{}}
	err := s.store.View(ctx, func(tx Tx) error {
		all := Query{}
		gs, _, errG := tx.Groups(p.CompanyID, all)
		rs, _, errR := tx.Resources(p.CompanyID, all)
		cs, _, errC := tx.Compositions(p.CompanyID, all)
		hs, _, errB := tx.Budgets(p.CompanyID, all)
		if err := cmp.Or(errG, errR, errC, errB); err != nil {
			return err
		}
		out.Groups = exported(gs, shallow, groupOwned)
		out.Resources = exported(rs, shallow, resourceOwned)
		out.Compositions = exported(cs, shallow, compositionOwned)
		bs := make([]*domain.Budget, len(hs))
		for i, h := range hs {
			b, err := tx.Budget(h.ID)
			if err != nil {
				return err
			}
			bs[i] = b
		}
		out.Budgets = exported(bs, (*domain.Budget).Clone, budgetOwned)
		for _, b := range bs {
			sch, err := (&scheduleTarget{key: scheduleKey(p.CompanyID, b.ID), what: "budget " + b.ID}).read(tx)
			if err != nil {
				return err
			}
			if sch != nil {
				out.Schedules = append(out.Schedules, sch)
			}
		}
		names, err := readIndexNames(tx, p.CompanyID)
		if err != nil {
			return err
		}
		for _, n := range names {
			series, err := readIndex(tx, p.CompanyID, n)
			if err != nil {
				return err
			}
			out.Indexes = append(out.Indexes, series)
		}
		prof, err := documentProfile(tx, p.CompanyID)
		if err != nil || prof == nil {
			return err
		}
		out.Profile = &ExportedProfile{LegalName: prof.LegalName, CNPJ: prof.CNPJ, Address: prof.Address,
			EngineerName: prof.EngineerName, EngineerRegistry: prof.EngineerRegistry,
			LogoType: prof.LogoType, Logo: base64.StdEncoding.EncodeToString(prof.Logo)}
		return nil
	})
	return out, err
}

// owned are the fields that make a record its company's: its id, company,
// user and department. An export clears the last three; an import gives
// them (and a new id) to the caller.
type owned struct{ id, company, user, department *string }

func groupOwned(x *domain.Group) owned {
	return owned{&x.ID, &x.CompanyID, &x.UserID, &x.DepartmentID}
}

func resourceOwned(x *domain.Resource) owned {
	return owned{&x.ID, &x.CompanyID, &x.UserID, &x.DepartmentID}
}

func compositionOwned(x *domain.Composition) owned {
	return owned{&x.ID, &x.CompanyID, &x.UserID, &x.DepartmentID}
}

func budgetOwned(x *domain.Budget) owned {
	return owned{&x.ID, &x.CompanyID, &x.UserID, &x.DepartmentID}
}

// shallow is a copy of *x.
func shallow[T any](x *T) *T {
	c := *x
	return &c
}

// exported is a copy (copyOf) of each record without company, user and
// department.
func exported[T any](list []*T, copyOf func(*T) *T, fields func(*T) owned) []*T {
	out := make([]*T, len(list))
	for i, x := range list {
		out[i] = copyOf(x)
		o := fields(out[i])
		*o.company, *o.user, *o.department = "", "", ""
	}
	return out
}

// importEach takes one kind of record of an export through an import: a
// nil one is EINVALID at its pointer (prefix and index); any other is
// copied (copyOf), given to the caller with a new id, checked (check names
// its problems in v, from the record's pointer; a returned error ends the
// import), and put when it has no problem; done then sees its old id.
func importEach[T any](v *domain.Validation, prefix, what string, list []*T, copyOf func(*T) *T, fields func(*T) owned,
	p domain.Principal, now time.Time, check func(ptr string, x *T) error, put func(*T) error, done func(old string, x *T)) error {
	return importAll(nil, v, prefix, what, list, copyOf, fields, p, now, check, put, done)
}

// importAll is importEach in two passes when tx is set: every record is
// checked first (check must then also find a key taken by an earlier
// record of the list, which is not put yet), and the good ones are put
// together in one batch of tx (BatchTx), so that the time an import takes
// grows with its records, not with their square.
func importAll[T any](tx Tx, v *domain.Validation, prefix, what string, list []*T, copyOf func(*T) *T, fields func(*T) owned,
	p domain.Principal, now time.Time, check func(ptr string, x *T) error, put func(*T) error, done func(old string, x *T)) error {
	type good struct {
		old string
		x   *T
	}
	var held []good
	for i, in := range list {
		ptr := prefix + strconv.Itoa(i)
		if in == nil {
			v.Add(ptr, "must be %s", what)
			continue
		}
		x, before := copyOf(in), v.Len()
		o := fields(x)
		old := *o.id
		*o.id, *o.company, *o.user, *o.department = NewID(now), p.CompanyID, p.UserID, p.DepartmentID
		if err := check(ptr, x); err != nil {
			return err
		}
		if v.Len() > before {
			continue // named; nothing of a bad record is written
		}
		if tx != nil {
			held = append(held, good{old, x})
			continue
		}
		if err := put(x); err != nil {
			return err
		}
		done(old, x)
	}
	if tx == nil {
		return nil
	}
	err := inBatch(tx, func() error {
		for _, g := range held {
			if err := put(g.x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, g := range held {
		done(g.old, g.x)
	}
	return nil
}

// ImportSummaryItem maps one imported record's id in the export to its new
// id.
type ImportSummaryItem struct {
	OldID string `json:"old_id"`
	NewID string `json:"new_id"`
	Code  string `json:"code"` // a group's description
}

// CompanyImport says what an import created.
type CompanyImport struct {
	Groups, Resources, Compositions, Budgets []ImportSummaryItem
}

// ImportCompany creates the records of an export in the caller's company,
// all or nothing: every record gets a new id (groups named by records are
// remapped), the caller as its user; codes must be free in the company
// (resources, compositions per state, budgets) and group descriptions too;
// compositions and budgets must name imported editions, and every budget
// line must exist (in the banks, or among the records imported). EINVALID
// names each problem by its pointer in the export ("/Resources/3/code").
// An unknown format or version is EINVALID on "/Format" or "/Version".
// For an export of version 2 (in.Version) the pointers are in its
// snake_case names ("/resources/3/group_id").
func (s *Service) ImportCompany(ctx context.Context, p domain.Principal, in *CompanyExport) (*CompanyImport, error) {
	out, err := s.importCompany(ctx, p, in)
	if e, ok := err.(*domain.Error); ok && in.Version == CompanyExportV2 {
		for i := range e.Fields {
			e.Fields[i].Field = snakePointer(e.Fields[i].Field)
		}
		for i := range e.More {
			e.More[i] = snakePointer(e.More[i])
		}
	}
	return out, err
}

func (s *Service) importCompany(ctx context.Context, p domain.Principal, in *CompanyExport) (*CompanyImport, error) {
	if in.Format != CompanyExportFormat {
		return nil, domain.FieldErrorf("/Format", "must be %s", CompanyExportFormat)
	}
	if in.Version != CompanyExportV1 && in.Version != CompanyExportV2 {
		return nil, domain.FieldErrorf("/Version", "must be %d or %d: this server reads versions %d and %d of the format", CompanyExportV1, CompanyExportV2, CompanyExportV1, CompanyExportV2)
	}
	out := &CompanyImport{Groups: []ImportSummaryItem{}, Resources: []ImportSummaryItem{}, Compositions: []ImportSummaryItem{}, Budgets: []ImportSummaryItem{}}
	err := s.store.Update(ctx, func(tx Tx) error {
		now := s.now()
		var v domain.Validation
		groups := map[string]string{}
		err := importEach(&v, "/Groups/", "a group", in.Groups, shallow, groupOwned, p, now,
			func(ptr string, g *domain.Group) error { return v.Merge(ptr, checkGroup(tx, g)) },
			tx.PutGroup, func(old string, g *domain.Group) {
				groups[old] = g.ID
				out.Groups = append(out.Groups, ImportSummaryItem{OldID: old, NewID: g.ID, Code: g.Description})
			})
		if err != nil {
			return err
		}
		group := func(ptr, id string) string {
			if id == "" {
				return ""
			}
			n, ok := groups[id]
			if !ok {
				v.Add(ptr+"/GroupID", "names group %s, which is not in the export", id)
			}
			return n
		}
		// Resources and compositions are checked first and put in one
		// batch: a code an earlier record of the export takes is found in
		// these maps (new id by code), as the store would find it had that
		// record been put already.
		resCodes, compCodes := map[string]string{}, map[[2]string]string{}
		err = importAll(tx, &v, "/Resources/", "a resource", in.Resources, shallow, resourceOwned, p, now,
			func(ptr string, r *domain.Resource) error {
				r.GroupID = group(ptr, r.GroupID)
				before := v.Len()
				if err := v.Merge(ptr, checkResource(tx, p, r)); err != nil {
					return err
				}
				if r.Code == "" {
					return nil
				}
				if id, ok := resCodes[r.Code]; ok {
					v.Add(ptr+"/code", "is already used by resource %s", id)
				} else if v.Len() == before {
					resCodes[r.Code] = r.ID
				}
				return nil
			},
			tx.PutResource, func(old string, r *domain.Resource) {
				out.Resources = append(out.Resources, ImportSummaryItem{OldID: old, NewID: r.ID, Code: r.Code})
			})
		if err != nil {
			return err
		}
		err = importAll(tx, &v, "/Compositions/", "a composition", in.Compositions, shallow, compositionOwned, p, now,
			func(ptr string, c *domain.Composition) error {
				c.GroupID = group(ptr, c.GroupID)
				before := v.Len()
				if err := v.Merge(ptr, checkComposition(tx, p, c)); err != nil {
					return err
				}
				if c.Code != "" && c.State != "" {
					k := [2]string{c.Code, c.State}
					if id, ok := compCodes[k]; ok {
						v.Add(ptr+"/code", "is already used by composition %s in %s", id, c.State)
					} else {
						defer func() {
							if v.Len() == before {
								compCodes[k] = c.ID
							}
						}()
					}
				}
				for j, ref := range c.Banks {
					if _, err := tx.Edition(ref.EditionKey()); isNotFound(err) {
						v.Add(ptr+"/Banks/"+strconv.Itoa(j), "edition %s is not imported on this server", ref.Label())
					} else if err != nil {
						return err
					}
				}
				return nil
			},
			tx.PutComposition, func(old string, c *domain.Composition) {
				out.Compositions = append(out.Compositions, ImportSummaryItem{OldID: old, NewID: c.ID, Code: c.Code})
			})
		if err != nil {
			return err
		}
		err = importEach(&v, "/Budgets/", "a budget", in.Budgets, (*domain.Budget).Clone, budgetOwned, p, now,
			func(ptr string, b *domain.Budget) error { return v.Merge(ptr, s.checkTree(tx, p, b, true, true)) },
			tx.PutBudget, func(old string, b *domain.Budget) {
				out.Budgets = append(out.Budgets, ImportSummaryItem{OldID: old, NewID: b.ID, Code: b.Code})
			})
		if err != nil {
			return err
		}
		if err := s.importProfile(tx, &v, p, in.Profile); err != nil {
			return err
		}
		if err := s.importSchedules(tx, &v, p, in.Schedules, out.Budgets); err != nil {
			return err
		}
		if err := s.importIndexes(tx, &v, p, in.Indexes); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		// Own compositions must price (no cycle among them) as they did.
		for _, it := range out.Compositions {
			c, err := tx.Composition(it.NewID)
			if err != nil {
				return err
			}
			if _, err := price(tx, p, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// importProfile checks an export's profile (its problems named in v from
// "/Profile") and puts it when the caller's company has no profile: an
// import adds records, it never replaces the company's identity.
func (s *Service) importProfile(tx Tx, v *domain.Validation, p domain.Principal, in *ExportedProfile) error {
	if in == nil {
		return nil
	}
	prof := domain.CompanyProfile{LegalName: in.LegalName, CNPJ: in.CNPJ, Address: in.Address,
		EngineerName: in.EngineerName, EngineerRegistry: in.EngineerRegistry}
	if err := v.Merge("/Profile", prof.Validate()); err != nil {
		return err
	}
	var logo []byte
	if in.Logo != "" || in.LogoType != "" {
		var err error
		if logo, err = base64.StdEncoding.DecodeString(in.Logo); err != nil {
			v.Add("/Profile/Logo", "must be the image in base64")
		} else if err := v.Merge("", domain.CheckLogo("/Profile/Logo", logo, in.LogoType)); err != nil {
			return err
		}
	}
	if v.Len() > 0 {
		return nil
	}
	old, err := readProfile(tx, p.CompanyID)
	if err != nil || old != nil {
		return err
	}
	r := &profileRecord{LegalName: prof.LegalName, CNPJ: prof.CNPJ, Address: prof.Address,
		EngineerName: prof.EngineerName, EngineerRegistry: prof.EngineerRegistry, UpdatedAt: s.now()}
	if len(logo) > 0 {
		r.LogoType, r.LogoSize = in.LogoType, len(logo)
		if err := tx.PutSetting(logoKey(p.CompanyID), logo); err != nil {
			return err
		}
	}
	return putProfile(tx, p.CompanyID, r)
}

// scheduleMembers maps the pointers a schedule's checks name (its API
// attributes) to its members in an export.
var scheduleMembers = strings.NewReplacer("/period_days", "/Days", "/periods", "/Periods", "/start", "/Start",
	"/rows", "/Rows", "/node_id", "/NodeID", "/shares", "/Shares")

// importSchedules checks an export's schedules against the budgets
// imported (budgets maps their ids in the export to the new ones) and puts
// each under its new budget; problems are named in v from "/Schedules/i".
func (s *Service) importSchedules(tx Tx, v *domain.Validation, p domain.Principal, in []*domain.Schedule, budgets []ImportSummaryItem) error {
	newID := make(map[string]string, len(budgets))
	for _, b := range budgets {
		newID[b.OldID] = b.NewID
	}
	seen := map[string]bool{}
	for i, sch := range in {
		ptr := "/Schedules/" + strconv.Itoa(i)
		if sch == nil {
			v.Add(ptr, "must be a schedule")
			continue
		}
		id, ok := newID[sch.BudgetID]
		switch {
		case !ok:
			v.Add(ptr+"/BudgetID", "names budget %s, which is not among the budgets imported", sch.BudgetID)
			continue
		case seen[id]:
			v.Add(ptr+"/BudgetID", "budget %s has another schedule in the export", sch.BudgetID)
			continue
		}
		seen[id] = true
		var own domain.Validation
		if err := own.Merge("", sch.Validate()); err != nil {
			return err
		}
		b, err := tx.Budget(id)
		if err != nil {
			return err
		}
		for _, problem := range sch.Fit(b) {
			own.Add("/rows", "%s", problem)
		}
		for _, f := range own.Fields {
			f.Field = ptr + scheduleMembers.Replace(f.Field)
			v.AddField(f)
		}
		if own.Len() > 0 || v.Len() > 0 {
			continue
		}
		c := *sch
		c.BudgetID = id
		if err := putSchedule(tx, scheduleKey(p.CompanyID, id), &c); err != nil {
			return err
		}
	}
	return nil
}

// importIndexes checks an export's index series (as PUT /indexes checks
// one) and adds each to the caller's company; a name the company already
// has is refused (an import adds, it does not replace). Problems are named
// in v from "/Indexes/i".
func (s *Service) importIndexes(tx Tx, v *domain.Validation, p domain.Principal, in []*domain.IndexSeries) error {
	names, err := readIndexNames(tx, p.CompanyID)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for i, series := range in {
		ptr := "/Indexes/" + strconv.Itoa(i)
		if series == nil {
			v.Add(ptr, "must be an index series")
			continue
		}
		pts := make([]domain.IndexPoint, 0, len(series.Points))
		for m, x := range series.Points {
			pts = append(pts, domain.IndexPoint{Month: m, Value: x})
		}
		sort.Slice(pts, func(a, b int) bool { return monthKey(pts[a].Month) < monthKey(pts[b].Month) })
		checked, err := domain.NewIndexSeries(series.Name, pts)
		if err != nil {
			if domain.ErrorCode(err) != domain.EINVALID {
				return err
			}
			for _, f := range domain.ErrorFields(err) {
				f.Field = ptr + indexMember(f.Field, pts)
				v.AddField(f)
			}
			if len(domain.ErrorFields(err)) == 0 {
				v.Add(ptr, "%s", domain.ErrorMessage(err))
			}
			continue
		}
		if have[checked.Name] {
			v.Add(ptr+"/Name", "the company already has index %s: an import adds series, it does not replace them", checked.Name)
			continue
		}
		have[checked.Name] = true
		if v.Len() > 0 {
			continue
		}
		checked.UpdatedAt = series.UpdatedAt
		raw, err := json.Marshal(checked)
		if err != nil {
			return err
		}
		if err := tx.PutSetting(indexKey(p.CompanyID, checked.Name), raw); err != nil {
			return err
		}
		names = append(names, checked.Name)
	}
	if len(in) == 0 || v.Len() > 0 {
		return nil
	}
	return writeIndexNames(tx, p.CompanyID, names)
}

// monthKey orders "MM/YYYY" months.
func monthKey(m string) string {
	if len(m) == 7 && m[2] == '/' {
		return m[3:] + m[:2]
	}
	return m
}

// indexMember maps a pointer NewIndexSeries names ("/name",
// "/points/3/value") to the series' member in an export ("/Name",
// "/Points/08~12026"): its points are a map by month.
func indexMember(ptr string, pts []domain.IndexPoint) string {
	if ptr == "/name" {
		return "/Name"
	}
	rest, ok := strings.CutPrefix(ptr, "/points/")
	if !ok {
		return "/Points"
	}
	n, _, _ := strings.Cut(rest, "/")
	if i, err := strconv.Atoi(n); err == nil && i < len(pts) {
		return "/Points/" + escape(pts[i].Month)
	}
	return "/Points"
}
