package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// VersionChangeCauses splits the change of the total with BDI from version
// a to version b of a budget of the caller's company into causes that add
// up to it exactly (domain.ExplainChange, docs/why-changed.md), each
// version priced from its own snapshot.
func (s *Service) VersionChangeCauses(ctx context.Context, p domain.Principal, id string, a, b int) (*domain.ChangeCauses, error) {
	var out *domain.ChangeCauses
	err := s.store.View(ctx, func(tx Tx) error {
		va, err := s.version(tx, p, id, a)
		if err != nil {
			return err
		}
		vb, err := s.version(tx, p, id, b)
		if err != nil {
			return err
		}
		ba, pa, err := va.Open()
		if err != nil {
			return err
		}
		bb, pb, err := vb.Open()
		if err != nil {
			return err
		}
		out, err = domain.ExplainChange(ba, pa, bb, pb)
		return err
	})
	return out, err
}

// RepriceChangeCauses splits the change of the total with BDI from a
// budget of the caller's company as it is to the budget re-priced against
// t (as RepricePreview prices it) into causes that add up to it exactly.
// Nothing is written.
func (s *Service) RepriceChangeCauses(ctx context.Context, p domain.Principal, id string, t RepriceTarget) (*domain.ChangeCauses, error) {
	var out *domain.ChangeCauses
	err := s.repriced(ctx, p, id, t, func(bp *domain.BudgetPricer, b, nb *domain.Budget) error {
		var err error
		out, err = domain.ExplainChange(b, bp, nb, bp)
		return err
	})
	return out, err
}
