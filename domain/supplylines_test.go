package domain_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The supply lines a budget shows are those still in its tree, in the order
// they were given; none is an empty list, not nil.
func TestBudgetSupplyLines(t *testing.T) {
	b := validBudget()
	if got := b.SupplyLines(); got == nil || len(got) != 0 {
		t.Errorf("SupplyLines() of a budget without supply lines = %#v, want an empty list", got)
	}
	b.SupplyNodes = []string{"n7", "n99", "n2"}
	if d := cmp.Diff([]string{"n7", "n2"}, b.SupplyLines()); d != "" {
		t.Errorf("SupplyLines() (-want +got):\n%s", d)
	}
	if err := b.RemoveNode("n2"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"n7"}, b.SupplyLines()); d != "" {
		t.Errorf("SupplyLines() after removing n2 (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"n7", "n99", "n2"}, b.SupplyNodes); d != "" {
		t.Errorf("SupplyNodes changed (-want +got):\n%s", d)
	}
}
