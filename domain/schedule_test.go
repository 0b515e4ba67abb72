package domain_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

func shares(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = dec(s)
	}
	return out
}

func fixed(ds []decimal.Decimal) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.StringFixed(2))
	}
	return strings.Join(out, " ")
}

// worldSchedule spreads the world budget's two stages (n1 Fundação
// 518.74 with BDI, n5 Acabamento 162.50) over three months.
func worldSchedule() *domain.Schedule {
	return &domain.Schedule{Start: "09/2026", Periods: 3, Rows: []domain.ScheduleRow{
		{NodeID: "n1", Shares: shares("33.33", "33.33", "33.34")},
		{NodeID: "n5", Shares: shares("0", "50", "50")},
	}}
}

// TestScheduleTable, worked by hand (docs/schedule.md), truncated:
//
//	Fundação   518.74: 518.74 × 33.33% = 172.89, 172.89, 518.74 − 345.78 = 172.96
//	Acabamento 162.50: 0, 162.50 × 50% = 81.25, 162.50 − 81.25 = 81.25
//	periods 172.89, 254.14, 254.21 (681.24); accumulated 172.89, 427.03, 681.24
//	percent 25.38, 37.31, 37.32; accumulated 25.38, 62.68, 100.00
func TestScheduleTable(t *testing.T) {
	syn := worldSynthetic(t, domain.BDIOnUnitPrice)
	if ids := []string{syn.Rows[0].NodeID, syn.Rows[4].NodeID}; ids[0] != "n1" || ids[1] != "n5" {
		t.Fatalf("the world budget's stages are %v", ids)
	}
	tab, err := domain.NewScheduleTable(worldSchedule(), syn)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{fixed(tab.Rows[0].Cells), fixed(tab.Rows[1].Cells)}
	if diff := cmp.Diff([]string{"172.89 172.89 172.96", "0.00 81.25 81.25"}, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
	var tot, acc, pct, accPct []decimal.Decimal
	var labels []string
	for _, p := range tab.Periods {
		tot, acc, pct, accPct = append(tot, p.Total), append(acc, p.Accumulated), append(pct, p.Percent), append(accPct, p.AccumulatedPercent)
		labels = append(labels, p.Label)
	}
	for _, c := range []struct{ what, got, want string }{
		{"totals", fixed(tot), "172.89 254.14 254.21"},
		{"accumulated", fixed(acc), "172.89 427.03 681.24"},
		{"percent", fixed(pct), "25.38 37.31 37.32"},
		{"accumulated percent", fixed(accPct), "25.38 62.68 100.00"},
		{"S curve", fixed(tab.SCurve()), "25.38 62.68 100.00"},
		{"labels", strings.Join(labels, " "), "09/2026 10/2026 11/2026"},
		{"total", tab.Total.StringFixed(2), syn.TotalWithBDI.StringFixed(2)},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
		}
	}
	// Every row's cells add up to its value.
	for _, r := range tab.Rows {
		sum := decimal.Zero
		for _, c := range r.Cells {
			sum = sum.Add(c)
		}
		if !sum.Equal(r.Value) {
			t.Errorf("row %s: cells add up to %s, value %s", r.Number, sum, r.Value)
		}
	}
}

// On the final total the rows carry no BDI and a BDI row spreads the
// footer's 136.25 in proportion to the periods (138.31, 203.31, 203.38 of
// 545): 34.57, 50.82, then 136.25 − 85.39 = 50.86; the table adds up to
// 681.25.
func TestScheduleTableFinalTotal(t *testing.T) {
	tab, err := domain.NewScheduleTable(worldSchedule(), worldSynthetic(t, domain.BDIOnFinalTotal))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3 || tab.Rows[2].Description != "BDI" {
		t.Fatalf("rows %+v", tab.Rows)
	}
	got := []string{fixed(tab.Rows[0].Cells), fixed(tab.Rows[1].Cells), fixed(tab.Rows[2].Cells), tab.Total.StringFixed(2)}
	want := []string{"138.31 138.31 138.38", "0.00 65.00 65.00", "34.57 50.82 50.86", "681.25"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Bad schedules: every error at once; a schedule that no longer fits the
// budget says why and its table is refused.
func TestScheduleValidateAndFit(t *testing.T) {
	s := &domain.Schedule{Start: "2026-09", Periods: 3, Rows: []domain.ScheduleRow{
		{NodeID: "n1", Shares: shares("33.33", "33.33", "33.33")},
		{NodeID: "n1", Shares: shares("50", "50")},
		{NodeID: "n5", Shares: shares("33.333", "33.333", "33.334")},
	}}
	var fields []string
	for _, f := range domain.ErrorFields(s.Validate()) {
		fields = append(fields, f.Field+": "+f.Message)
	}
	want := []string{
		"/start: must be the first month, MM/YYYY, when the periods are months: \"2026-09\"",
		"/rows/0/shares: row n1 adds up to 99.99%, not 100%",
		"/rows/1/node_id: n1 is already row 0",
		"/rows/1/shares: has 2 shares for 3 periods",
		"/rows/2/shares/0: must be a percentage from 0 to 100 with at most 2 places, not 33.333",
		"/rows/2/shares/1: must be a percentage from 0 to 100 with at most 2 places, not 33.333",
		"/rows/2/shares/2: must be a percentage from 0 to 100 with at most 2 places, not 33.334",
	}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}

	syn := worldSynthetic(t, domain.BDIOnUnitPrice)
	misfit := &domain.Schedule{Start: "09/2026", Periods: 1, Rows: []domain.ScheduleRow{
		{NodeID: "n1", Shares: shares("100")}, {NodeID: "n2", Shares: shares("100")}, {NodeID: "n99", Shares: shares("100")},
	}}
	problems := misfit.Fit(syn.Budget)
	want = []string{"row n2 is inside row n1: a node is in one row only", "row n99 names no node of the budget", "lines in no row: n6, n7"}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("fit (-want +got):\n%s", diff)
	}
	if _, err := domain.NewScheduleTable(misfit, syn); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("the table of a schedule that does not fit: %v", err)
	}
	// Lines as rows, and periods of days.
	lines := &domain.Schedule{Start: "2026-09-01", Days: 15, Periods: 2, Rows: []domain.ScheduleRow{
		{NodeID: "n2", Shares: shares("100", "0")}, {NodeID: "n4", Shares: shares("100", "0")},
		{NodeID: "n6", Shares: shares("0", "100")}, {NodeID: "n7", Shares: shares("25", "75")},
	}}
	tab, err := domain.NewScheduleTable(lines, syn)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Periods[1].Label != "2026-09-16" || !tab.Total.Equal(syn.TotalWithBDI) || fixed(tab.Rows[3].Cells) != "31.25 93.75" {
		t.Errorf("lines by days: %s, total %s, R1 %s", tab.Periods[1].Label, tab.Total, fixed(tab.Rows[3].Cells))
	}
}
