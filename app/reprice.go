package app

import (
	"context"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
)

// RepriceTarget is what a budget is re-priced against: another state, the
// other regime, and other editions of its banks (each replaces the
// budget's edition of the same bank). Nil or empty fields keep the
// budget's.
type RepriceTarget struct {
	State      *string
	Desonerado *bool
	Banks      []BankInput
}

// target returns a copy of b priced against t; EINVALID names bad fields
// ("/banks/0/name" for a bank the budget does not use, "/banks/0" for an
// edition not imported, "/location").
func (t RepriceTarget) target(tx Tx, p domain.Principal, b *domain.Budget) (*domain.Budget, error) {
	nb := b.Clone()
	if t.State != nil {
		nb.State = strings.ToUpper(strings.TrimSpace(*t.State))
	}
	if t.Desonerado != nil {
		nb.Desonerado = *t.Desonerado
	}
	var v domain.Validation
	for i, ref := range bankRefs(t.Banks) {
		ptr := "/banks/" + strconv.Itoa(i)
		found := false
		for j := range nb.Banks {
			if nb.Banks[j].Name == ref.Name {
				nb.Banks[j], found = ref, true
			}
		}
		if !found {
			v.Add(ptr+"/name", "bank %s is not one of the budget's banks", ref.Name)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := checkBudget(tx, p, nb, false); err != nil {
		return nil, err
	}
	return nb, nil
}

// RepricePreview compares a budget of the caller's company priced as it is
// with the same budget priced against the target: per line the unit prices
// and totals before and after, the lines the target cannot price, the
// stages' subtotals, sorted by impact (domain.ComparePrices). Nothing is
// written.
func (s *Service) RepricePreview(ctx context.Context, p domain.Principal, id string, t RepriceTarget) (*domain.PriceDiff, error) {
	var out *domain.PriceDiff
	err := s.repriced(ctx, p, id, t, func(bp *domain.BudgetPricer, b, nb *domain.Budget) error {
		before, err := bp.Synthetic(b)
		if err != nil {
			return err
		}
		after, err := bp.Synthetic(nb)
		if err != nil {
			return err
		}
		out = domain.ComparePrices(before, after)
		return nil
	})
	return out, err
}

// repriced runs fn in a read transaction on a budget of the caller's
// company (b), the same budget re-priced against t (nb) and the pricer of
// both.
func (s *Service) repriced(ctx context.Context, p domain.Principal, id string, t RepriceTarget, fn func(bp *domain.BudgetPricer, b, nb *domain.Budget) error) error {
	return s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		nb, err := t.target(tx, p, b)
		if err != nil {
			return err
		}
		return fn(budgetPricer(tx, p), b, nb)
	})
}

// Reprice creates a new budget, coded code, that is the budget re-priced
// against the target; the budget itself never changes. Lines the target
// cannot price are refused (EINVALID naming each, as on creation) unless
// dropLacking, which leaves them out of the new budget. Description, when
// not empty, replaces the copy's.
func (s *Service) Reprice(ctx context.Context, p domain.Principal, id string, t RepriceTarget, code, description string, dropLacking bool) (*domain.PricedBudget, error) {
	var out *domain.PricedBudget
	err := s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		nb, err := t.target(tx, p, b)
		if err != nil {
			return err
		}
		if dropLacking {
			rep, err := budgetPricer(tx, p).Synthetic(nb)
			if err != nil {
				return err
			}
			for _, r := range rep.Rows {
				if r.Kind.IsLine() && r.Missing {
					if err := nb.RemoveNode(r.NodeID); err != nil {
						return err
					}
				}
			}
		}
		now := s.now()
		nb.ID, nb.UserID, nb.DepartmentID, nb.CreatedAt, nb.UpdatedAt = NewID(now), p.UserID, p.DepartmentID, now, now
		nb.Code = code
		if d := strings.TrimSpace(description); d != "" {
			nb.Description = d
		}
		if err := s.checkTree(tx, p, nb, true, false); err != nil {
			return err
		}
		out, err = saveBudget(tx, p, nb)
		return err
	})
	return out, err
}
