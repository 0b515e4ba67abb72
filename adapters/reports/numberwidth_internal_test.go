package reports

import (
	"testing"

	"github.com/shopspring/decimal"
)

// intDigits counts the digits of the integer part as writing it out does,
// for any coefficient and exponent (zeros, fractions, trailing zeros,
// negative numbers, coefficients past int64).
func TestIntDigits(t *testing.T) {
	for _, s := range []string{"0", "0.00", "0.5", "-0.5", "1", "9", "10", "99.99", "100", "12.00", "-12.3400",
		"1234567.891", "999999999999999", "1000000000000000", "123456789012345678901234567890.5", "-98765432109876543210"} {
		d := decimal.RequireFromString(s)
		want := len(d.Abs().Truncate(0).String())
		if got := intDigits(d); got != want {
			t.Errorf("intDigits(%s) = %d, want %d", s, got, want)
		}
	}
	for _, d := range []decimal.Decimal{decimal.New(12, 3), decimal.New(0, 5), decimal.New(-7, 2), decimal.New(1200, -2), decimal.New(5, -3)} {
		want := len(d.Abs().Truncate(0).String())
		if got := intDigits(d); got != want {
			t.Errorf("intDigits(%s) = %d, want %d", d, got, want)
		}
	}
}
