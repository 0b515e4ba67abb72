package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestCutDecimal holds cutDecimal, its shortcut for a figure the cut leaves
// as it is included, to shopspring's Truncate and Round, value and exponent.
func TestCutDecimal(t *testing.T) {
	for _, s := range []string{"0", "5", "-5", "12.3", "12.30", "12.345", "-12.345", "12.355", "0.005", "-0.005",
		"123456789012345678.99", "1234567890123456789012.345", "1e3", "-7.1e-9", "99.995"} {
		d := decimal.RequireFromString(s)
		for _, places := range []int32{0, 2, 4} {
			for _, c := range []struct {
				mode cutMode
				want decimal.Decimal
			}{
				{cutNone, d},
				{cutTruncate, d.Truncate(places)},
				{cutRound, RoundHalfUp(d, places)},
			} {
				got := cutDecimal(d, places, c.mode)
				if !got.Equal(c.want) || got.Exponent() != c.want.Exponent() {
					t.Errorf("cutDecimal(%s, %d, %d) = %s (exp %d), want %s (exp %d)", s, places, c.mode, got, got.Exponent(), c.want, c.want.Exponent())
				}
			}
		}
	}
}
