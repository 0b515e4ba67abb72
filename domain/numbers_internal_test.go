package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// integerDigits counts what the digits of the truncated absolute value count.
func TestIntegerDigits(t *testing.T) {
	slow := func(d decimal.Decimal) int {
		i := d.Abs().Truncate(0)
		if i.IsZero() {
			return 0
		}
		return len(i.Coefficient().String()) + int(i.Exponent())
	}
	for _, s := range []string{"0", "0.000", "-0", "0.5", "-0.999", "1", "-1", "9.99", "10", "10.000", "99.5", "100", "-123.45",
		"1000e-3", "1e15", "999999999999999.999999", "-999999999999999", "1000000000000000", "1e20", "12345678901234567890123.5", "0.00001"} {
		d := decimal.RequireFromString(s)
		if got, want := integerDigits(d), slow(d); got != want {
			t.Errorf("integerDigits(%s) = %d, want %d", s, got, want)
		}
	}
	for _, d := range []decimal.Decimal{decimal.New(0, 5), decimal.New(1000, -3), decimal.New(-5, 2), decimal.New(7, -1), decimal.New(123, 0)} {
		if got, want := integerDigits(d), slow(d); got != want {
			t.Errorf("integerDigits(%s) = %d, want %d", d, got, want)
		}
	}
}
