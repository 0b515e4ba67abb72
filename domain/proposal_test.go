package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// proposalRows writes a proposal's rows as "number reference-unit unit
// reference-total total".
func proposalRows(p *domain.Proposal) []string {
	var out []string
	for _, r := range p.Rows {
		out = append(out, r.Number+" "+r.ReferenceUnitPrice.StringFixed(2)+" "+r.UnitPrice.StringFixed(2)+" "+
			r.ReferenceTotal.StringFixed(2)+" "+r.Total.StringFixed(2))
	}
	return out
}

func worldSynthetic(t *testing.T, mode domain.BDIMode) *domain.SyntheticReport {
	t.Helper()
	syn, err := domain.NewBudgetPricer(worldSource()).Synthetic(worldBudget(mode))
	if err != nil {
		t.Fatal(err)
	}
	return syn
}

// TestProposal: the world budget (TestSynthetic, truncated) under 10%,
// worked by hand (docs/proposals.md):
//
//	OUTER 171.87 × 0.9 = 154.683 → 154.68 × 2  = 309.36
//	BC1    43.75 × 0.9 =  39.375 →  39.37 × 4  = 157.48
//	BC2    37.50 × 0.9 =  33.75  →  33.75 × 1  =  33.75
//	R1     12.50 × 0.9 =  11.25  →  11.25 × 10 = 112.50
//	total 613.09 of 681.24: (681.24 − 613.09) / 681.24 = 10.0038%
//
// On the final total the unit prices without BDI take the discount and
// the BDI is added to their sum: 123.75 × 2 + 31.50 × 4 + 27 + 9 × 10 =
// 490.50; BDI TRUNC(490.50 × 0.25) = 122.62; 613.12 of 681.25.
func TestProposal(t *testing.T) {
	p, err := domain.NewProposal(worldSynthetic(t, domain.BDIOnUnitPrice), dec("10"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 0.00 0.00 518.74 466.84",
		"1.1 171.87 154.68 343.74 309.36",
		"1.2 0.00 0.00 175.00 157.48",
		"1.2.1 43.75 39.37 175.00 157.48",
		"2 0.00 0.00 162.50 146.25",
		"2.1 37.50 33.75 37.50 33.75",
		"2.2 12.50 11.25 125.00 112.50",
	}
	if diff := cmp.Diff(want, proposalRows(p)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if !p.Total.Equal(dec("613.09")) || !p.ReferenceTotal.Equal(dec("681.24")) || !p.EffectiveDiscount().Equal(dec("10.0038")) || p.Target.Valid {
		t.Errorf("total %s of %s, effective %s, target %v", p.Total, p.ReferenceTotal, p.EffectiveDiscount(), p.Target)
	}

	p, err = domain.NewProposal(worldSynthetic(t, domain.BDIOnFinalTotal), dec("10"))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Total.Equal(dec("613.12")) || !p.ReferenceTotal.Equal(dec("681.25")) || !p.Rows[1].UnitPrice.Equal(dec("123.75")) {
		t.Errorf("final total: total %s of %s, OUTER at %s", p.Total, p.ReferenceTotal, p.Rows[1].UnitPrice)
	}

	// No discount: the reference itself.
	p, err = domain.NewProposal(worldSynthetic(t, domain.BDIOnUnitPrice), decimal.Zero)
	if err != nil || !p.Total.Equal(p.ReferenceTotal) {
		t.Errorf("no discount: %v %v", p, err)
	}
}

// TestProposalForTarget: the smallest discount in hundredths of a percent
// whose total does not exceed the target, worked by hand:
//
//	4.56%: 164.03 × 2 + 41.75 × 4 + 35.79 + 11.93 × 10 = 650.15 (above 650)
//	4.57%: 164.01 × 2 + 41.75 × 4 + 35.78 + 11.92 × 10 = 650.00
//	4.58%: 163.99 × 2 + 41.74 × 4 + 35.78 + 11.92 × 10 = 649.92
func TestProposalForTarget(t *testing.T) {
	syn := worldSynthetic(t, domain.BDIOnUnitPrice)
	for _, tc := range []struct{ target, discount, total, residual string }{
		{"650", "4.57", "650.00", "0.00"},
		{"649.95", "4.58", "649.92", "0.03"},
		{"700", "0", "681.24", "18.76"},
		{"681.24", "0", "681.24", "0.00"},
	} {
		p, err := domain.ProposalForTarget(syn, dec(tc.target), 2)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Discount.Equal(dec(tc.discount)) || !p.Total.Equal(dec(tc.total)) || !p.Residual.Decimal.Equal(dec(tc.residual)) ||
			!p.Target.Decimal.Equal(dec(tc.target)) || p.Places != 2 {
			t.Errorf("target %s: discount %s total %s residual %s, want %s %s %s", tc.target, p.Discount, p.Total, p.Residual.Decimal,
				tc.discount, tc.total, tc.residual)
		}
		for _, r := range p.Rows {
			if r.UnitPrice.GreaterThan(r.ReferenceUnitPrice) {
				t.Errorf("target %s: %s at %s above the reference's %s", tc.target, r.Number, r.UnitPrice, r.ReferenceUnitPrice)
			}
		}
	}
	// A whole-percent step: 5% is the first at or below 650.
	p, err := domain.ProposalForTarget(syn, dec("650"), 0)
	if err != nil || !p.Discount.Equal(dec("5")) {
		t.Errorf("whole percent: %v %v", p.Discount, err)
	}
}

// TestProposalBadInput: every bad figure named at once.
func TestProposalBadInput(t *testing.T) {
	syn := worldSynthetic(t, domain.BDIOnUnitPrice)
	for _, d := range []string{"-1", "100", "150", "1.0000001"} {
		if _, err := domain.NewProposal(syn, dec(d)); domain.ErrorCode(err) != domain.EINVALID || domain.ErrorFields(err)[0].Field != "/discount" {
			t.Errorf("discount %s: %v", d, err)
		}
	}
	_, err := domain.ProposalForTarget(syn, dec("-1"), 9)
	if got := domain.ErrorFields(err); len(got) != 2 || got[0].Field != "/target" || got[1].Field != "/places" {
		t.Errorf("target -1, places 9: %v", got)
	}
	// 99.99% leaves 0.01 × 2 + 0 × 4 + … : the target 0 is below it.
	_, err = domain.ProposalForTarget(syn, decimal.Zero, 2)
	if got := domain.ErrorFields(err); len(got) != 1 || got[0].Field != "/target" {
		t.Errorf("target 0: %v", err)
	}
}
