package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/costdb/costdb/domain"
)

// A budget's schedule (domain.Schedule, docs/schedule.md) is kept in a
// setting of the store, "company/<company>/schedule/<budget>", as JSON
// (decimals as text: exact): both engines keep it alike, the migration
// copies it, and a write changes its company's cached answers only
// (SettingCompany). An empty value is no schedule. Deleting the budget
// deletes it.

func scheduleKey(companyID, budgetID string) string {
	return companySettingPrefix + companyID + "/schedule/" + budgetID
}

// A frozen version keeps its own schedule, "…/schedule/<budget>/v<n>":
// freezing copies the budget's schedule into it when that fits, and it can
// be written, read and deleted on its own (WithVersion) against the
// version's tree, which never changes, so it is never stale.
func versionScheduleKey(companyID, budgetID string, n int) string {
	return scheduleKey(companyID, budgetID) + "/v" + strconv.Itoa(n)
}

// scheduleTarget is the budget tree a schedule is written against and the
// key it is kept under: the budget's, or with WithVersion its version n's.
type scheduleTarget struct {
	budget *domain.Budget
	key    string
	what   string // "budget b1", "version 2 of budget b1"
}

func (s *Service) scheduleTarget(ctx context.Context, tx Tx, p domain.Principal, budgetID string) (*scheduleTarget, error) {
	if n, ok := versionOf(ctx); ok {
		v, err := s.version(tx, p, budgetID, n)
		if err != nil {
			return nil, err
		}
		b, _, err := v.Open()
		if err != nil {
			return nil, err
		}
		return &scheduleTarget{budget: b, key: versionScheduleKey(v.CompanyID, v.BudgetID, n),
			what: fmt.Sprintf("version %d of budget %s", n, budgetID)}, nil
	}
	b, err := s.budget(tx, p, budgetID)
	if err != nil {
		return nil, err
	}
	return &scheduleTarget{budget: b, key: scheduleKey(b.CompanyID, b.ID), what: "budget " + budgetID}, nil
}

func (t *scheduleTarget) read(tx Tx) (*domain.Schedule, error) {
	raw, err := tx.Setting(t.key)
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	var sch domain.Schedule
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil, domain.Errorf(domain.EINTERNAL, "schedule of %s: %v", t.what, err)
	}
	return &sch, nil
}

// must reads the schedule; ENOTFOUND when there is none.
func (t *scheduleTarget) must(tx Tx) (*domain.Schedule, error) {
	sch, err := t.read(tx)
	if err == nil && sch == nil {
		err = domain.Errorf(domain.ENOTFOUND, "%s has no schedule", t.what)
	}
	return sch, err
}

// ScheduleInfo is a budget's schedule and whether it still fits the
// budget: Problems says why not (empty: it fits).
type ScheduleInfo struct {
	*domain.Schedule
	Problems []string
}

// Stale reports whether the schedule no longer fits its budget.
func (i *ScheduleInfo) Stale() bool { return len(i.Problems) > 0 }

// PutSchedule writes the schedule of a budget of the caller's company
// (with WithVersion: of its frozen version), replacing the one it had:
// checked on its own and against the budget's tree (every row a node of
// it, no row inside another, every line in a row), every error at once
// (422), nothing written on an error.
func (s *Service) PutSchedule(ctx context.Context, p domain.Principal, budgetID string, in *domain.Schedule) (*ScheduleInfo, error) {
	var out *ScheduleInfo
	err := s.store.Update(ctx, func(tx Tx) error {
		t, err := s.scheduleTarget(ctx, tx, p, budgetID)
		if err != nil {
			return err
		}
		var v domain.Validation
		if err := v.Merge("", in.Validate()); err != nil {
			return err
		}
		for _, problem := range in.Fit(t.budget) {
			v.Add("/rows", "%s", problem)
		}
		if err := v.Err(); err != nil {
			return err
		}
		sch := *in
		sch.BudgetID, sch.UpdatedAt = t.budget.ID, s.now().UTC()
		if err := putSchedule(tx, t.key, &sch); err != nil {
			return err
		}
		out = &ScheduleInfo{Schedule: &sch}
		return nil
	})
	return out, err
}

// Schedule returns the schedule of a budget of the caller's company (with
// WithVersion: of its frozen version), with what no longer fits the budget
// (ScheduleInfo.Problems); ENOTFOUND when it has none.
func (s *Service) Schedule(ctx context.Context, p domain.Principal, budgetID string) (*ScheduleInfo, error) {
	var out *ScheduleInfo
	err := s.store.View(ctx, func(tx Tx) error {
		t, err := s.scheduleTarget(ctx, tx, p, budgetID)
		if err != nil {
			return err
		}
		sch, err := t.must(tx)
		if err != nil {
			return err
		}
		out = &ScheduleInfo{Schedule: sch, Problems: sch.Fit(t.budget)}
		return nil
	})
	return out, err
}

// DeleteSchedule removes the schedule of a budget of the caller's company
// (with WithVersion: of its frozen version); ENOTFOUND when it has none.
func (s *Service) DeleteSchedule(ctx context.Context, p domain.Principal, budgetID string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		t, err := s.scheduleTarget(ctx, tx, p, budgetID)
		if err != nil {
			return err
		}
		if _, err := t.must(tx); err != nil {
			return err
		}
		return tx.PutSetting(t.key, nil)
	})
}

// ScheduleTable returns the physical-financial table of the schedule of a
// budget of the caller's company (with WithVersion: the frozen version's
// own schedule over the version), priced from its synthetic report
// (domain.NewScheduleTable). ENOTFOUND without a schedule; ECONFLICT,
// saying why, when it no longer fits.
func (s *Service) ScheduleTable(ctx context.Context, p domain.Principal, budgetID string) (*domain.ScheduleTable, error) {
	var sch *domain.Schedule
	err := s.store.View(ctx, func(tx Tx) error {
		t, err := s.scheduleTarget(ctx, tx, p, budgetID)
		if err != nil {
			return err
		}
		sch, err = t.must(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return answerable(report(ctx, s, p, budgetID, func(bp *domain.BudgetPricer, b *domain.Budget) (*domain.ScheduleTable, error) {
		syn, err := bp.Synthetic(b)
		if err != nil {
			return nil, err
		}
		return domain.NewScheduleTable(sch, syn)
	}))
}

// freezeSchedule gives version n of budget b a copy of the budget's
// schedule when it has one that fits (a stale one is not copied: the
// version has none until one is written for it).
func freezeSchedule(tx Tx, b *domain.Budget, n int) error {
	sch, err := (&scheduleTarget{key: scheduleKey(b.CompanyID, b.ID), what: "budget " + b.ID}).read(tx)
	if err != nil || sch == nil || len(sch.Fit(b)) > 0 {
		return err
	}
	return putSchedule(tx, versionScheduleKey(b.CompanyID, b.ID, n), sch)
}

// putSchedule stores a schedule under key, as JSON.
func putSchedule(tx Tx, key string, sch *domain.Schedule) error {
	raw, err := json.Marshal(sch)
	if err != nil {
		return err
	}
	return tx.PutSetting(key, raw)
}

// deleteSchedule removes a budget's schedule, and those of its frozen
// versions, with the budget.
func deleteSchedule(tx Tx, b *domain.Budget) error {
	keys := []string{scheduleKey(b.CompanyID, b.ID)}
	if vt, ok := Optional[VersionTx](tx); ok {
		vs, err := vt.BudgetVersions(b.ID)
		if err != nil {
			return err
		}
		for _, v := range vs {
			keys = append(keys, versionScheduleKey(b.CompanyID, b.ID, v.Number))
		}
	}
	for _, k := range keys {
		if raw, err := tx.Setting(k); err != nil {
			return err
		} else if len(raw) > 0 {
			if err := tx.PutSetting(k, nil); err != nil {
				return err
			}
		}
	}
	return nil
}
