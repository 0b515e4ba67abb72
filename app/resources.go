package app

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/costdb/costdb/domain"
)

// ResourceInput is what a client may set on a resource.
type ResourceInput struct {
	GroupID     string
	Code        string
	SecondCode  string
	Description string
	Type        int
	Unit        string
	IsSicro     bool
	Status      bool
	Note        string
	Tags        []string
	// Locals are the prices per state. On update they replace the whole map.
	Locals map[string]domain.PriceLine
}

func (in ResourceInput) apply(r *domain.Resource) {
	r.GroupID = in.GroupID
	r.Code = in.Code
	r.SecondCode = in.SecondCode
	r.Description = strings.TrimSpace(in.Description)
	r.Type = in.Type
	r.Unit = strings.TrimSpace(in.Unit)
	r.IsSicro = in.IsSicro
	r.Status = in.Status
	r.Note = in.Note
	r.Tags = Tags(in.Tags)
	r.Locals = make(map[string]domain.PriceLine, len(in.Locals))
	for st, line := range in.Locals {
		r.Locals[strings.ToUpper(strings.TrimSpace(st))] = line
	}
	r.Normalize()
}

// CreateResource creates a resource in the caller's company. Returns
// EINVALID naming each bad field, including a code already used by another
// resource of the company.
func (s *Service) CreateResource(ctx context.Context, p domain.Principal, in ResourceInput) (*domain.Resource, error) {
	var out *domain.Resource
	err := s.store.Update(ctx, func(tx Tx) error {
		now := s.now()
		r := &domain.Resource{ID: NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID, CreatedAt: now}
		in.apply(r)
		if err := checkResource(tx, p, r); err != nil {
			return err
		}
		out = r
		return tx.PutResource(r)
	})
	return out, err
}

// ResourcePatch names the fields of a resource to change; nil fields stay.
type ResourcePatch struct {
	GroupID     *string
	Code        *string
	SecondCode  *string
	Description *string
	Type        *int
	Unit        *string
	IsSicro     *bool
	Status      *bool
	Note        *string
	Tags        *[]string
	// Locals, when set, replace the whole map of prices per state.
	Locals map[string]domain.PriceLine
}

func (pt ResourcePatch) apply(r *domain.Resource) {
	in := ResourceInput{
		GroupID: r.GroupID, Code: r.Code, SecondCode: r.SecondCode, Description: r.Description,
		Type: r.Type, Unit: r.Unit, IsSicro: r.IsSicro, Status: r.Status, Note: r.Note, Tags: r.Tags, Locals: r.Locals,
	}
	set(&in.GroupID, pt.GroupID)
	set(&in.Code, pt.Code)
	set(&in.SecondCode, pt.SecondCode)
	set(&in.Description, pt.Description)
	set(&in.Type, pt.Type)
	set(&in.Unit, pt.Unit)
	set(&in.IsSicro, pt.IsSicro)
	set(&in.Status, pt.Status)
	set(&in.Note, pt.Note)
	set(&in.Tags, pt.Tags)
	if pt.Locals != nil {
		in.Locals = pt.Locals
	}
	in.apply(r)
}

// Tags are the tags a client sent, as a record keeps them: nil for none.
func Tags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	return slices.Clone(tags)
}

// set copies *from into *to when from is not nil.
func set[T any](to *T, from *T) {
	if from != nil {
		*to = *from
	}
}

// UpdateResource changes the fields the patch names. Returns ENOTFOUND for a
// resource outside the caller's company, EINVALID for a bad field, and
// ECONFLICT when the code changes while a composition or a budget uses the
// resource, or when the prices of a state go while a composition or a
// budget of that state uses it (a silent zero price otherwise).
func (s *Service) UpdateResource(ctx context.Context, p domain.Principal, id string, patch ResourcePatch) (*domain.Resource, error) {
	var out *domain.Resource
	err := s.store.Update(ctx, func(tx Tx) error {
		r, err := s.resource(tx, p, id)
		if err != nil {
			return err
		}
		oldCode, oldLocals := r.Code, r.Locals
		patch.apply(r)
		if err := checkResource(tx, p, r); err != nil {
			return err
		}
		if r.Code != oldCode {
			if err := notUsed(tx, p, domain.KindResource, oldCode, ""); err != nil {
				return err
			}
		}
		if err := statesNotUsed(tx, p, oldCode, oldLocals, r.Locals); err != nil {
			return err
		}
		out = r
		return tx.PutResource(r)
	})
	return out, err
}

func checkResource(tx Tx, p domain.Principal, r *domain.Resource) error {
	var v domain.Validation
	if err := v.Merge("", r.Validate()); err != nil {
		return err
	}
	if err := v.Merge("", checkGroupRef(tx, p, r.GroupID)); err != nil {
		return err
	}
	if r.Code != "" {
		o, err := tx.ResourceByCode(r.CompanyID, r.Code)
		if err == nil && o.ID != r.ID {
			v.Add("/code", "is already used by resource %s", o.ID)
		} else if err != nil && !isNotFound(err) {
			return err
		}
	}
	return v.Err()
}

// Resource returns one resource of the caller's company.
func (s *Service) Resource(ctx context.Context, p domain.Principal, id string) (*domain.Resource, error) {
	return view(ctx, s.store, func(tx Tx) (*domain.Resource, error) { return s.resource(tx, p, id) })
}

// ResourceByCode returns the resource of the caller's company with the code.
func (s *Service) ResourceByCode(ctx context.Context, p domain.Principal, code string) (*domain.Resource, error) {
	return view(ctx, s.store, func(tx Tx) (*domain.Resource, error) { return tx.ResourceByCode(p.CompanyID, code) })
}

func (s *Service) resource(tx Tx, p domain.Principal, id string) (*domain.Resource, error) {
	return ofCompany(p, "resource", id, tx.Resource, func(r *domain.Resource) string { return r.CompanyID })
}

// Resources lists the resources of the caller's company that match q, in
// q's order (creation order by default), with the number that match.
// Filters: code, description, search (code or description), resource_type
// (alias type), unit, group, state (has a price line in the state), status,
// is_sicro, tags (has the tag), created_after, created_before; sort fields:
// code, description, resource_type (type), unit, status, is_sicro,
// created_at. Returns
// EBADREQUEST for a bad query (see ListQuery).
func (s *Service) Resources(ctx context.Context, p domain.Principal, q ListQuery) ([]*domain.Resource, int, error) {
	return listOf(ctx, s.store, p, resourceList, q, Tx.Resources)
}

// DeleteResource deletes a resource. Returns ECONFLICT, naming the
// compositions or budgets, while a composition or a budget uses it.
func (s *Service) DeleteResource(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := s.resource(tx, p, id)
		if err != nil {
			return err
		}
		if err := notUsed(tx, p, domain.KindResource, r.Code, ""); err != nil {
			return err
		}
		return tx.DeleteResource(r.ID)
	})
}

// notUsed returns ECONFLICT when an own resource (or an own composition of
// state) with the code is an item of a composition of the company, or a
// line of one of its budgets.
func notUsed(tx Tx, p domain.Principal, kind domain.ItemKind, code, state string) error {
	// listNames shows the first few users: read no more than that.
	using := Query{Where: []Cond{{Op: Uses, Item: UsedItem{Kind: kind, Code: code, State: state}}}, Limit: maxNames + 1}
	cs, _, err := tx.Compositions(p.CompanyID, using)
	if err != nil {
		return err
	}
	var users []string
	for _, c := range cs {
		users = append(users, c.Code+" ("+c.State+")")
	}
	if len(users) > 0 {
		return domain.Errorf(domain.ECONFLICT, "%s %s is used by compositions %s", kind, code, listNames(users))
	}
	budgets, err := budgetsUsing(tx, p, kind, code, state)
	if err != nil {
		return err
	}
	if len(budgets) > 0 {
		return domain.Errorf(domain.ECONFLICT, "%s %s is used by budgets %s", kind, code, listNames(budgets))
	}
	return nil
}

// maxUsersNamed is how many users of a record a conflict names.
const maxUsersNamed = 20

// statesNotUsed returns ECONFLICT when a state has a price line in before
// and none in after while an own composition of that state has the resource
// (code) as an item, or a budget of that state has it as a line: those
// would lose their price. It names up to maxUsersNamed users.
func statesNotUsed(tx Tx, p domain.Principal, code string, before, after map[string]domain.PriceLine) error {
	gone := map[string]bool{}
	for st := range before {
		if _, ok := after[st]; !ok {
			gone[st] = true
		}
	}
	if len(gone) == 0 {
		return nil
	}
	// Ask, state by state, for the users' number and the first ones (by
	// index), then merge: the first maxUsersNamed users in ID order are
	// among the first of each state.
	using := UsedItem{Kind: domain.KindResource, Code: code}
	var users []string
	total := 0
	states := map[string]bool{}
	type user struct{ id, name string }
	var comps, buds []user
	for st := range gone {
		q := Query{Where: []Cond{{Op: Uses, Item: using}, {Op: EqualFold, Fields: []Field{FieldState}, Text: st}}, Limit: maxUsersNamed}
		cs, nc, err := tx.Compositions(p.CompanyID, q)
		if err != nil {
			return err
		}
		for _, c := range cs {
			comps = append(comps, user{c.ID, "composition " + c.Code + " (" + c.State + ")"})
		}
		bs, nb, err := tx.Budgets(p.CompanyID, q)
		if err != nil {
			return err
		}
		for _, b := range bs {
			buds = append(buds, user{b.ID, "budget " + b.Code + " (" + b.State + ")"})
		}
		if nc+nb > 0 {
			states[st] = true
		}
		total += nc + nb
	}
	byID := func(a, b user) int { return strings.Compare(a.id, b.id) }
	slices.SortFunc(comps, byID)
	slices.SortFunc(buds, byID)
	for _, u := range append(comps, buds...) {
		users = append(users, u.name)
	}
	if total == 0 {
		return nil
	}
	list := make([]string, 0, len(states))
	for st := range states {
		list = append(list, st)
	}
	sort.Strings(list)
	named := users
	if len(named) > maxUsersNamed {
		named = named[:maxUsersNamed]
	}
	msg := strings.Join(named, ", ")
	if more := total - len(named); more > 0 {
		msg += fmt.Sprintf(" and %d more", more)
	}
	return domain.Errorf(domain.ECONFLICT, "resource %s cannot lose its prices in %s: %d compositions or budgets of that state use it (%s)",
		code, strings.Join(list, ", "), total, msg)
}
