package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestComparePrices: the differences of the lines (unit and total with BDI,
// each with its percent), of the stages and of the budget's total, the
// lines sorted by impact, a line the target lacks listed as lacking.
func TestComparePrices(t *testing.T) {
	row := func(id, number string, kind domain.NodeKind, unit, withBDI string, missing bool) domain.SyntheticRow {
		r := domain.SyntheticRow{NodeID: id, Number: number, Kind: kind, Missing: missing}
		r.TotalWithBDI = dec(withBDI)
		if unit != "" {
			r.UnitPrice = dec(unit)
		}
		return r
	}
	before := &domain.SyntheticReport{Rows: []domain.SyntheticRow{
		row("n1", "1", domain.NodeStage, "", "300", false),
		row("n2", "1.1", domain.NodeResource, "10", "100", false),
		row("n3", "1.2", domain.NodeResource, "20", "200", false),
	}, BudgetTotals: domain.BudgetTotals{TotalWithBDI: dec("300")}}
	after := &domain.SyntheticReport{Rows: []domain.SyntheticRow{
		row("n1", "1", domain.NodeStage, "", "110", false),
		row("n2", "1.1", domain.NodeResource, "11", "110", false),
		row("n3", "1.2", domain.NodeResource, "0", "0", true),
	}, BudgetTotals: domain.BudgetTotals{TotalWithBDI: dec("110")}}
	d := domain.ComparePrices(before, after)
	if len(d.Lines) != 2 || d.Lines[0].NodeID != "n3" || d.Lines[1].NodeID != "n2" {
		t.Fatalf("lines by impact: %+v", d.Lines)
	}
	n3, n2 := d.Lines[0], d.Lines[1]
	if !n3.Lacking || n3.UnitDiffPct != nil || !n3.TotalDiff.Equal(dec("-200")) || n3.TotalDiffPct == nil || !n3.TotalDiffPct.Equal(dec("-100")) {
		t.Errorf("lacking line: %+v", n3)
	}
	if n2.Lacking || n2.UnitDiffPct == nil || !n2.UnitDiffPct.Equal(dec("10")) || !n2.TotalDiff.Equal(dec("10")) || !n2.TotalDiffPct.Equal(dec("10")) {
		t.Errorf("line: %+v", n2)
	}
	if len(d.Lacking) != 1 || d.Lacking[0].NodeID != "n3" {
		t.Errorf("lacking: %+v", d.Lacking)
	}
	if len(d.Stages) != 1 || !d.Stages[0].Diff.Equal(dec("-190")) || !d.Stages[0].DiffPct.Equal(dec("-63.33")) {
		t.Errorf("stages: %+v", d.Stages)
	}
	if tot := d.Total; !tot.Before.Equal(dec("300")) || !tot.After.Equal(dec("110")) || !tot.Diff.Equal(dec("-190")) || !tot.DiffPct.Equal(dec("-63.33")) {
		t.Errorf("total: %+v", tot)
	}
	// A zero total before has no percent.
	before.TotalWithBDI = dec("0")
	if d := domain.ComparePrices(before, after); d.Total.DiffPct != nil || !d.Total.Diff.Equal(dec("110")) {
		t.Errorf("total from zero: %+v", d.Total)
	}
}
