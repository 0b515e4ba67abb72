package domain_test

import (
	"fmt"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestBDIRuleLine checks one line in both modes and both rounding options.
// SINAPI 89306 não desonerado (113.33 /m²), 120.5 m², BDI 28.35%:
//
//	price × (1 + 28.35/100) = 113.33 × 1.2835 = 145.459055 → TRUNC 145.45, ROUND 145.46
//	price × quantity        = 113.33 × 120.5  = 13656.265  → TRUNC 13656.26, ROUND 13656.27
//	TRUNC: 145.45 × 120.5 = 17526.725 → 17526.72
//	ROUND: 145.46 × 120.5 = 17527.930 → 17527.93
//
// On the final total a line carries no BDI: its "with BDI" figures repeat
// the plain ones.
func TestBDIRuleLine(t *testing.T) {
	price, qty, rate := dec("113.33"), dec("120.5"), dec("28.35")
	for _, tc := range []struct {
		mode     domain.BDIMode
		rounding domain.BudgetRounding
		want     domain.LineFigures
	}{
		{domain.BDIOnUnitPrice, domain.BudgetTruncate, domain.LineFigures{
			UnitPrice: price, UnitPriceWithBDI: dec("145.45"), Total: dec("13656.26"), TotalWithBDI: dec("17526.72")}},
		{domain.BDIOnUnitPrice, domain.BudgetRound, domain.LineFigures{
			UnitPrice: price, UnitPriceWithBDI: dec("145.46"), Total: dec("13656.27"), TotalWithBDI: dec("17527.93")}},
		{domain.BDIOnFinalTotal, domain.BudgetTruncate, domain.LineFigures{
			UnitPrice: price, UnitPriceWithBDI: price, Total: dec("13656.26"), TotalWithBDI: dec("13656.26")}},
		{domain.BDIOnFinalTotal, domain.BudgetRound, domain.LineFigures{
			UnitPrice: price, UnitPriceWithBDI: price, Total: dec("13656.27"), TotalWithBDI: dec("13656.27")}},
	} {
		rule := domain.BDIRule{Rate: rate, Mode: tc.mode, Rounding: tc.rounding}
		if diff := cmp.Diff(tc.want, rule.Line(price, qty), decEqual); diff != "" {
			t.Errorf("%s, %s (-want +got):\n%s", tc.mode, tc.rounding, diff)
		}
	}
}

// TestBDIRuleTotals checks the footer in both modes and both rounding
// options.
//
// On the unit price the footer adds the lines: with the lines above, total
// 13656.26 and total with BDI 17526.72 (TRUNC) give a BDI value of 3870.46.
//
// On the final total:
//
//	TRUNC: 13656.26 × 28.35/100 = 3871.54971  → 3871.54; total with BDI 17527.80
//	ROUND: 13656.27 × 28.35/100 = 3871.552545 → 3871.55; total with BDI 17527.82
func TestBDIRuleTotals(t *testing.T) {
	rate := dec("28.35")
	for _, tc := range []struct {
		mode            domain.BDIMode
		rounding        domain.BudgetRounding
		total, withBDI  string // sums of the lines
		wantBDI, wantWB string
	}{
		{domain.BDIOnUnitPrice, domain.BudgetTruncate, "13656.26", "17526.72", "3870.46", "17526.72"},
		{domain.BDIOnUnitPrice, domain.BudgetRound, "13656.27", "17527.93", "3871.66", "17527.93"},
		{domain.BDIOnFinalTotal, domain.BudgetTruncate, "13656.26", "13656.26", "3871.54", "17527.80"},
		{domain.BDIOnFinalTotal, domain.BudgetRound, "13656.27", "13656.27", "3871.55", "17527.82"},
	} {
		rule := domain.BDIRule{Rate: rate, Mode: tc.mode, Rounding: tc.rounding}
		want := domain.BudgetTotals{Total: dec(tc.total), BDIValue: dec(tc.wantBDI), TotalWithBDI: dec(tc.wantWB)}
		if diff := cmp.Diff(want, rule.Totals(dec(tc.total), dec(tc.withBDI)), decEqual); diff != "" {
			t.Errorf("%s, %s (-want +got):\n%s", tc.mode, tc.rounding, diff)
		}
	}
}

// TestBudgetRoundingCut: TRUNC and ROUND half up to 2 places.
func TestBudgetRoundingCut(t *testing.T) {
	for _, tc := range []struct {
		in             string
		trunc, rounded string
	}{
		{"1.234", "1.23", "1.23"},
		{"1.235", "1.23", "1.24"},
		{"1.2399999", "1.23", "1.24"},
		{"7", "7", "7"},
		{"0.005", "0", "0.01"},
	} {
		if got := domain.BudgetTruncate.Cut(dec(tc.in)); !got.Equal(dec(tc.trunc)) {
			t.Errorf("truncate %s = %s, want %s", tc.in, got, tc.trunc)
		}
		if got := domain.BudgetRound.Cut(dec(tc.in)); !got.Equal(dec(tc.rounded)) {
			t.Errorf("round %s = %s, want %s", tc.in, got, tc.rounded)
		}
	}
}

// A line of 120.5 m² of SINAPI 89306 (113.33 /m²) with a BDI of 25% on the
// unit price, truncating: 113.33 × 1.25 = 141.6625 → 141.66 per m²; the
// line costs TRUNC(113.33 × 120.5 = 13656.265) = 13656.26 without BDI and
// TRUNC(141.66 × 120.5) = 17070.03 with it. Applied on the final total
// instead, the BDI is TRUNC(13656.26 × 0.25 = 3414.065) = 3414.06.
func ExampleBDIRule() {
	price, qty := domain.Dec("113.33"), domain.Dec("120.5")
	rule := domain.BDIRule{Rate: domain.Dec("25"), Mode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate}
	line := rule.Line(price, qty)
	fmt.Println("unit price with BDI:", line.UnitPriceWithBDI)
	fmt.Println("total:", line.Total, "with BDI:", line.TotalWithBDI)
	foot := rule.Totals(line.Total, line.TotalWithBDI)
	fmt.Println("footer BDI:", foot.BDIValue)

	rule.Mode = domain.BDIOnFinalTotal
	line = rule.Line(price, qty)
	foot = rule.Totals(line.Total, line.TotalWithBDI)
	fmt.Println("final total mode:", foot.Total, "+", foot.BDIValue, "=", foot.TotalWithBDI)
	// Output:
	// unit price with BDI: 141.66
	// total: 13656.26 with BDI: 17070.03
	// footer BDI: 3413.77
	// final total mode: 13656.26 + 3414.06 = 17070.32
}
