package domain

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestLineValueIsLine: lineValue gives Line's and LineSupply's total with
// BDI for random unit prices (2 and 4 places) and quantities, on the unit
// price and on the final total, truncated and rounded, and for figures
// past int64 (the big path).
func TestLineValueIsLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5000))
	for _, mode := range []BDIMode{BDIOnUnitPrice, BDIOnFinalTotal} {
		for _, rounding := range []BudgetRounding{BudgetTruncate, BudgetRound} {
			r := BDIRule{Rate: decimal.RequireFromString("24.97"), SupplyRate: decimal.RequireFromString("14.02"), Mode: mode, Rounding: rounding}
			for i := 0; i < 2000; i++ {
				up := decimal.New(rng.Int64N(10_000_000), -int32(2+2*rng.IntN(2)))
				q := decimal.New(rng.Int64N(1_000_000), -int32(rng.IntN(5)))
				if i%200 == 0 {
					q = decimal.RequireFromString("123456789012345678901234.5678")
				}
				for _, supply := range []bool{false, true} {
					want := r.Line(up, q).TotalWithBDI
					if supply {
						want = r.LineSupply(up, q).TotalWithBDI
					}
					if got := r.lineValue(up, supply)(amountOf(q)).Decimal(); !got.Equal(want) {
						t.Fatalf("%s %s supply %v: lineValue(%s)(%s) = %s, Line %s", mode, rounding, supply, up, q, got, want)
					}
				}
			}
		}
	}
}
