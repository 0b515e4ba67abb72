package domain

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// RoundingMethod is the calculation method of a composition: how each line
// total (coefficient × unit price) is cut before the lines are added. The
// numbers are those of the origin system's `calculation_method` /
// `rounding_type`.
type RoundingMethod int

// The rounding methods. Caixa truncates each line to centavos and then adds
// (checked on real SINAPI data), which is why Truncate2 is the default of a
// SINAPI-model composition.
const (
	RoundHalfUp2 RoundingMethod = 1 // round half up to 2 places
	Truncate2    RoundingMethod = 2 // truncate to 2 places
	Truncate4    RoundingMethod = 3 // truncate to 4 places
	NoRounding   RoundingMethod = 4 // keep every digit; round only for display
)

// RoundingMethods lists every rounding method, in code order.
var RoundingMethods = []RoundingMethod{RoundHalfUp2, Truncate2, Truncate4, NoRounding}

// Valid reports whether m is one of the four methods.
func (m RoundingMethod) Valid() bool { return m >= RoundHalfUp2 && m <= NoRounding }

// Apply cuts d as the method says.
func (m RoundingMethod) Apply(d decimal.Decimal) decimal.Decimal {
	places, mode := m.cut()
	return cutDecimal(d, places, mode)
}

// Description is the human name of the method, as the origin system shows it.
func (m RoundingMethod) Description() string {
	switch m {
	case RoundHalfUp2:
		return "Arredondar com 2 casas decimais"
	case Truncate2:
		return "Truncar com 2 casas decimais"
	case Truncate4:
		return "Truncar com 4 casas decimais"
	case NoRounding:
		return "Sem arredondamento"
	}
	return fmt.Sprintf("método %d", int(m))
}

// RoundHalfUp rounds d to places decimal places, halves away from zero (for
// the non-negative amounts of a budget this is "half up").
func RoundHalfUp(d decimal.Decimal, places int32) decimal.Decimal {
	return d.Round(places)
}

// Dec parses a decimal literal and panics on a bad one. It is meant for
// constants in code and tests, never for input.
func Dec(s string) decimal.Decimal {
	return decimal.RequireFromString(s)
}

// ShowLine gives a composition's line total at 2 decimal places, as the
// API shows item lines ("unit price times coefficient, at 2 decimals"), cut
// the method's way: method 1 rounds half up and method 2 truncates, and the
// line shown is then exactly the line added into the composition's price.
// Methods 3 and 4 add 4-place or unrounded lines; the line shown is that
// value truncated (method 3, a truncating method) or rounded half up
// (method 4, "round only for display") to 2 places, so for them the lines
// shown may differ by centavos from the price, which stays the sum of the
// lines as computed (docs/decisions.md).
func (m RoundingMethod) ShowLine(d decimal.Decimal) decimal.Decimal {
	switch m {
	case Truncate2, Truncate4:
		return cutDecimal(d, 2, cutTruncate)
	default:
		return cutDecimal(d, 2, cutRound)
	}
}
