package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// ConformityReference names the reference of a conformity report: a budget
// of the caller's company as it is, or its frozen version Version (> 0).
type ConformityReference struct {
	BudgetID string
	Version  int
}

// Conformity holds a budget of the caller's company (the proposal) against
// its reference (domain.NewConformity, docs/conformity.md), with the
// proposal's BDI checked against TCU's ranges (CheckedBDI). Nothing is
// written.
func (s *Service) Conformity(ctx context.Context, p domain.Principal, id string, ref ConformityReference, limits domain.ConformityLimits) (*domain.Conformity, *BudgetBDI, error) {
	var out *domain.Conformity
	var bdi *BudgetBDI
	err := s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		bp := budgetPricer(tx, p)
		syn, err := bp.Synthetic(b)
		if err != nil {
			return err
		}
		rsyn, err := s.referenceReport(tx, p, ref)
		if err != nil {
			return err
		}
		if out, err = domain.NewConformity(syn, rsyn, limits); err != nil {
			return err
		}
		bdi = CheckedBDI(b)
		return nil
	})
	return out, bdi, err
}

// ContractConformity compares a contract of the caller's company with a
// reference (a budget or its version) before and after its approved
// amendments (domain.NewContractDiscount: Decreto 7.983/2013, art. 14).
func (s *Service) ContractConformity(ctx context.Context, p domain.Principal, id string, ref ConformityReference) (*domain.ContractDiscount, error) {
	var out *domain.ContractDiscount
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := s.contractView(tx, p, id, false)
		if err != nil {
			return err
		}
		rsyn, err := s.referenceReport(tx, p, ref)
		if err != nil {
			return err
		}
		out = domain.NewContractDiscount(v.State, rsyn)
		return nil
	})
	return out, err
}

// referenceReport prices a conformity's reference: the budget as it is, or
// its frozen version from its own snapshot.
func (s *Service) referenceReport(tx Tx, p domain.Principal, ref ConformityReference) (*domain.SyntheticReport, error) {
	if ref.Version > 0 {
		v, err := s.version(tx, p, ref.BudgetID, ref.Version)
		if err != nil {
			return nil, err
		}
		rb, rbp, err := v.Open()
		if err != nil {
			return nil, err
		}
		return rbp.Synthetic(rb)
	}
	rb, err := s.budget(tx, p, ref.BudgetID)
	if err != nil {
		return nil, err
	}
	return budgetPricer(tx, p).Synthetic(rb)
}
