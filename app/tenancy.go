package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// User returns a user of the caller's company, without its secret hash. A
// user of another company, or none, is ENOTFOUND ("user <id> not found"):
// what a record's `user` names must be readable by whoever reads the record,
// and nothing more.
func (s *Service) User(ctx context.Context, p domain.Principal, id string) (*domain.User, error) {
	var out *domain.User
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := tx.User(id)
		if err != nil {
			if isNotFound(err) {
				return notFound("user", id)
			}
			return err
		}
		if err := inCompany(p, u.CompanyID, "user", id); err != nil {
			return err
		}
		u.SecretHash = nil
		out = u
		return nil
	})
	return out, err
}

// Department returns a department (sector) of the caller's company; one of
// another company, or none, is ENOTFOUND.
func (s *Service) Department(ctx context.Context, p domain.Principal, id string) (*domain.Department, error) {
	var out *domain.Department
	err := s.store.View(ctx, func(tx Tx) error {
		d, err := tx.Department(id)
		if err != nil {
			if isNotFound(err) {
				return notFound("sector", id)
			}
			return err
		}
		if err := inCompany(p, d.CompanyID, "sector", id); err != nil {
			return err
		}
		out = d
		return nil
	})
	return out, err
}
