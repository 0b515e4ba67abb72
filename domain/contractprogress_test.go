package domain_test

import (
	"slices"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func TestPeriodOf(t *testing.T) {
	months := &domain.Schedule{Start: "09/2026", Periods: 3}
	days := &domain.Schedule{Start: "2026-09-15", Days: 10, Periods: 3}
	for _, c := range []struct {
		s    *domain.Schedule
		date string
		want int
	}{
		{months, "2026-09-01", 0}, {months, "2026-09-30", 0}, {months, "2026-10-01", 1},
		{months, "2027-01-31", 4}, {months, "2026-08-31", -1},
		{days, "2026-09-15", 0}, {days, "2026-09-24", 0}, {days, "2026-09-25", 1},
		{days, "2026-09-14", -1}, {days, "2026-09-05", -1}, {days, "2026-09-04", -2},
	} {
		if k, ok := c.s.PeriodOf(c.date); !ok || k != c.want {
			t.Errorf("PeriodOf(%s) from %s/%d days = %d %v, want %d", c.date, c.s.Start, c.s.Days, k, ok, c.want)
		}
	}
	if _, ok := months.PeriodOf("2026-13-01"); ok {
		t.Error("a date that is not one has a period")
	}
}

// Three planned months (100, 200, 700 of 1000); measurements ending before
// the start, in the first and second months, and two months after the
// last: each counts where its period ends, periods are added after the
// schedule, and the percentages are of the planned total.
func TestNewProgress(t *testing.T) {
	sch := &domain.Schedule{Start: "09/2026", Periods: 3}
	table := &domain.ScheduleTable{Schedule: sch, Total: dec("1000"), Periods: []domain.SchedulePeriod{
		{Label: "09/2026", Total: dec("100")}, {Label: "10/2026", Total: dec("200")}, {Label: "11/2026", Total: dec("700")},
	}}
	c := &domain.Contract{ID: "c1"}
	ms := []*domain.Measurement{
		{Number: 1, PeriodEnd: "2026-08-31"}, {Number: 2, PeriodEnd: "2026-09-30"},
		{Number: 3, PeriodEnd: "2026-10-20"}, {Number: 4, PeriodEnd: "2027-01-10"},
	}
	st := &domain.Statement{Contract: c, Measurements: ms, Contracted: dec("1100"),
		Totals: []decimal.Decimal{dec("10"), dec("70.5"), dec("150.25"), dec("869.25")}}
	pg := domain.NewProgress(table, st)
	type row struct {
		label                       string
		planned, measured, pAcc     string
		mAcc, pPct, mPct, deviation string
		ms                          []int
	}
	want := []row{
		{"09/2026", "100", "80.5", "100", "80.5", "10", "8.05", "-19.5", []int{1, 2}},
		{"10/2026", "200", "150.25", "300", "230.75", "30", "23.08", "-69.25", []int{3}},
		{"11/2026", "700", "0", "1000", "230.75", "100", "23.08", "-769.25", nil},
		{"12/2026", "0", "0", "1000", "230.75", "100", "23.08", "-769.25", nil},
		{"01/2027", "0", "869.25", "1000", "1100", "100", "110", "100", []int{4}},
	}
	if len(pg.Periods) != len(want) {
		t.Fatalf("%d periods, want %d", len(pg.Periods), len(want))
	}
	for k, w := range want {
		p := pg.Periods[k]
		got := row{p.Label, p.Planned.String(), p.Measured.String(), p.PlannedAccumulated.String(), p.MeasuredAccumulated.String(),
			p.PlannedPercent.String(), p.MeasuredPercent.String(), p.Deviation.String(), p.Measurements}
		if got.label != w.label || !dec(got.planned).Equal(dec(w.planned)) || !dec(got.measured).Equal(dec(w.measured)) ||
			!dec(got.pAcc).Equal(dec(w.pAcc)) || !dec(got.mAcc).Equal(dec(w.mAcc)) || !dec(got.pPct).Equal(dec(w.pPct)) ||
			!dec(got.mPct).Equal(dec(w.mPct)) || !dec(got.deviation).Equal(dec(w.deviation)) || !slices.Equal(got.ms, w.ms) {
			t.Errorf("period %d = %+v, want %+v", k, got, w)
		}
	}
	if !pg.Planned.Equal(dec("1000")) || !pg.Measured.Equal(dec("1100")) || !pg.Current.Equal(dec("1100")) {
		t.Errorf("totals planned %s measured %s current %s", pg.Planned, pg.Measured, pg.Current)
	}
}
