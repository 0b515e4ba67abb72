package domain

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// The bounds of every number costdb reads from a request or writes in an
// answer: at most MaxIntegerDigits digits before the decimal point and at
// most MaxDecimalPlaces after it (trailing zeros do not count: 1.50 has two
// places, and 1.500000000000 too). Stricter rules of a field (quantities at
// most 7 places, BDI at most 4) apply on top.
const (
	MaxIntegerDigits = 15
	MaxDecimalPlaces = 10
)

// NumberBoundsProblem says what is wrong with d against the bounds, or ""
// when d is within them.
func NumberBoundsProblem(d decimal.Decimal) string {
	if d.IsZero() {
		return ""
	}
	if integerDigits(d) > MaxIntegerDigits {
		return "must have at most " + strconv.Itoa(MaxIntegerDigits) + " digits before the decimal point"
	}
	if !d.Truncate(MaxDecimalPlaces).Equal(d) {
		return "must have at most " + strconv.Itoa(MaxDecimalPlaces) + " decimal places"
	}
	return ""
}

// integerDigits counts the digits of d's integer part.
// d is its coefficient's digits times 10^exponent: the integer part has the
// digits of the one plus the other, none when that is not positive (without
// building the integer part: every written composition checks ~100 figures).
func integerDigits(d decimal.Decimal) int {
	if d.IsZero() {
		return 0
	}
	return max(0, d.NumDigits()+int(d.Exponent()))
}

// CheckBounds refuses (EINVALID) a priced composition with a price figure or
// line total too large to write: a computed number never exceeds
// MaxIntegerDigits digits before the point (its places are set by the
// calculation method). The error names the composition as a whole ("").
func (pc *PricedComposition) CheckBounds() error {
	p := &pc.Prices
	out := func(ds ...decimal.Decimal) bool { // checked where they are: no slice of every figure
		for _, d := range ds {
			if integerDigits(d) > MaxIntegerDigits {
				return true
			}
		}
		return false
	}
	if out(p.PND, p.PD, p.ChDeEq, p.ChdDeEq, p.ChiDeEq, p.ChdiDeEq, p.ChDaMo, p.ChdDaMo,
		p.CHE, p.CHDE, p.ChIncidencia, p.CTF, p.CTFD, p.CUOI, p.CUOID, p.CCA, p.CCAD, p.CUMO) {
		return tooLarge("composition")
	}
	for i := range pc.Items {
		it := &pc.Items[i]
		if out(it.UnitPrice.PND, it.UnitPrice.PD, it.Total.PND, it.Total.PD) {
			return tooLarge("composition")
		}
	}
	return nil
}

// CheckBounds refuses (EINVALID) a priced budget whose total, BDI value or
// total with BDI has more than MaxIntegerDigits digits before the point.
func (pb *PricedBudget) CheckBounds() error {
	for _, d := range []decimal.Decimal{pb.Totals.Total, pb.Totals.BDIValue, pb.Totals.TotalWithBDI} {
		if integerDigits(d) > MaxIntegerDigits {
			return tooLarge("budget")
		}
	}
	return nil
}

func tooLarge(what string) error {
	return FieldErrorf("", "the %s's computed prices would have more than %d digits before the decimal point: lower a quantity or a price", what, MaxIntegerDigits)
}
