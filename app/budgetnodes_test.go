package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestChangeBudgetNode changes a line's quantity and moves it in one
// transaction, and checks that a refused move changes nothing, quantity
// included.
func TestChangeBudgetNode(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	numbers := func(b *domain.Budget) map[string]string {
		out := map[string]string{}
		for _, e := range b.Outline() {
			out[e.Node.ID] = e.Number
		}
		return out
	}
	// n2 is 1.1 (89306 × 120.5); n4 is stage 2.
	qty := dec("10")
	bad := "n2"
	_, err = f.svc.ChangeBudgetNode(ctx, f.a, pb.ID, "n2", app.NodeChange{NodePatch: app.NodePatch{Quantity: &qty}, Move: true, ParentID: &bad})
	if domain.ErrorCode(err) != domain.EINVALID {
		t.Fatalf("moving a node into itself: %v", err)
	}
	got, err := f.svc.Budget(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := got.Node("n2"); !n.Quantity.Equal(dec("120.5")) || numbers(got.Budget)["n2"] != "1.1" {
		t.Errorf("the refused change changed n2: quantity %s, number %s", n.Quantity, numbers(got.Budget)["n2"])
	}

	stage, zero := "n4", 0
	got, err = f.svc.ChangeBudgetNode(ctx, f.a, pb.ID, "n2", app.NodeChange{NodePatch: app.NodePatch{Quantity: &qty}, Move: true, ParentID: &stage, Position: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := got.Node("n2"); !n.Quantity.Equal(qty) || numbers(got.Budget)["n2"] != "2.1" || numbers(got.Budget)["n3"] != "1.1" {
		t.Errorf("after the change: quantity %s, numbers %v", n.Quantity, numbers(got.Budget))
	}
	// Position alone moves within the stage the node is in.
	one := 1
	got, err = f.svc.ChangeBudgetNode(ctx, f.a, pb.ID, "n2", app.NodeChange{Move: true, Position: &one})
	if err != nil {
		t.Fatal(err)
	}
	if numbers(got.Budget)["n2"] != "2.2" {
		t.Errorf("after the move within the stage: %v", numbers(got.Budget))
	}
	if _, err := f.svc.ChangeBudgetNode(ctx, f.b, pb.ID, "n2", app.NodeChange{Move: true}); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("another company: %v", err)
	}
}
