package app

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// CompositionInput is what a client may set on a composition.
type CompositionInput struct {
	GroupID     string
	Code        string
	SecondCode  string
	Description string
	Type        string
	Unit        string
	State       string
	IsSicro     bool
	Labor       bool
	Rounding    domain.RoundingMethod // 0 takes the model's default
	Note        string
	Tags        []string
	// SICRO model.
	TeamProduction decimal.Decimal
	FIC            decimal.Decimal
	LaborAddition  decimal.Decimal
	// LabourCharges is the company's own social charges percentage for
	// the composition's bank labour (null: the bank's prices).
	LabourCharges decimal.NullDecimal
}

func (in CompositionInput) apply(c *domain.Composition) {
	c.GroupID = in.GroupID
	c.Code = in.Code
	c.SecondCode = in.SecondCode
	c.Description = strings.TrimSpace(in.Description)
	c.Type = strings.ToUpper(strings.TrimSpace(in.Type))
	c.Unit = strings.TrimSpace(in.Unit)
	c.State = strings.ToUpper(strings.TrimSpace(in.State))
	c.IsSicro = in.IsSicro
	c.Labor = in.Labor
	c.Rounding = in.Rounding
	if c.Rounding == 0 {
		c.Rounding = domain.DefaultRounding(in.IsSicro)
	}
	c.Note = in.Note
	c.Tags = Tags(in.Tags)
	c.TeamProduction, c.FIC, c.LaborAddition = in.TeamProduction, in.FIC, in.LaborAddition
	c.LabourCharges = in.LabourCharges
}

// CreateComposition creates a composition in the caller's company and
// returns it priced. Returns EINVALID naming each bad field, including a code
// already used by another composition of the company in the same state.
func (s *Service) CreateComposition(ctx context.Context, p domain.Principal, in CompositionInput) (*domain.PricedComposition, error) {
	var out *domain.PricedComposition
	err := s.store.Update(ctx, func(tx Tx) error {
		now := s.now()
		c := &domain.Composition{ID: NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID, CreatedAt: now}
		in.apply(c)
		if err := checkComposition(tx, p, c); err != nil {
			return err
		}
		if err := tx.PutComposition(c); err != nil {
			return err
		}
		var err error
		if out, err = price(tx, p, c); err != nil {
			return err
		}
		return out.CheckBounds()
	})
	return out, err
}

// CompositionPatch names the fields of a composition to change; nil fields stay.
type CompositionPatch struct {
	GroupID        *string
	Code           *string
	SecondCode     *string
	Description    *string
	Type           *string
	Unit           *string
	State          *string
	IsSicro        *bool
	Labor          *bool
	Rounding       *domain.RoundingMethod
	Note           *string
	Tags           *[]string
	TeamProduction *decimal.Decimal
	FIC            *decimal.Decimal
	LaborAddition  *decimal.Decimal
	// LabourCharges, when not nil, sets the own charges (a null
	// NullDecimal clears them).
	LabourCharges *decimal.NullDecimal
}

func (pt CompositionPatch) apply(c *domain.Composition) {
	in := CompositionInput{
		GroupID: c.GroupID, Code: c.Code, SecondCode: c.SecondCode, Description: c.Description,
		Type: c.Type, Unit: c.Unit, State: c.State, IsSicro: c.IsSicro, Labor: c.Labor,
		Rounding: c.Rounding, Note: c.Note, Tags: c.Tags,
		TeamProduction: c.TeamProduction, FIC: c.FIC, LaborAddition: c.LaborAddition,
		LabourCharges: c.LabourCharges,
	}
	set(&in.GroupID, pt.GroupID)
	set(&in.Code, pt.Code)
	set(&in.SecondCode, pt.SecondCode)
	set(&in.Description, pt.Description)
	set(&in.Type, pt.Type)
	set(&in.Unit, pt.Unit)
	set(&in.State, pt.State)
	set(&in.IsSicro, pt.IsSicro)
	set(&in.Labor, pt.Labor)
	set(&in.Rounding, pt.Rounding)
	set(&in.Note, pt.Note)
	set(&in.Tags, pt.Tags)
	set(&in.TeamProduction, pt.TeamProduction)
	set(&in.FIC, pt.FIC)
	set(&in.LaborAddition, pt.LaborAddition)
	set(&in.LabourCharges, pt.LabourCharges)
	in.apply(c)
}

// UpdateComposition changes the composition's own fields the patch names
// (not its banks or items). Returns ENOTFOUND outside the caller's company,
// EINVALID for a bad field, ECONFLICT when the code or state changes while
// another composition or a budget uses it.
func (s *Service) UpdateComposition(ctx context.Context, p domain.Principal, id string, patch CompositionPatch) (*domain.PricedComposition, error) {
	return s.changeComposition(ctx, p, id, func(tx Tx, c *domain.Composition) error {
		oldCode, oldState := c.Code, c.State
		patch.apply(c)
		if err := checkComposition(tx, p, c); err != nil {
			return err
		}
		if c.Code != oldCode || c.State != oldState {
			if err := notUsed(tx, p, domain.KindComposition, oldCode, oldState); err != nil {
				return err
			}
		}
		if c.State != oldState {
			return ownItemsPriced(tx, p, c)
		}
		return nil
	})
}

// ownItemsPriced checks, for a composition moved to another state, that
// every own item can be priced there: an own resource needs a price line for
// the new state and an own sub-composition must exist in it (they are found
// by code in the composition's state). Otherwise EINVALID on /state naming
// each item, so that a move never turns a price into a silent zero.
func ownItemsPriced(tx Tx, p domain.Principal, c *domain.Composition) error {
	src := source{tx: tx, companyID: p.CompanyID}
	var v domain.Validation
	for _, it := range c.Items {
		if !it.IsOwn() {
			continue
		}
		if it.Kind == domain.KindComposition {
			_, err := src.OwnComposition(it.Code, c.State)
			if isNotFound(err) {
				v.Add("/state", "own composition %s, an item of this composition, does not exist in %s", it.Code, c.State)
			} else if err != nil {
				return err
			}
			continue
		}
		r, err := src.OwnResource(it.Code)
		if err != nil {
			if isNotFound(err) {
				continue // already gone: priced reads list it as missing
			}
			return err
		}
		if _, ok := r.Locals[c.State]; !ok {
			v.Add("/state", "resource %s, an item of this composition, has no price for %s", it.Code, c.State)
		}
	}
	return v.Err()
}

// changeComposition runs change on a composition of the caller's company in
// one write transaction, stores the result and returns it priced. Pricing
// after the write is what detects a composition that now contains itself
// (ECONFLICT); any error rolls everything back.
func (s *Service) changeComposition(ctx context.Context, p domain.Principal, id string, change func(Tx, *domain.Composition) error) (*domain.PricedComposition, error) {
	var out *domain.PricedComposition
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		out, err = s.changeIn(tx, p, id, change)
		return err
	})
	return out, err
}

// changePrepared is changeComposition for a change that reads nothing but
// the composition and bank records (AddItems, RemoveItems): the store may
// prepare it outside its writer (PreparedUpdater).
func (s *Service) changePrepared(ctx context.Context, p domain.Principal, id string, change func(Tx, *domain.Composition) error) (*domain.PricedComposition, error) {
	update := s.store.Update
	if pu, ok := s.store.(PreparedUpdater); ok {
		update = pu.UpdatePrepared
	}
	var out *domain.PricedComposition
	err := update(ctx, func(tx Tx) error {
		var err error
		out, err = s.changeIn(tx, p, id, change)
		return err
	})
	return out, err
}

// changeIn is changeComposition's work in the write transaction tx.
func (s *Service) changeIn(tx Tx, p domain.Principal, id string, change func(Tx, *domain.Composition) error) (*domain.PricedComposition, error) {
	c, err := s.composition(tx, p, id)
	if err != nil {
		return nil, err
	}
	if err := change(tx, c); err != nil {
		return nil, err
	}
	if err := tx.PutComposition(c); err != nil {
		return nil, err
	}
	out, err := price(tx, p, c)
	if err != nil {
		return nil, err
	}
	return out, out.CheckBounds()
}

func checkComposition(tx Tx, p domain.Principal, c *domain.Composition) error {
	var v domain.Validation
	if err := v.Merge("", c.Validate()); err != nil {
		return err
	}
	if err := v.Merge("", checkGroupRef(tx, p, c.GroupID)); err != nil {
		return err
	}
	if c.Code != "" && c.State != "" {
		o, err := tx.CompositionByCode(c.CompanyID, c.Code, c.State)
		if err == nil && o.ID != c.ID {
			v.Add("/code", "is already used by composition %s in %s", o.ID, c.State)
		} else if err != nil && !isNotFound(err) {
			return err
		}
	}
	return v.Err()
}

// Composition returns one composition of the caller's company, priced.
func (s *Service) Composition(ctx context.Context, p domain.Principal, id string) (*domain.PricedComposition, error) {
	var out *domain.PricedComposition
	err := s.store.View(ctx, func(tx Tx) error {
		c, err := s.composition(tx, p, id)
		if err != nil {
			return err
		}
		out, err = price(tx, p, c)
		return err
	})
	return out, err
}

// CompositionByCode returns the composition of the caller's company with the
// code in the state, priced. Without a state, the code's only composition:
// when the company has the code in several states, EINVALID on /state lists
// them; when in none, ENOTFOUND.
func (s *Service) CompositionByCode(ctx context.Context, p domain.Principal, code, state string) (*domain.PricedComposition, error) {
	var out *domain.PricedComposition
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = compositionByCode(tx, p, code, state)
		return err
	})
	return out, err
}

// compositionByCode is CompositionByCode inside a transaction.
func compositionByCode(tx Tx, p domain.Principal, code, state string) (*domain.PricedComposition, error) {
	var c *domain.Composition
	var err error
	if strings.TrimSpace(state) == "" {
		c, err = compositionInAnyState(tx, p, code)
	} else {
		c, err = tx.CompositionByCode(p.CompanyID, code, strings.ToUpper(state))
	}
	if err != nil {
		return nil, err
	}
	return price(tx, p, c)
}

// compositionInAnyState finds the company's composition with the code when
// no state is given.
func compositionInAnyState(tx Tx, p domain.Principal, code string) (*domain.Composition, error) {
	found, _, err := tx.Compositions(p.CompanyID, Query{Where: []Cond{{Op: Equal, Fields: []Field{FieldCode}, Text: code}}})
	if err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, domain.Errorf(domain.ENOTFOUND, "no composition has the code %q", code)
	case 1:
		return found[0], nil
	}
	states := make([]string, len(found))
	for i, c := range found {
		states[i] = c.State
	}
	sort.Strings(states)
	return nil, domain.FieldErrorf("/state", "is required: the code %s exists in the states %s", code, strings.Join(states, ", "))
}

// Compositions lists the compositions of the caller's company that match
// q, priced, in q's order (creation order by default), with the number that
// match. Filters: code, description, search (code or description),
// composition_type (alias type), unit, location (alias state), group,
// is_sicro, tags (has the tag), created_after, created_before; sort
// fields: code, description, composition_type (type), unit, location
// (state), is_sicro, created_at.
// Only the page asked for is priced. Returns EBADREQUEST for a bad query
// (see ListQuery).
func (s *Service) Compositions(ctx context.Context, p domain.Principal, q ListQuery) ([]*domain.PricedComposition, int, error) {
	sq, err := compileQuery(compositionList, q)
	if err != nil {
		return nil, 0, err
	}
	var out []*domain.PricedComposition
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		out = out[:0] // the function may run again (see Store)
		page, n, err := tx.Compositions(p.CompanyID, sq)
		if err != nil {
			return err
		}
		total = n
		pr := domain.NewPricer(source{tx: tx, companyID: p.CompanyID})
		for _, c := range page {
			pc, err := pr.Price(c)
			if err != nil {
				return err
			}
			out = append(out, pc)
		}
		return nil
	})
	return out, total, err
}

// DeleteComposition deletes a composition. Returns ECONFLICT, naming them,
// while other compositions or budgets use it.
func (s *Service) DeleteComposition(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		c, err := s.composition(tx, p, id)
		if err != nil {
			return err
		}
		if err := notUsed(tx, p, domain.KindComposition, c.Code, c.State); err != nil {
			return err
		}
		return tx.DeleteComposition(c.ID)
	})
}

func (s *Service) composition(tx Tx, p domain.Principal, id string) (*domain.Composition, error) {
	c, err := tx.Composition(id)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, c.CompanyID, "composition", id); err != nil {
		return nil, err
	}
	return c, nil
}

// ItemInput is one item to add to a composition. An empty Kind (a v1 item
// without a hint) is resolved from the code: where the code exists both as a
// composition and as a resource, the composition wins (docs/decisions.md).
// An empty Bank with a Kind means the company's own base, unless
// BankRequired: a v1 item always names its bank, and its kind is only a
// hint of what the code is, so an item without a bank is EINVALID on
// `/items/N/bank` whatever its kind (docs/decisions.md, "v1 leniency").
type ItemInput struct {
	Bank         string
	Code         string
	Kind         domain.ItemKind
	Quantity     decimal.Decimal
	Utilization  decimal.NullDecimal
	BankRequired bool
}

// AddItems adds items to a composition, or sets the quantity of those
// already there, and returns it priced. Every item is checked before
// anything is written: an unknown bank or code is EINVALID naming the item
// (`/items/N/code`), more items than Config.MaxItemsPerComposition in the
// composition is EINVALID on `/items`, and an own composition that would
// contain itself is ECONFLICT.
func (s *Service) AddItems(ctx context.Context, p domain.Principal, id string, items []ItemInput) (*domain.PricedComposition, error) {
	return s.changePrepared(ctx, p, id, func(tx Tx, c *domain.Composition) error {
		if err := s.checkCount("/items", len(items)); err != nil {
			return err
		}
		src := source{tx: tx, companyID: p.CompanyID}
		var v domain.Validation
		for i, in := range items {
			ptr := "/items/" + strconv.Itoa(i)
			it, err := resolveItem(src, c, in, ptr)
			if err := v.Merge("", err); err != nil {
				return err
			}
			if err == nil {
				c.SetItem(it)
			}
		}
		if err := v.Err(); err != nil {
			return err
		}
		if n := len(c.Items); n > s.cfg.MaxItemsPerComposition {
			return domain.FieldErrorf("/items", "would give the composition %d items; a composition holds at most %d", n, s.cfg.MaxItemsPerComposition)
		}
		return nil
	})
}

// resolveItem checks an item input against the composition and the store
// and returns the item to set.
func resolveItem(src source, c *domain.Composition, in ItemInput, ptr string) (domain.Item, error) {
	it := domain.Item{
		Bank:        domain.NormalizeBank(in.Bank),
		Code:        strings.TrimSpace(in.Code),
		Kind:        in.Kind,
		Quantity:    in.Quantity,
		Utilization: in.Utilization,
	}
	if it.Bank == "" && it.Kind != "" && !in.BankRequired {
		it.Bank = domain.BankMyBase
	}
	if it.Bank == "" {
		return it, domain.FieldErrorf(ptr+"/bank", "is required")
	}
	probe := it
	if probe.Kind == "" {
		probe.Kind = domain.KindResource // any kind, to check the other fields
	}
	if err := probe.Validate(ptr); err != nil {
		return it, err
	}
	if it.IsOwn() {
		return resolveOwnItem(src, c, it, ptr)
	}
	ref, ok := c.Bank(it.Bank)
	if !ok {
		return it, domain.FieldErrorf(ptr+"/bank", "bank %s is not attached to this composition: attach its edition first (v2 add_banks, v1 add-bases)", it.Bank)
	}
	_, err := src.BankComposition(ref, it.Code)
	foundComp := err == nil
	if err != nil && !isNotFound(err) {
		return it, err
	}
	_, err = src.BankResource(ref, it.Code)
	foundRes := err == nil
	if err != nil && !isNotFound(err) {
		return it, err
	}
	switch {
	case it.Kind == "" && foundComp, it.Kind == domain.KindComposition && foundComp:
		it.Kind = domain.KindComposition
	case it.Kind == "" && foundRes, it.Kind == domain.KindResource && foundRes:
		it.Kind = domain.KindResource
	default:
		what := "code"
		if it.Kind != "" {
			what = string(it.Kind)
		}
		return it, domain.FieldErrorf(ptr+"/code", "%s %s does not exist in %s", what, it.Code, editionName(ref))
	}
	return it, nil
}

func resolveOwnItem(src source, c *domain.Composition, it domain.Item, ptr string) (domain.Item, error) {
	if it.Kind != domain.KindResource {
		sub, err := src.OwnComposition(it.Code, c.State)
		if err == nil {
			if sub.ID == c.ID {
				return it, domain.Errorf(domain.ECONFLICT, "composition %s cannot contain itself", c.Code)
			}
			it.Kind = domain.KindComposition
			return it, nil
		}
		if !isNotFound(err) {
			return it, err
		}
		if it.Kind == domain.KindComposition {
			return it, domain.FieldErrorf(ptr+"/code", "no own composition %s exists in %s", it.Code, c.State)
		}
	}
	r, err := src.OwnResource(it.Code)
	if isNotFound(err) {
		return it, domain.FieldErrorf(ptr+"/code", "no own resource or composition %s exists", it.Code)
	}
	if err != nil {
		return it, err
	}
	if _, ok := r.Locals[c.State]; !ok {
		return it, domain.FieldErrorf(ptr+"/code", "resource %s has no price for %s", it.Code, c.State)
	}
	it.Kind = domain.KindResource
	return it, nil
}

// ItemRef names an item to remove: bank, code and kind. An empty kind
// matches either kind and an empty bank any bank (v1 removes by code alone).
type ItemRef struct {
	Bank string
	Code string
	Kind domain.ItemKind
}

// RemoveItems removes items from a composition and returns it priced. An item
// that is not in the composition is EINVALID naming it, and nothing is removed.
func (s *Service) RemoveItems(ctx context.Context, p domain.Principal, id string, refs []ItemRef) (*domain.PricedComposition, error) {
	return s.changePrepared(ctx, p, id, func(tx Tx, c *domain.Composition) error {
		if err := s.checkCount("/items", len(refs)); err != nil {
			return err
		}
		var v domain.Validation
		for i, ref := range refs {
			bank := domain.NormalizeBank(ref.Bank)
			kept := c.Items[:0:0]
			for _, it := range c.Items {
				match := it.Code == ref.Code && (bank == "" || it.Bank == bank) && (ref.Kind == "" || it.Kind == ref.Kind)
				if !match {
					kept = append(kept, it)
				}
			}
			if len(kept) == len(c.Items) {
				v.Add("/items/"+strconv.Itoa(i)+"/code", "%s is not an item of this composition", strings.TrimSpace(bank+" "+ref.Code))
			}
			c.Items = kept
		}
		return v.Err()
	})
}

// BankInput is one edition to attach to a composition.
type BankInput struct {
	Name   string
	State  string
	Month  string
	Region string
	Report bool
	// WithLaborCharges, when set, is the regime the client prices the bank
	// in: true não desonerado (with full labour charges), false desonerado.
	WithLaborCharges *bool
}

// AddBanks attaches bank editions to a composition, replacing the edition of
// a bank already attached, and returns it priced. Each edition must have
// been imported, and every item of a bank whose edition changes must exist
// in the new edition; otherwise EINVALID names the problem and nothing
// changes. A region named for a bank none of whose editions has a region
// (SINAPI, SICRO) is not part of the lookup: it is kept as the entry's
// AskedRegion and shown back. WithLaborCharges, when set, requires the
// edition to publish that regime's prices (EINVALID on
// /banks/i/with_labor_charges otherwise). Without it an edition imported in
// one regime attaches: the other regime's prices of its items are null and
// listed under missing (never 0).
func (s *Service) AddBanks(ctx context.Context, p domain.Principal, id string, banks []BankInput) (*domain.PricedComposition, error) {
	return s.changeComposition(ctx, p, id, func(tx Tx, c *domain.Composition) error {
		if err := s.checkCount("/banks", len(banks)); err != nil {
			return err
		}
		src := source{tx: tx, companyID: p.CompanyID}
		var v domain.Validation
		for i, in := range banks {
			ptr := "/banks/" + strconv.Itoa(i)
			ref := domain.BankRef{
				Name:   domain.NormalizeBank(in.Name),
				State:  strings.ToUpper(strings.TrimSpace(in.State)),
				Month:  strings.TrimSpace(in.Month),
				Region: strings.TrimSpace(in.Region),
				Report: in.Report,
				// Set when the client said which regime it prices in.
				WithLaborCharges: in.WithLaborCharges,
			}
			if err := v.Merge("", ref.Validate(ptr)); err != nil {
				return err
			}
			if ref.Validate(ptr) != nil {
				continue
			}
			if ref.Region != "" {
				regional, err := bankHasRegions(tx, ref.Name)
				if err != nil {
					return err
				}
				if !regional {
					ref.AskedRegion, ref.Region = ref.Region, ""
				}
			}
			ed, err := tx.Edition(ref.EditionKey())
			if isNotFound(err) {
				msg, err := editionAbsent(tx, ref)
				if err != nil {
					return err
				}
				v.Add(ptr, "%s", msg)
				continue
			} else if err != nil {
				return err
			}
			if w := ref.WithLaborCharges; w != nil {
				reg := domain.Desonerado
				if *w {
					reg = domain.NaoDesonerado
				}
				if !ed.HasRegime(reg) {
					v.Add(ptr+"/with_labor_charges", "edition %s has no %s prices", editionName(ref), reg)
					continue
				}
			}
			// Without with_labor_charges an edition of one regime attaches
			// too: the other regime's prices of its items are unknown, so
			// the pricer shows them null and lists them under missing.
			for j, it := range c.Items {
				if it.Bank != ref.Name {
					continue
				}
				var err error
				if it.Kind == domain.KindComposition {
					_, err = src.BankComposition(ref, it.Code)
				} else {
					_, err = src.BankResource(ref, it.Code)
				}
				if isNotFound(err) {
					v.Add(ptr, "item %d (%s %s) does not exist in %s", j, it.Kind, it.Code, editionName(ref))
				} else if err != nil {
					return err
				}
			}
			c.SetBank(ref)
		}
		return v.Err()
	})
}

// bankHasRegions reports whether any imported edition of the bank has a
// region.
func bankHasRegions(tx Tx, bank string) (bool, error) {
	eds, err := tx.Editions()
	if err != nil {
		return false, err
	}
	for _, e := range eds {
		if e.Bank == bank && e.Region != "" {
			return true, nil
		}
	}
	return false, nil
}

func (s *Service) checkCount(field string, n int) error {
	if n == 0 {
		return domain.FieldErrorf(field, "must not be empty")
	}
	if n > s.cfg.MaxItemsPerRequest {
		return domain.FieldErrorf(field, "has %d entries; at most %d are accepted in one request", n, s.cfg.MaxItemsPerRequest)
	}
	return nil
}

// lackingRegimes names the regimes of want that the edition has no prices
// for ("desonerado", "não desonerado and desonerado"); "" when it has them all.
func lackingRegimes(ed *domain.Edition, want ...domain.Regime) string {
	var names []string
	for _, r := range want {
		if !ed.HasRegime(r) {
			names = append(names, regimeName(r))
		}
	}
	return strings.Join(names, " and ")
}

// regimeName names a regime for a message.
func regimeName(r domain.Regime) string {
	if r == domain.Desonerado {
		return "desonerado"
	}
	return "não desonerado"
}

// editionAbsent says why an edition that is not in the store cannot be
// used: never imported at all, or imported for other states (the edition
// lacks the state asked for), naming those states.
func editionAbsent(tx Tx, ref domain.BankRef) (string, error) {
	eds, err := tx.Editions()
	if err != nil {
		return "", err
	}
	var states []string
	seen := map[string]bool{}
	for _, e := range eds {
		if e.Bank == ref.Name && e.Month == ref.Month && strings.EqualFold(e.Region, ref.Region) && !seen[e.State] {
			seen[e.State] = true
			states = append(states, e.State)
		}
	}
	if len(states) == 0 {
		return "edition " + editionName(ref) + " has not been imported", nil
	}
	return "edition " + editionName(ref) + " has not been imported: " + ref.Name + " " + ref.Month +
		" lacks the state " + ref.State + " (imported for " + listNames(states) + ")", nil
}

// editionName names an edition for a message: "SINAPI MG 08/2026".
func editionName(ref domain.BankRef) string {
	s := ref.Name + " " + ref.State + " " + ref.Month
	if ref.Region != "" {
		s += " " + ref.Region
	}
	return s
}

// price prices one composition inside a transaction.
func price(tx Tx, p domain.Principal, c *domain.Composition) (*domain.PricedComposition, error) {
	return domain.NewPricer(source{tx: tx, companyID: p.CompanyID}).Price(c)
}

// source is the domain.PriceSource of one company over one transaction.
type source struct {
	tx        Tx
	companyID string
}

func (s source) OwnResource(code string) (*domain.Resource, error) {
	return s.tx.ResourceByCode(s.companyID, code)
}

func (s source) OwnComposition(code, state string) (*domain.Composition, error) {
	return s.tx.CompositionByCode(s.companyID, code, state)
}

func (s source) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	r, err := s.tx.BankResource(ref.EditionKey(), code)
	if err != nil || r.Regimes != nil {
		return r, err
	}
	regimes, err := editionRegimes(s.tx, ref)
	if err != nil || regimes == nil {
		return r, err
	}
	out := *r
	out.Regimes = regimes
	return &out, nil
}

func (s source) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	c, err := s.tx.BankComposition(ref.EditionKey(), code)
	if err != nil || c.Regimes != nil {
		return c, err
	}
	regimes, err := editionRegimes(s.tx, ref)
	if err != nil || regimes == nil {
		return c, err
	}
	out := *c
	out.Regimes = regimes
	return &out, nil
}

// editionRegimes are the regimes of a record stored before records kept
// their own (Regimes nil, "every regime of its edition"): the edition's,
// so that a record of an edition imported in one regime never shows the
// other regime's price as 0. Nil when the edition has both (or records no
// regimes): the record is priced as it is.
func editionRegimes(tx Tx, ref domain.BankRef) ([]domain.Regime, error) {
	ed, err := tx.Edition(ref.EditionKey())
	if isNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if len(ed.Regimes) == 0 || len(ed.Regimes) == 2 {
		return nil, nil
	}
	return append([]domain.Regime(nil), ed.Regimes...), nil
}

// EditionFiles implements domain.FileSource: the files the edition was
// read from (none for an edition not held).
func (s source) EditionFiles(key string) ([]domain.SourceFile, error) {
	e, err := s.tx.Edition(key)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return e.Files, nil
}
