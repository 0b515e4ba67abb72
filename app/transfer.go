package app

import (
	"context"
	"strconv"
	"time"

	"github.com/costdb/costdb/domain"
)

// CompanyExportFormat names the format of a company export; its version is
// CompanyExportVersion (docs/transfer.md).
const (
	CompanyExportFormat  = "costdb.company-export"
	CompanyExportVersion = 1
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
}

// ExportCompany returns the caller's company's own data.
func (s *Service) ExportCompany(ctx context.Context, p domain.Principal) (*CompanyExport, error) {
	out := &CompanyExport{Format: CompanyExportFormat, Version: CompanyExportVersion, ExportedAt: s.now(),
		Groups: []*domain.Group{}, Resources: []*domain.Resource{}, Compositions: []*domain.Composition{}, Budgets: []*domain.Budget{}}
	err := s.store.View(ctx, func(tx Tx) error {
		gs, _, err := tx.Groups(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, g := range gs {
			c := *g
			c.CompanyID, c.UserID, c.DepartmentID = "", "", ""
			out.Groups = append(out.Groups, &c)
		}
		rs, _, err := tx.Resources(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, r := range rs {
			c := *r
			c.CompanyID, c.UserID, c.DepartmentID = "", "", ""
			out.Resources = append(out.Resources, &c)
		}
		cs, _, err := tx.Compositions(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, x := range cs {
			c := *x
			c.CompanyID, c.UserID, c.DepartmentID = "", "", ""
			out.Compositions = append(out.Compositions, &c)
		}
		hs, _, err := tx.Budgets(p.CompanyID, Query{})
		if err != nil {
			return err
		}
		for _, h := range hs {
			b, err := tx.Budget(h.ID)
			if err != nil {
				return err
			}
			b = b.Clone()
			b.CompanyID, b.UserID, b.DepartmentID = "", "", ""
			out.Budgets = append(out.Budgets, b)
		}
		return nil
	})
	return out, err
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
func (s *Service) ImportCompany(ctx context.Context, p domain.Principal, in *CompanyExport) (*CompanyImport, error) {
	if in.Format != CompanyExportFormat {
		return nil, domain.FieldErrorf("/Format", "must be %s", CompanyExportFormat)
	}
	if in.Version != CompanyExportVersion {
		return nil, domain.FieldErrorf("/Version", "must be %d: this server reads version %d of the format", CompanyExportVersion, CompanyExportVersion)
	}
	out := &CompanyImport{Groups: []ImportSummaryItem{}, Resources: []ImportSummaryItem{}, Compositions: []ImportSummaryItem{}, Budgets: []ImportSummaryItem{}}
	err := s.store.Update(ctx, func(tx Tx) error {
		now := s.now()
		var v domain.Validation
		own := func(id *string, companyID, userID, departmentID *string) string {
			old := *id
			*id, *companyID, *userID, *departmentID = NewID(now), p.CompanyID, p.UserID, p.DepartmentID
			return old
		}
		groups := map[string]string{}
		for i, x := range in.Groups {
			if x == nil {
				v.Add("/Groups/"+strconv.Itoa(i), "must be a group")
				continue
			}
			g, before := *x, len(v.Fields)
			old := own(&g.ID, &g.CompanyID, &g.UserID, &g.DepartmentID)
			if err := v.Merge("/Groups/"+strconv.Itoa(i), checkGroup(tx, &g)); err != nil {
				return err
			}
			if len(v.Fields) > before {
				continue // named; nothing of a bad record is written
			}
			if err := tx.PutGroup(&g); err != nil {
				return err
			}
			groups[old] = g.ID
			out.Groups = append(out.Groups, ImportSummaryItem{OldID: old, NewID: g.ID, Code: g.Description})
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
		for i, x := range in.Resources {
			ptr := "/Resources/" + strconv.Itoa(i)
			if x == nil {
				v.Add(ptr, "must be a resource")
				continue
			}
			r, before := *x, len(v.Fields)
			old := own(&r.ID, &r.CompanyID, &r.UserID, &r.DepartmentID)
			r.GroupID = group(ptr, r.GroupID)
			if err := v.Merge(ptr, checkResource(tx, p, &r)); err != nil {
				return err
			}
			if len(v.Fields) > before {
				continue // named; nothing of a bad record is written
			}
			if err := tx.PutResource(&r); err != nil {
				return err
			}
			out.Resources = append(out.Resources, ImportSummaryItem{OldID: old, NewID: r.ID, Code: r.Code})
		}
		for i, x := range in.Compositions {
			ptr := "/Compositions/" + strconv.Itoa(i)
			if x == nil {
				v.Add(ptr, "must be a composition")
				continue
			}
			c, before := *x, len(v.Fields)
			old := own(&c.ID, &c.CompanyID, &c.UserID, &c.DepartmentID)
			c.GroupID = group(ptr, c.GroupID)
			if err := v.Merge(ptr, checkComposition(tx, p, &c)); err != nil {
				return err
			}
			for j, ref := range c.Banks {
				if _, err := tx.Edition(ref.EditionKey()); isNotFound(err) {
					v.Add(ptr+"/Banks/"+strconv.Itoa(j), "edition %s is not imported on this server", ref.Label())
				} else if err != nil {
					return err
				}
			}
			if len(v.Fields) > before {
				continue // named; nothing of a bad record is written
			}
			if err := tx.PutComposition(&c); err != nil {
				return err
			}
			out.Compositions = append(out.Compositions, ImportSummaryItem{OldID: old, NewID: c.ID, Code: c.Code})
		}
		for i, x := range in.Budgets {
			ptr := "/Budgets/" + strconv.Itoa(i)
			if x == nil {
				v.Add(ptr, "must be a budget")
				continue
			}
			b, before := x.Clone(), len(v.Fields)
			old := own(&b.ID, &b.CompanyID, &b.UserID, &b.DepartmentID)
			if err := v.Merge(ptr, s.checkTree(tx, p, b, true, true)); err != nil {
				return err
			}
			if len(v.Fields) > before {
				continue // named; nothing of a bad record is written
			}
			if err := tx.PutBudget(b); err != nil {
				return err
			}
			out.Budgets = append(out.Budgets, ImportSummaryItem{OldID: old, NewID: b.ID, Code: b.Code})
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

// CompanyName returns the name of the caller's company (for the header of
// the documents a client is given).
func (s *Service) CompanyName(ctx context.Context, p domain.Principal) (string, error) {
	var out string
	err := s.store.View(ctx, func(tx Tx) error {
		c, err := tx.Company(p.CompanyID)
		if err != nil {
			return err
		}
		out = c.Name
		return nil
	})
	return out, err
}
