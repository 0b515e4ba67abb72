package app

import (
	"context"
	"strings"

	"github.com/costdb/costdb/domain"
)

// GroupInput is what a client may set on a group.
type GroupInput struct {
	Description string
}

// CreateGroup creates a group in the caller's company. Returns EINVALID when
// the description is missing or already used by another group of the company.
func (s *Service) CreateGroup(ctx context.Context, p domain.Principal, in GroupInput) (*domain.Group, error) {
	var out *domain.Group
	err := s.store.Update(ctx, func(tx Tx) error {
		now := s.now()
		g := &domain.Group{
			ID: NewID(now), CompanyID: p.CompanyID, UserID: p.UserID, DepartmentID: p.DepartmentID,
			Description: strings.TrimSpace(in.Description), CreatedAt: now,
		}
		if err := checkGroup(tx, g); err != nil {
			return err
		}
		out = g
		return tx.PutGroup(g)
	})
	return out, err
}

// UpdateGroup changes a group's description. Returns ENOTFOUND for a group
// outside the caller's company.
func (s *Service) UpdateGroup(ctx context.Context, p domain.Principal, id string, in GroupInput) (*domain.Group, error) {
	var out *domain.Group
	err := s.store.Update(ctx, func(tx Tx) error {
		g, err := s.group(tx, p, id)
		if err != nil {
			return err
		}
		g.Description = strings.TrimSpace(in.Description)
		if err := checkGroup(tx, g); err != nil {
			return err
		}
		out = g
		return tx.PutGroup(g)
	})
	return out, err
}

func checkGroup(tx Tx, g *domain.Group) error {
	if err := g.Validate(); err != nil {
		return err
	}
	// At most two groups of the company can have the description once
	// case is ignored: g itself and the one it would clash with.
	groups, _, err := tx.Groups(g.CompanyID, Query{
		Where: []Cond{{Op: EqualFold, Fields: []Field{FieldDescription}, Text: g.Description}},
		Limit: 2,
	})
	if err != nil {
		return err
	}
	for _, o := range groups {
		if o.ID != g.ID && strings.EqualFold(o.Description, g.Description) {
			return domain.FieldErrorf("/description", "is already used by group %s", o.ID)
		}
	}
	return nil
}

// Group returns one group of the caller's company.
func (s *Service) Group(ctx context.Context, p domain.Principal, id string) (*domain.Group, error) {
	return view(ctx, s.store, func(tx Tx) (*domain.Group, error) { return s.group(tx, p, id) })
}

func (s *Service) group(tx Tx, p domain.Principal, id string) (*domain.Group, error) {
	return ofCompany(p, "group", id, tx.Group, func(g *domain.Group) string { return g.CompanyID })
}

// Groups lists the groups of the caller's company that match q, in q's
// order (creation order by default), with the number that match. Filters:
// description, created_after, created_before; sort fields: description,
// created_at. Returns EBADREQUEST for a bad query (see ListQuery).
func (s *Service) Groups(ctx context.Context, p domain.Principal, q ListQuery) ([]*domain.Group, int, error) {
	return listOf(ctx, s.store, p, groupList, q, Tx.Groups)
}

// DeleteGroup deletes a group. Returns ECONFLICT, naming the members, while
// resources or compositions still belong to it.
func (s *Service) DeleteGroup(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		g, err := s.group(tx, p, id)
		if err != nil {
			return err
		}
		// listNames shows the first few members: read no more than that.
		var members []string
		inGroup := Query{Where: []Cond{{Op: Equal, Fields: []Field{FieldGroup}, Text: g.ID}}, Limit: maxNames + 1}
		rs, _, err := tx.Resources(p.CompanyID, inGroup)
		if err != nil {
			return err
		}
		for _, r := range rs {
			members = append(members, "resource "+r.Code)
		}
		cs, _, err := tx.Compositions(p.CompanyID, inGroup)
		if err != nil {
			return err
		}
		for _, c := range cs {
			members = append(members, "composition "+c.Code+" ("+c.State+")")
		}
		if len(members) > 0 {
			return domain.Errorf(domain.ECONFLICT, "group %s still has members: %s", g.Description, listNames(members))
		}
		return tx.DeleteGroup(g.ID)
	})
}

// checkGroupRef checks that a group id, when given, names a group of the company.
func checkGroupRef(tx Tx, p domain.Principal, groupID string) error {
	if groupID == "" {
		return nil
	}
	g, err := tx.Group(groupID)
	if isNotFound(err) || (err == nil && g.CompanyID != p.CompanyID) {
		return domain.FieldErrorf("/group_id", "names no group of your company")
	}
	return err
}

// maxNames is how many names a message lists (listNames).
const maxNames = 10

// listNames joins names for a message, keeping it short: the first maxNames,
// then "…" when there are more.
func listNames(names []string) string {
	if len(names) > maxNames {
		return strings.Join(names[:maxNames], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}
