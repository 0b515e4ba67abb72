package domain

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// applyDecimal is RoundingMethod.Apply in shopspring/decimal alone: the
// definition the one money path is held to.
func applyDecimal(m RoundingMethod, d decimal.Decimal) decimal.Decimal {
	switch m {
	case RoundHalfUp2:
		return d.Round(2)
	case Truncate2:
		return d.Truncate(2)
	case Truncate4:
		return d.Truncate(4)
	}
	return d
}

// lineTotalInt64 is LineTotal's 64-bit path alone: ok is false where
// LineTotal takes the decimal one.
func lineTotalInt64(m RoundingMethod, a, b decimal.Decimal) (decimal.Decimal, bool) {
	x, ok1 := coefficient64(a)
	y, ok2 := coefficient64(b)
	if !ok1 || !ok2 {
		return decimal.Decimal{}, false
	}
	places, mode := m.cut()
	v, e, ok := mulCut64(x, y, a.Exponent()+b.Exponent(), places, mode)
	return decimal.New(v, e), ok
}

// TestLineTotalInt64IsTheDecimalPath: the 64-bit line total is the decimal
// one, value and exponent (so the same text), for every rounding method,
// on random factors from zero to past 18 digits, negative ones, with and
// without places, and when the product overflows 64 bits.
func TestLineTotalInt64IsTheDecimalPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	factor := func() decimal.Decimal {
		var v int64
		switch rng.IntN(5) {
		case 0:
			v = rng.Int64N(10)
		case 1:
			v = rng.Int64N(1_000_000)
		case 2:
			v = rng.Int64N(1_000_000_000_000_000_000) // 18 digits
		case 3: // past 18 digits: the decimal path
			b := new(big.Int).Mul(big.NewInt(rng.Int64N(1_000_000_000)+1), big.NewInt(1_000_000_000_000))
			return decimal.NewFromBigInt(b, -int32(rng.IntN(12)))
		default:
			v = rng.Int64()
		}
		if rng.IntN(4) == 0 {
			v = -v
		}
		return decimal.New(v, int32(rng.IntN(24))-20)
	}
	fast := 0
	for n := range 400000 {
		a, b := factor(), factor()
		m := RoundingMethod(rng.IntN(6)) // the four, and two Apply leaves alone
		want := applyDecimal(m, a.Mul(b))
		got, ok := lineTotalInt64(m, a, b)
		if !ok {
			continue
		}
		fast++
		if got.Cmp(want) != 0 || got.Exponent() != want.Exponent() || got.String() != want.String() {
			t.Fatalf("%d: method %d, %s × %s: got %s (exp %d), want %s (exp %d)", n, m, a, b, got, got.Exponent(), want, want.Exponent())
		}
		if LineTotal(m, a, b).String() != want.String() {
			t.Fatalf("LineTotal differs")
		}
	}
	if fast < 50000 {
		t.Fatalf("only %d of the cases took the 64-bit path", fast)
	}
	// Halves, both signs, at every method.
	for _, c := range [][2]string{{"1.005", "1"}, {"-1.005", "1"}, {"0.125", "0.1"}, {"-0.125", "0.1"}, {"2.5", "0.001"}, {"1", "0.00499"}, {"1.5", "3"}, {"10", "10"}} {
		a, b := decimal.RequireFromString(c[0]), decimal.RequireFromString(c[1])
		for _, m := range RoundingMethods {
			got, ok := lineTotalInt64(m, a, b)
			if want := applyDecimal(m, a.Mul(b)); !ok || got.String() != want.String() {
				t.Errorf("method %d, %s × %s: got %s (%v), want %s", m, a, b, got, ok, want)
			}
		}
	}
}

// TestSum64IsDecimalAdd: amount.add adds as Decimal.Add from zero does,
// value and exponent, on 64 bits while the sum fits and in decimal after.
func TestSum64IsDecimalAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	fast := 0
	for n := range 50000 {
		var s amount
		var want decimal.Decimal
		for range rng.IntN(30) {
			v := rng.Int64N(1_000_000_000)
			switch rng.IntN(8) {
			case 0:
				v = rng.Int64()
			case 1:
				v = 0
			}
			if rng.IntN(3) == 0 {
				v = -v
			}
			d := decimal.New(v, int32(rng.IntN(12))-8)
			s = s.add(amountOf(d))
			want = want.Add(d)
		}
		if s.big == nil {
			fast++
		}
		if got := s.Decimal(); got.String() != want.String() || got.Exponent() != want.Exponent() {
			t.Fatalf("%d: got %s (exp %d), want %s (exp %d)", n, got, got.Exponent(), want, want.Exponent())
		}
	}
	if fast < 10000 {
		t.Fatalf("only %d sums fit", fast)
	}
}

// TestBudgetLineIsTheDecimalRule: a budget line's figures (BDIRule.line,
// 64-bit where they fit) are the decimal rule's, on random prices,
// quantities and rates, both modes and roundings, negative figures and
// figures past 18 digits included.
func TestBudgetLineIsTheDecimalRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	num := func(places int) decimal.Decimal {
		var v int64
		switch rng.IntN(4) {
		case 0:
			v = rng.Int64N(1000)
		case 1:
			v = rng.Int64N(100_000_000)
		case 2:
			v = rng.Int64()
		default:
			b := new(big.Int).Mul(big.NewInt(rng.Int64N(1_000_000_000)+1), big.NewInt(1_000_000_000_000))
			return decimal.NewFromBigInt(b, -int32(rng.IntN(places+1)))
		}
		if rng.IntN(5) == 0 {
			v = -v
		}
		return decimal.New(v, -int32(rng.IntN(places+1)))
	}
	fast, slow := 0, 0
	for n := range 100000 {
		r := BDIRule{Rate: num(4), Mode: BDIOnUnitPrice, Rounding: BudgetTruncate}
		if rng.IntN(2) == 0 {
			r.Mode = BDIOnFinalTotal
		}
		if rng.IntN(2) == 0 {
			r.Rounding = BudgetRound
		}
		price, qty := num(10), num(7)
		want := oracleLine(r, r.Rate, price, qty)
		got := r.line(amountOf(price), amountOf(qty), amountOf(r.factor()))
		if got.total.big == nil && got.withBDI.big == nil {
			fast++
		} else {
			slow++
		}
		if g := got.figures(price); !g.Total.Equal(want.Total) || !g.TotalWithBDI.Equal(want.TotalWithBDI) ||
			!g.UnitPriceWithBDI.Equal(want.UnitPriceWithBDI) || !g.UnitPrice.Equal(want.UnitPrice) {
			t.Fatalf("%d: %+v, price %s, quantity %s: got %+v, want %+v", n, r, price, qty, g, want)
		}
	}
	if fast < 20000 || slow < 20000 {
		t.Fatalf("%d lines on 64 bits, %d in decimal: both paths not exercised", fast, slow)
	}
}

// TestCutIsTheDecimalCut: Apply, BudgetRounding.Cut and ShowLine (the cut
// of a value, on the one money path) give shopspring/decimal's Truncate and
// Round, value and exponent, on random values of both signs, past 18 digits
// included.
func TestCutIsTheDecimalCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for n := range 200000 {
		var d decimal.Decimal
		if rng.IntN(5) == 0 {
			b := new(big.Int).Mul(big.NewInt(rng.Int64()), big.NewInt(rng.Int64N(1_000_000_000)+1))
			d = decimal.NewFromBigInt(b, int32(rng.IntN(30))-25)
		} else {
			d = decimal.New(rng.Int64N(1<<uint(rng.IntN(63)))*int64(1-2*rng.IntN(2)), int32(rng.IntN(24))-20)
		}
		for _, m := range []RoundingMethod{0, RoundHalfUp2, Truncate2, Truncate4, NoRounding} {
			if got, want := m.Apply(d), applyDecimal(m, d); got.String() != want.String() || got.Exponent() != want.Exponent() {
				t.Fatalf("%d: method %d of %s: got %s (exp %d), want %s (exp %d)", n, m, d, got, got.Exponent(), want, want.Exponent())
			}
		}
		if got, want := BudgetTruncate.Cut(d), d.Truncate(2); got.String() != want.String() || got.Exponent() != want.Exponent() {
			t.Fatalf("%d: truncate %s: got %s, want %s", n, d, got, want)
		}
		if got, want := BudgetRound.Cut(d), d.Round(2); got.String() != want.String() || got.Exponent() != want.Exponent() {
			t.Fatalf("%d: round %s: got %s, want %s", n, d, got, want)
		}
		if got, want := NoRounding.ShowLine(d), d.Round(2); got.String() != want.String() {
			t.Fatalf("%d: show %s: got %s, want %s", n, d, got, want)
		}
		if got, want := Truncate4.ShowLine(d), d.Truncate(2); got.String() != want.String() {
			t.Fatalf("%d: show %s: got %s, want %s", n, d, got, want)
		}
	}
}
