package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// abcServicesRows writes a curve's rows as "code quantity total percent
// cumulative class".
func abcServicesRows(r *domain.ABCReport) []string {
	var got []string
	for _, row := range r.Rows {
		got = append(got, row.Code+" "+row.Quantity.String()+" "+row.Total.StringFixed(2)+" "+row.Percent.StringFixed(2)+" "+
			row.CumulativePercent.StringFixed(2)+" "+string(row.Class))
	}
	return got
}

// checkAgainstSynthetic holds the curve of services to the synthetic report
// it ranks: every row's total is the sum of the totals with BDI of the lines
// it groups, and the curve's total is the footer's total with BDI.
func checkAgainstSynthetic(t *testing.T, syn *domain.SyntheticReport, r *domain.ABCReport) {
	t.Helper()
	lines := map[string]decimal.Decimal{}
	for _, row := range syn.Rows {
		if row.Kind != domain.NodeStage {
			k := row.Bank + ":" + row.Code + ":" + row.UnitPriceWithBDI.String()
			lines[k] = lines[k].Add(row.TotalWithBDI)
		}
	}
	sum := decimal.Zero
	for _, row := range r.Rows {
		k := row.Ref.Name + ":" + row.Code + ":" + row.UnitPrice.String()
		if !row.Total.Equal(lines[k]) {
			t.Errorf("%s: total %s, the synthetic lines' %s", k, row.Total, lines[k])
		}
		delete(lines, k)
		sum = sum.Add(row.Total)
	}
	if len(lines) != 0 {
		t.Errorf("lines in no row: %v", lines)
	}
	if !sum.Equal(syn.TotalWithBDI) || !r.Total.Equal(syn.TotalWithBDI) {
		t.Errorf("rows add up to %s, the curve says %s, the synthetic total with BDI is %s", sum, r.Total, syn.TotalWithBDI)
	}
}

// TestServicesABC ranks the lines of the world budget by their totals with
// BDI (TestSynthetic): OUTER 343.74, BC1 175.00, R1 125.00, BC2 37.50, of
// 681.24. OUTER is A (nothing before it), BC1 and R1 B (50.46% and 76.15%
// before them), BC2 C (94.50% before it).
func TestServicesABC(t *testing.T) {
	b := worldBudget(domain.BDIOnUnitPrice)
	syn, err := domain.NewBudgetPricer(worldSource()).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := domain.ServicesABC(syn, domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"OUTER 2 343.74 50.46 50.46 A", "BC1 4 175.00 25.69 76.15 B", "R1 10 125.00 18.35 94.50 B", "BC2 1 37.50 5.50 100.00 C"}
	if diff := cmp.Diff(want, abcServicesRows(r)); diff != "" {
		t.Errorf("curve (-want +got):\n%s", diff)
	}
	if !r.Services() || r.Ranked != domain.RankedServices || !r.Rows[0].UnitPrice.Equal(dec("171.87")) || r.Rows[0].Description != "Composição OUTER" {
		t.Errorf("ranked %q, first row %+v", r.Ranked, r.Rows[0])
	}
	checkAgainstSynthetic(t, syn, r)

	// Limits 40/60: BC1 stays B (50.46 before it), R1 becomes C (76.15).
	r, err = domain.ServicesABC(syn, domain.ABCLimits{A: dec("40"), B: dec("60")})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"OUTER 2 343.74 50.46 50.46 A", "BC1 4 175.00 25.69 76.15 B", "R1 10 125.00 18.35 94.50 C", "BC2 1 37.50 5.50 100.00 C"}
	if diff := cmp.Diff(want, abcServicesRows(r)); diff != "" {
		t.Errorf("curve 40/60 (-want +got):\n%s", diff)
	}
	if _, err := domain.ServicesABC(syn, domain.ABCLimits{A: dec("80"), B: dec("50")}); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("A > B: err %v, want EINVALID", err)
	}
}

// TestServicesABCGroups: the same service in two stages is one row (its
// quantities and totals added); the same code at another unit price with
// BDI (a supply line, differentiated BDI) is a row of its own.
func TestServicesABCGroups(t *testing.T) {
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Items = append(b.Items, stage("Extra",
		line(domain.NodeResource, "SINAPI", "R1", "3"),
		line(domain.NodeResource, "SINAPI", "R1", "7")))
	b.AssignIDs()
	b.SupplyBDI = dec("10")
	b.SupplyNodes = []string{b.Items[2].Items[1].ID}
	syn, err := domain.NewBudgetPricer(worldSource()).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := domain.ServicesABC(syn, domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	// R1 at 12.50: 10 + 3 = 13 → 162.50; R1 supply at 11.00: 7 → 77.00.
	// Total 681.24 + 37.50 + 77.00 = 795.74.
	want := []string{"OUTER 2 343.74 43.20 43.20 A", "BC1 4 175.00 21.99 65.19 A", "R1 13 162.50 20.42 85.61 B",
		"R1 7 77.00 9.68 95.29 C", "BC2 1 37.50 4.71 100.00 C"}
	if diff := cmp.Diff(want, abcServicesRows(r)); diff != "" {
		t.Errorf("curve (-want +got):\n%s", diff)
	}
	checkAgainstSynthetic(t, syn, r)
}

// TestServicesABCFinalTotal: with the BDI on the final total the lines
// carry no BDI (TestSynthetic), so the rows are the lines' totals and add up
// to the footer's total without BDI; the BDI (136.25) is the footer's alone.
func TestServicesABCFinalTotal(t *testing.T) {
	syn, err := domain.NewBudgetPricer(worldSource()).Synthetic(worldBudget(domain.BDIOnFinalTotal))
	if err != nil {
		t.Fatal(err)
	}
	r, err := domain.ServicesABC(syn, domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"OUTER 2 275.00 50.46 50.46 A", "BC1 4 140.00 25.69 76.15 B", "R1 10 100.00 18.35 94.50 B", "BC2 1 30.00 5.50 100.00 C"}
	if diff := cmp.Diff(want, abcServicesRows(r)); diff != "" {
		t.Errorf("curve (-want +got):\n%s", diff)
	}
	if !r.Total.Equal(syn.Total) || !r.Total.Add(syn.BDIValue).Equal(syn.TotalWithBDI) {
		t.Errorf("total %s, synthetic %s + BDI %s = %s", r.Total, syn.Total, syn.BDIValue, syn.TotalWithBDI)
	}
}
