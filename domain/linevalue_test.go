package domain_test

import (
	"math/rand/v2"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestLineValueIsLine: LineValue gives Line's and LineSupply's total with
// BDI for random unit prices (2 and 4 places) and quantities, on the unit
// price and on the final total, truncated and rounded, and for figures
// past int64 (the big path).
func TestLineValueIsLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 5000))
	for _, mode := range []domain.BDIMode{domain.BDIOnUnitPrice, domain.BDIOnFinalTotal} {
		for _, rounding := range []domain.BudgetRounding{domain.BudgetTruncate, domain.BudgetRound} {
			r := domain.BDIRule{Rate: dec("24.97"), SupplyRate: dec("14.02"), Mode: mode, Rounding: rounding}
			for i := 0; i < 2000; i++ {
				up := decimal.New(rng.Int64N(10_000_000), -int32(2+2*rng.IntN(2)))
				q := decimal.New(rng.Int64N(1_000_000), -int32(rng.IntN(5)))
				if i%200 == 0 {
					q = dec("123456789012345678901234.5678")
				}
				for _, supply := range []bool{false, true} {
					want := r.Line(up, q).TotalWithBDI
					if supply {
						want = r.LineSupply(up, q).TotalWithBDI
					}
					if got := r.LineValue(up, supply)(q); !got.Equal(want) {
						t.Fatalf("%s %s supply %v: LineValue(%s)(%s) = %s, Line %s", mode, rounding, supply, up, q, got, want)
					}
				}
			}
		}
	}
}
