package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Progress is a contract's planned against measured (docs/contracts.md):
// the schedule of the version the contract was made from (its
// physical-financial table) against the approved measurements, per period
// and accumulated. A measurement counts in the schedule period its
// period_end falls in (PeriodOf); one ending before the schedule's start
// counts in its first period, and periods are added after the schedule's
// last while measurements end after it (planned nothing there). Values are
// with BDI and without readjustment, the boletins' period totals; both
// percentages are of the planned total (the version's total with BDI, the
// contract's initial value), so the two curves share one scale, and the
// measured one passes 100% only when amendments added to the contract.
type Progress struct {
	Contract *Contract
	Table    *ScheduleTable
	Periods  []ProgressPeriod
	// Planned is the schedule's total; Measured the approved measurements'
	// (Σ periods); Current the contract's value after its approved
	// amendments.
	Planned, Measured, Current decimal.Decimal
}

// ProgressPeriod is one period of a Progress.
type ProgressPeriod struct {
	Label               string
	Planned, Measured   decimal.Decimal
	PlannedAccumulated  decimal.Decimal
	MeasuredAccumulated decimal.Decimal
	// Percentages of the planned total, accumulated, half up to 2 places.
	PlannedPercent, MeasuredPercent decimal.Decimal
	// Deviation is MeasuredAccumulated − PlannedAccumulated: below zero,
	// behind the schedule.
	Deviation    decimal.Decimal
	Measurements []int // the numbers of the measurements counted here
}

// PeriodOf returns the index of the schedule's period a date (YYYY-MM-DD)
// falls in: below 0 before the start, Periods or more after the last.
// ok is false when the date is not one.
func (s *Schedule) PeriodOf(date string) (k int, ok bool) {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return 0, false
	}
	if s.Days == 0 {
		start, err := time.Parse("01/2006", s.Start)
		if err != nil {
			return 0, false
		}
		return (d.Year()-start.Year())*12 + int(d.Month()-start.Month()), true
	}
	start, err := time.Parse(time.DateOnly, s.Start)
	if err != nil {
		return 0, false
	}
	days := int(d.Sub(start).Hours() / 24)
	if days < 0 {
		return -((-days + s.Days - 1) / s.Days), true
	}
	return days / s.Days, true
}

// NewProgress sets the statement's approved measurements against the
// table of the contract's schedule. current is the contract's value after
// its approved amendments (the statement's Contracted).
func NewProgress(t *ScheduleTable, st *Statement) *Progress {
	pg := &Progress{Contract: st.Contract, Table: t, Planned: t.Total, Current: st.Contracted}
	n := len(t.Periods)
	at := make([]int, len(st.Measurements))
	for i, m := range st.Measurements {
		k, ok := t.Schedule.PeriodOf(m.PeriodEnd)
		if !ok || k < 0 {
			k = 0
		}
		at[i] = k
		n = max(n, k+1)
	}
	pg.Periods = make([]ProgressPeriod, n)
	for k := range pg.Periods {
		p := &pg.Periods[k]
		p.Label = t.Schedule.PeriodLabel(k)
		if k < len(t.Periods) {
			p.Planned = t.Periods[k].Total
		}
	}
	for i, m := range st.Measurements {
		p := &pg.Periods[at[i]]
		p.Measured = p.Measured.Add(st.Totals[i])
		p.Measurements = append(p.Measurements, m.Number)
	}
	var planned, measured decimal.Decimal
	for k := range pg.Periods {
		p := &pg.Periods[k]
		planned, measured = planned.Add(p.Planned), measured.Add(p.Measured)
		p.PlannedAccumulated, p.MeasuredAccumulated = planned, measured
		p.Deviation = measured.Sub(planned)
		if !t.Total.IsZero() {
			p.PlannedPercent = planned.Shift(2).DivRound(t.Total, 2)
			p.MeasuredPercent = measured.Shift(2).DivRound(t.Total, 2)
		}
	}
	pg.Measured = measured
	return pg
}
