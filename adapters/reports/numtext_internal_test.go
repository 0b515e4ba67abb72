package reports

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The figures written from int64 coefficients (numtext.go) are the ones
// written through Decimal.StringFixed and String: each of brl, brlPlaces,
// pdfExact and Quantity against the way it was written before, over edge
// cases (zeros with exponents, halves rounding away from zero, nines
// carrying into a new digit, negatives rounding to zero, 18- and 19-digit
// coefficients, positive exponents) and random figures.

func refBRL(d decimal.Decimal) string {
	s := d.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var sb strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte('.')
		}
		sb.WriteRune(ch)
	}
	out := sb.String() + "," + frac
	if neg {
		out = "-" + out
	}
	return out
}

func refBRLPlaces(d decimal.Decimal, places int32) string {
	s := d.StringFixed(places)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte('.')
		}
		sb.WriteRune(ch)
	}
	sb.WriteByte(',')
	sb.WriteString(frac)
	return sb.String()
}

func refPDFExact(d decimal.Decimal) string {
	d = atMost10Places(d)
	places := int32(2)
	if e := -d.Exponent(); e > 2 {
		s := strings.TrimRight(d.StringFixed(e), "0")
		_, frac, _ := strings.Cut(s, ".")
		places = max(int32(len(frac)), 2)
	}
	return refBRLPlaces(d, places)
}

func refQuantity(d decimal.Decimal) string {
	return strings.Replace(atMost10Places(d).String(), ".", ",", 1)
}

func figureCases() []decimal.Decimal {
	var ds []decimal.Decimal
	for _, s := range []string{"0", "0.00", "0.000000", "-0.001", "-0.005", "-0.0049", "0.005", "0.004999", "0.995", "9999.995",
		"-9999.995", "999999.994", "1234567.891", "12.5", "120.50", "100.000", "1", "-1", "113.33", "13656.265", "2.62",
		"0.0175", "43.5", "1.2223", "14.0225", "0.00000000005", "0.00000000004999", "-0.00000000005", "123.45678901234567",
		"999999999999999999", "-999999999999999999", "99999999999999999.9", "0.999999999999999999", "1000000000000000000",
		"12345678901234567890.12", "0.0000000000000000001", "1e3", "-2.5e2", "7e-19", "5e-11"} {
		ds = append(ds, decimal.RequireFromString(s))
	}
	ds = append(ds, decimal.New(0, -5), decimal.New(0, 3), decimal.New(math.MaxInt64, -2), decimal.New(math.MinInt64, -4),
		decimal.New(-math.MaxInt64, 0), decimal.New(5, -18), decimal.New(-5, -18), decimal.New(123, -20))
	r := rand.New(rand.NewPCG(29, 4))
	for range 20000 {
		digits := 1 + r.IntN(19)
		c := r.Int64N(pow10s[min(digits, 18)])
		if digits == 19 {
			c = r.Int64()
		}
		if r.IntN(3) == 0 {
			c = -c
		}
		if r.IntN(4) == 0 { // a half, or nines, in the last places
			c = c/1000*1000 + []int64{500, 999, 995, 5, 50}[r.IntN(5)]
		}
		ds = append(ds, decimal.New(c, int32(-r.IntN(22)+2)))
	}
	return ds
}

func TestFiguresWithoutBigInt(t *testing.T) {
	fails := 0
	check := func(what string, d decimal.Decimal, got, want string) {
		if got != want && fails < 20 {
			fails++
			t.Errorf("%s(%s): %q, want %q", what, d.String(), got, want)
		}
	}
	for _, d := range figureCases() {
		check("brl", d, brl(d), refBRL(d))
		check("pdfExact", d, pdfExact(d), refPDFExact(d))
		check("Quantity", d, Quantity(d), refQuantity(d))
		for _, p := range []int32{0, 2, 4, 10} {
			if d.Exponent() >= -p { // brlPlaces: d has no more places
				check("brlPlaces", d, brlPlaces(d, p), refBRLPlaces(d, p))
			}
		}
	}
}

// The fast path is taken for the figures a budget holds (else the test
// above would compare the old code with itself).
func TestFiguresFastPathTaken(t *testing.T) {
	for _, s := range []string{"113.33", "-0.005", "13656.26", "0.0175", "99999999999999.99"} {
		d := decimal.RequireFromString(s)
		if _, ok := brlFast(d, 2); !ok {
			t.Errorf("brlFast(%s) not taken", s)
		}
		if _, ok := exactFast(d); !ok {
			t.Errorf("exactFast(%s) not taken", s)
		}
		if _, ok := quantityFast(d); !ok {
			t.Errorf("quantityFast(%s) not taken", s)
		}
	}
}
