package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestBudgetFiguresOut: a budget's own figures (its BDI, the supply BDI and
// the parts of either) out of bounds make every report of it out of
// bounds, and the answer to it a conflict.
func TestBudgetFiguresOut(t *testing.T) {
	big := decimal.New(1, MaxIntegerDigits)
	for _, c := range []struct {
		name string
		b    *Budget
		out  bool
	}{
		{"nil", nil, false},
		{"plain", &Budget{BDI: decimal.RequireFromString("25.5")}, false},
		{"bdi", &Budget{BDI: big}, true},
		{"supply bdi", &Budget{SupplyBDI: big.Neg()}, true},
		{"a part", &Budget{BDIParts: &BDIParts{AC: decimal.RequireFromString("4"), CPRB: big}}, true},
		{"a supply part", &Budget{SupplyBDIParts: &BDIParts{L: big}}, true},
		{"parts in bounds", &Budget{BDIParts: &BDIParts{AC: decimal.RequireFromString("4")}, SupplyBDIParts: &BDIParts{}}, false},
	} {
		if got := c.b.FiguresOut(); got != c.out {
			t.Errorf("%s: FiguresOut %v, want %v", c.name, got, c.out)
		}
		for _, rep := range []interface{ FiguresOut() bool }{&SyntheticReport{Budget: c.b}, &AnalyticReport{Budget: c.b}, &ABCReport{Budget: c.b}} {
			if got := rep.FiguresOut(); got != c.out {
				t.Errorf("%s: %T.FiguresOut %v, want %v", c.name, rep, got, c.out)
			}
		}
	}
	if e, ok := ErrFiguresOut().(*Error); !ok || e.Code != ECONFLICT {
		t.Errorf("ErrFiguresOut = %#v, want a conflict", ErrFiguresOut())
	}
}
