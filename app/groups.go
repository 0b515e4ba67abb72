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
	groups, err := tx.Groups(g.CompanyID)
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
	var out *domain.Group
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = s.group(tx, p, id)
		return err
	})
	return out, err
}

func (s *Service) group(tx Tx, p domain.Principal, id string) (*domain.Group, error) {
	g, err := tx.Group(id)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, g.CompanyID, "group", id); err != nil {
		return nil, err
	}
	return g, nil
}

// Groups lists the groups of the caller's company that match q, in q's
// order (creation order by default), with the number that match. Filters:
// description, created_after, created_before; sort fields: description,
// created_at. Returns EBADREQUEST for a bad query (see ListQuery).
func (s *Service) Groups(ctx context.Context, p domain.Principal, q ListQuery) ([]*domain.Group, int, error) {
	sel, err := compile(groupList, q)
	if err != nil {
		return nil, 0, err
	}
	var out []*domain.Group
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		all, err := tx.Groups(p.CompanyID)
		if err != nil {
			return err
		}
		out, total = sel.apply(all)
		return nil
	})
	return out, total, err
}

// DeleteGroup deletes a group. Returns ECONFLICT, naming the members, while
// resources or compositions still belong to it.
func (s *Service) DeleteGroup(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		g, err := s.group(tx, p, id)
		if err != nil {
			return err
		}
		var members []string
		rs, err := tx.Resources(p.CompanyID)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if r.GroupID == g.ID {
				members = append(members, "resource "+r.Code)
			}
		}
		cs, err := tx.Compositions(p.CompanyID)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if c.GroupID == g.ID {
				members = append(members, "composition "+c.Code+" ("+c.State+")")
			}
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

// listNames joins names for a message, keeping it short.
func listNames(names []string) string {
	const max = 10
	if len(names) > max {
		return strings.Join(names[:max], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}
