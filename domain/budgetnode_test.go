package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestNodeReport reads single nodes of the world budget (see worldBudget):
// a stage with its subtotals and its children's rows, a line with its
// figures and where it sits. Figures by hand, BDI 25% on the unit price:
// OUTER 137.50 × 2 = 275.00, with BDI 171.87 × 2 = 343.74; BC1 35.00 × 4 =
// 140.00, 43.75 × 4 = 175.00; BC2 30.00, 37.50; R1 10.00 × 10 = 100.00,
// 12.50 × 10 = 125.00. Budget 545.00, with BDI 681.24.
func TestNodeReport(t *testing.T) {
	pb, err := domain.NewBudgetPricer(worldSource()).Price(worldBudget(domain.BDIOnUnitPrice))
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		ID, Number, Total, TotalWithBDI string
		Lines                           int
	}
	type view struct {
		ID, Number, Kind, ParentID string
		Depth, Position, Lines     int
		UnitPrice, Total, WithBDI  string
		Weight                     string
		Children                   []child
		Ancestors                  []child
		BudgetTotal, BudgetWithBDI string
	}
	read := func(id string) *view {
		n, ok := pb.NodeReport(id)
		if !ok {
			return nil
		}
		v := &view{ID: n.NodeID, Number: n.Number, Kind: string(n.Kind), ParentID: n.ParentID, Depth: n.Depth,
			Position: n.Position, Lines: n.Lines, UnitPrice: n.UnitPrice.StringFixed(2), Total: n.Total.StringFixed(2),
			WithBDI: n.TotalWithBDI.StringFixed(2), Weight: n.Weight.StringFixed(2),
			BudgetTotal: n.Totals.Total.StringFixed(2), BudgetWithBDI: n.Totals.TotalWithBDI.StringFixed(2)}
		for _, c := range n.Children {
			v.Children = append(v.Children, child{c.NodeID, c.Number, c.Total.StringFixed(2), c.TotalWithBDI.StringFixed(2), c.Lines})
		}
		for _, c := range n.Ancestors {
			v.Ancestors = append(v.Ancestors, child{c.NodeID, c.Number, c.Total.StringFixed(2), c.TotalWithBDI.StringFixed(2), c.Lines})
		}
		if n.Budget != pb.Budget {
			t.Errorf("node %s: Budget is not the priced budget", id)
		}
		return v
	}
	for _, tc := range []struct {
		id   string
		want *view
	}{
		{"n1", &view{ID: "n1", Number: "1", Kind: "stage", Depth: 1, Position: 0, Lines: 2, UnitPrice: "0.00",
			Total: "415.00", WithBDI: "518.74", Weight: "76.15",
			Children:    []child{{"n2", "1.1", "275.00", "343.74", 1}, {"n3", "1.2", "140.00", "175.00", 1}},
			BudgetTotal: "545.00", BudgetWithBDI: "681.24"}},
		{"n3", &view{ID: "n3", Number: "1.2", Kind: "stage", ParentID: "n1", Depth: 2, Position: 1, Lines: 1, UnitPrice: "0.00",
			Total: "140.00", WithBDI: "175.00", Weight: "25.69", Children: []child{{"n4", "1.2.1", "140.00", "175.00", 1}},
			Ancestors: []child{{"n1", "1", "415.00", "518.74", 2}}, BudgetTotal: "545.00", BudgetWithBDI: "681.24"}},
		{"n4", &view{ID: "n4", Number: "1.2.1", Kind: "composition", ParentID: "n3", Depth: 3, Position: 0, Lines: 1, UnitPrice: "35.00",
			Total: "140.00", WithBDI: "175.00", Weight: "25.69",
			Ancestors:   []child{{"n1", "1", "415.00", "518.74", 2}, {"n3", "1.2", "140.00", "175.00", 1}},
			BudgetTotal: "545.00", BudgetWithBDI: "681.24"}},
		{"n7", &view{ID: "n7", Number: "2.2", Kind: "resource", ParentID: "n5", Depth: 2, Position: 1, Lines: 1, UnitPrice: "10.00",
			Total: "100.00", WithBDI: "125.00", Weight: "18.35", Ancestors: []child{{"n5", "2", "130.00", "162.50", 2}},
			BudgetTotal: "545.00", BudgetWithBDI: "681.24"}},
		{"n99", nil},
	} {
		if diff := cmp.Diff(tc.want, read(tc.id)); diff != "" {
			t.Errorf("node %s (-want +got):\n%s", tc.id, diff)
		}
	}
	// An empty stage has no children, but a list of them.
	b := worldBudget(domain.BDIOnUnitPrice)
	id, err := b.AddNode("", -1, stage("Vazia"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err = domain.NewBudgetPricer(worldSource()).Price(b)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := pb.NodeReport(id)
	if !ok || n.Children == nil || len(n.Children) != 0 || n.Position != 2 || n.Number != "3" || n.Lines != 0 {
		t.Errorf("empty stage: %+v", n)
	}
}
