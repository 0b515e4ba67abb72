package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestNodeTapeReplays: the tape gives back every node as recorded, with its
// depth: ids of AssignIDs and any others, every kind, descriptions,
// quantities of every size, exponent included.
func TestNodeTapeReplays(t *testing.T) {
	nodes := []struct {
		n     BudgetNode
		depth int
	}{
		{BudgetNode{ID: "z", Kind: "other"}, 1}, // a kind written whole before any bank
		{BudgetNode{ID: "n1", Kind: NodeStage, Description: "Fundação – açaí \"x\""}, 1},
		{BudgetNode{ID: "n12345678901", Kind: NodeComposition, Bank: "SINAPI", Code: "89306", Quantity: decimal.New(1250, -2)}, 2},
		{BudgetNode{ID: "n0", Kind: NodeResource, Bank: "MYBASE", Code: "000123", Quantity: decimal.RequireFromString("123456789012345678901234.5")}, 2},
		{BudgetNode{ID: "n007", Kind: NodeResource, Bank: "SINAPI", Code: "89306", Quantity: decimal.New(-3, 4)}, 2},
		{BudgetNode{ID: "", Kind: "other", Bank: "", Code: ""}, 1},
		{BudgetNode{ID: "x", Kind: NodeResource, Bank: "SICRO3", Code: "E9017", Quantity: decimal.New(0, -2)}, 9},
	}
	var tape nodeTape
	for _, x := range nodes {
		tape.record(&x.n, x.depth)
	}
	i := 0
	err := tape.walk(func(n *BudgetNode, depth int) error {
		want := nodes[i]
		if n.ID != want.n.ID || n.Kind != want.n.Kind || n.Description != want.n.Description || n.Bank != want.n.Bank ||
			n.Code != want.n.Code || !n.Quantity.Equal(want.n.Quantity) || n.Quantity.Exponent() != want.n.Quantity.Exponent() || depth != want.depth {
			t.Errorf("node %d: %+v at %d, want %+v at %d", i, *n, depth, want.n, want.depth)
		}
		i++
		return nil
	})
	if err != nil || i != len(nodes) {
		t.Fatalf("walk: %v after %d of %d nodes", err, i, len(nodes))
	}
	if per := len(tape.buf) / len(nodes); per > 40 {
		t.Errorf("%d bytes a node", per)
	}
}
