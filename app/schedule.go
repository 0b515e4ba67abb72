package app

import (
	"context"
	"encoding/json"

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

// ScheduleInfo is a budget's schedule and whether it still fits the
// budget: Problems says why not (empty: it fits).
type ScheduleInfo struct {
	*domain.Schedule
	Problems []string
}

// Stale reports whether the schedule no longer fits its budget.
func (i *ScheduleInfo) Stale() bool { return len(i.Problems) > 0 }

func readSchedule(tx Tx, companyID, budgetID string) (*domain.Schedule, error) {
	b, err := tx.Setting(scheduleKey(companyID, budgetID))
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var s domain.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, domain.Errorf(domain.EINTERNAL, "schedule of budget %s: %v", budgetID, err)
	}
	return &s, nil
}

// PutSchedule writes the schedule of a budget of the caller's company,
// replacing the one it had: checked on its own and against the budget
// (every row a node of it, no row inside another, every line in a row),
// every error at once (422), nothing written on an error.
func (s *Service) PutSchedule(ctx context.Context, p domain.Principal, budgetID string, in *domain.Schedule) (*ScheduleInfo, error) {
	var out *ScheduleInfo
	err := s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, budgetID)
		if err != nil {
			return err
		}
		var v domain.Validation
		if err := v.Merge("", in.Validate()); err != nil {
			return err
		}
		for _, problem := range in.Fit(b) {
			v.Add("/rows", "%s", problem)
		}
		if err := v.Err(); err != nil {
			return err
		}
		sch := *in
		sch.BudgetID, sch.UpdatedAt = b.ID, s.now().UTC()
		raw, err := json.Marshal(&sch)
		if err != nil {
			return err
		}
		if err := tx.PutSetting(scheduleKey(b.CompanyID, b.ID), raw); err != nil {
			return err
		}
		out = &ScheduleInfo{Schedule: &sch}
		return nil
	})
	return out, err
}

// Schedule returns the schedule of a budget of the caller's company, with
// what no longer fits the budget (ScheduleInfo.Problems); ENOTFOUND when
// the budget has none.
func (s *Service) Schedule(ctx context.Context, p domain.Principal, budgetID string) (*ScheduleInfo, error) {
	var out *ScheduleInfo
	err := s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, budgetID)
		if err != nil {
			return err
		}
		sch, err := readSchedule(tx, b.CompanyID, b.ID)
		if err != nil {
			return err
		}
		if sch == nil {
			return domain.Errorf(domain.ENOTFOUND, "budget %s has no schedule", budgetID)
		}
		out = &ScheduleInfo{Schedule: sch, Problems: sch.Fit(b)}
		return nil
	})
	return out, err
}

// DeleteSchedule removes the schedule of a budget of the caller's company;
// ENOTFOUND when it has none.
func (s *Service) DeleteSchedule(ctx context.Context, p domain.Principal, budgetID string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, budgetID)
		if err != nil {
			return err
		}
		sch, err := readSchedule(tx, b.CompanyID, b.ID)
		if err != nil {
			return err
		}
		if sch == nil {
			return domain.Errorf(domain.ENOTFOUND, "budget %s has no schedule", budgetID)
		}
		return tx.PutSetting(scheduleKey(b.CompanyID, b.ID), nil)
	})
}

// ScheduleTable returns the physical-financial table of the schedule of a
// budget of the caller's company (a frozen version with WithVersion: the
// budget's schedule over the version's tree), priced from its synthetic
// report (domain.NewScheduleTable). ENOTFOUND without a schedule;
// ECONFLICT, saying why, when it no longer fits.
func (s *Service) ScheduleTable(ctx context.Context, p domain.Principal, budgetID string) (*domain.ScheduleTable, error) {
	var sch *domain.Schedule
	err := s.store.View(ctx, func(tx Tx) error {
		b, err := s.budget(tx, p, budgetID)
		if err != nil {
			return err
		}
		if sch, err = readSchedule(tx, b.CompanyID, b.ID); err == nil && sch == nil {
			err = domain.Errorf(domain.ENOTFOUND, "budget %s has no schedule", budgetID)
		}
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

// deleteSchedule removes a budget's schedule with the budget.
func deleteSchedule(tx Tx, b *domain.Budget) error {
	sch, err := readSchedule(tx, b.CompanyID, b.ID)
	if err != nil || sch == nil {
		return err
	}
	return tx.PutSetting(scheduleKey(b.CompanyID, b.ID), nil)
}
