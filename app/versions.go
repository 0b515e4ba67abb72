package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// versionTx returns the store's version operations.
func versionTx(tx Tx) (VersionTx, error) {
	v, ok := Optional[VersionTx](tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no budget versions")
	}
	return v, nil
}

// FreezeBudget freezes a budget of the caller's company: a new immutable
// version (numbered after the last) holding the budget as it is and every
// price its reports read (domain.Freeze), with the SHA-256 of its
// canonical encoding and the time. The budget itself does not change.
func (s *Service) FreezeBudget(ctx context.Context, p domain.Principal, id string) (*domain.BudgetVersion, error) {
	var out *domain.BudgetVersion
	err := s.store.Update(ctx, func(tx Tx) error {
		vt, err := versionTx(tx)
		if err != nil {
			return err
		}
		b, err := s.budget(tx, p, id)
		if err != nil {
			return err
		}
		list, err := vt.BudgetVersions(b.ID)
		if err != nil {
			return err
		}
		content, hash, err := domain.Freeze(b, source{tx: tx, companyID: p.CompanyID})
		if err != nil {
			return err
		}
		out = &domain.BudgetVersion{CompanyID: p.CompanyID, BudgetID: b.ID, Number: len(list) + 1,
			FrozenAt: s.now(), Hash: hash, Content: content}
		if err := vt.PutBudgetVersion(out); err != nil {
			return err
		}
		if err := freezeSchedule(tx, b, out.Number); err != nil {
			return err
		}
		return s.emit(tx, p.CompanyID, domain.EventBudgetFrozen, budgetVersionPath(b.ID, out.Number),
			map[string]any{"budget_id": b.ID, "code": b.Code, "version": out.Number, "hash": out.Hash})
	})
	return out, err
}

// BudgetVersions lists the frozen versions of a budget of the caller's
// company, by number.
func (s *Service) BudgetVersions(ctx context.Context, p domain.Principal, id string) ([]*domain.BudgetVersion, error) {
	var out []*domain.BudgetVersion
	err := s.store.View(ctx, func(tx Tx) error {
		vt, err := versionTx(tx)
		if err != nil {
			return err
		}
		if _, err := s.budget(tx, p, id); err != nil {
			return err
		}
		out, err = vt.BudgetVersions(id)
		return err
	})
	return out, err
}

// BudgetVersion returns version n of a budget of the caller's company.
func (s *Service) BudgetVersion(ctx context.Context, p domain.Principal, id string, n int) (*domain.BudgetVersion, error) {
	var out *domain.BudgetVersion
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = s.version(tx, p, id, n)
		return err
	})
	return out, err
}

func (s *Service) version(tx Tx, p domain.Principal, id string, n int) (*domain.BudgetVersion, error) {
	vt, err := versionTx(tx)
	if err != nil {
		return nil, err
	}
	if _, err := s.budget(tx, p, id); err != nil {
		return nil, err
	}
	v, err := vt.BudgetVersion(id, n)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, v.CompanyID, "budget version", id); err != nil {
		return nil, err
	}
	return v, nil
}

// PriceVersion returns the budget of a frozen version priced from the
// version alone (its budget and price snapshot): with the footer its
// synthetic report computes. v is one the caller read through this
// Service (FreezeBudget, BudgetVersions, BudgetVersion).
func (s *Service) PriceVersion(v *domain.BudgetVersion) (*domain.PricedBudget, error) {
	b, bp, err := v.Open()
	if err != nil {
		return nil, err
	}
	return bp.Price(b)
}

// VersionReport computes a report of version n of a budget from the
// version alone (its budget and price snapshot), with the version.
func VersionReport[T any](ctx context.Context, s *Service, p domain.Principal, id string, n int,
	compute func(*domain.BudgetPricer, *domain.Budget) (T, error)) (T, *domain.BudgetVersion, error) {
	var out T
	var ver *domain.BudgetVersion
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := s.version(tx, p, id, n)
		if err != nil {
			return err
		}
		b, bp, err := v.Open()
		if err != nil {
			return err
		}
		ver = v
		out, err = compute(bp, b)
		return err
	})
	return out, ver, err
}

// CompareVersions compares versions a and b of a budget line by line
// (domain.ComparePrices, the re-pricing diff).
func (s *Service) CompareVersions(ctx context.Context, p domain.Principal, id string, a, b int) (*domain.PriceDiff, error) {
	var out *domain.PriceDiff
	err := s.store.View(ctx, func(tx Tx) error {
		var reps [2]*domain.SyntheticReport
		for i, n := range []int{a, b} {
			v, err := s.version(tx, p, id, n)
			if err != nil {
				return err
			}
			bud, bp, err := v.Open()
			if err != nil {
				return err
			}
			if reps[i], err = bp.Synthetic(bud); err != nil {
				return err
			}
		}
		out = domain.ComparePrices(reps[0], reps[1])
		return nil
	})
	return out, err
}

type versionKey struct{}

// WithVersion returns ctx asking the report use cases (SyntheticReport,
// AnalyticReport, ABCReport) for the reports of version n of the budget
// instead of the budget as it is now.
func WithVersion(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, versionKey{}, n)
}

func versionOf(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(versionKey{}).(int)
	return n, ok
}

// CheckVersion checks version n of a budget of the caller's company
// against the editions held (domain.CheckVersion, docs/verify.md): its
// bank records against the editions' records now, the files recorded at
// the freeze against the files the editions record now, and its figures
// recomputed.
func (s *Service) CheckVersion(ctx context.Context, p domain.Principal, id string, n int) (*domain.VersionCheck, *domain.BudgetVersion, error) {
	var out *domain.VersionCheck
	var ver *domain.BudgetVersion
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := s.version(tx, p, id, n)
		if err != nil {
			return err
		}
		ver = v
		out, err = domain.CheckVersion(v.Content, heldEditions{source{tx: tx}})
		return err
	})
	return out, ver, err
}

// CheckVersionContent checks a version's canonical content (a version
// exported, read back) against the editions this store holds: what
// `costdb verify` asks of a store it filled from the official files.
func (s *Service) CheckVersionContent(ctx context.Context, content []byte) (*domain.VersionCheck, error) {
	var out *domain.VersionCheck
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = domain.CheckVersion(content, heldEditions{source{tx: tx}})
		return err
	})
	return out, err
}

// heldEditions is the store's editions as domain.CheckVersion reads them:
// the bank records as a budget reads them (source), and each edition's
// files.
type heldEditions struct{ source }

func (h heldEditions) EditionFiles(key string) ([]domain.SourceFile, bool, error) {
	e, err := h.tx.Edition(key)
	if isNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return e.Files, true, nil
}
