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

// TestBudgetCapsInOneTransaction checks that a change refused by the depth
// cap changes nothing (the description changed with it stays), that the
// caps are the service's settings (the same budget takes the change under
// the defaults), and BudgetNode's answers.
func TestBudgetCapsInOneTransaction(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false)) // 3 levels: 2 > 2.2 > 2.2.1
	if err != nil {
		t.Fatal(err)
	}
	if cfg := f.svc.Config(); cfg.MaxBudgetDepth != domain.DefaultMaxBudgetDepth || cfg.MaxBudgetLines != domain.DefaultMaxBudgetLines {
		t.Errorf("default caps %d, %d", cfg.MaxBudgetDepth, cfg.MaxBudgetLines)
	}
	capped := f.svc.WithConfig(app.Config{MaxBudgetDepth: 3})
	// Moving stage 1 (Alvenaria, 2 levels) under 2.2 would put its lines
	// on level 4.
	desc, into := "Alvenaria estrutural", "n6"
	_, err = capped.ChangeBudgetNode(ctx, f.a, pb.ID, "n1", app.NodeChange{NodePatch: app.NodePatch{Description: &desc}, Move: true, ParentID: &into})
	if fields := domain.ErrorFields(err); len(fields) != 1 || fields[0].Field != "/parent_id" {
		t.Fatalf("a move past the depth cap: %v", err)
	}
	n, err := f.svc.BudgetNode(ctx, f.a, pb.ID, "n1")
	if err != nil {
		t.Fatal(err)
	}
	if n.Description != "Alvenaria" || n.Number != "1" || n.Lines != 2 || len(n.Children) != 2 || n.ParentID != "" {
		t.Errorf("after the refused change: %+v", n)
	}
	// Under the default caps the same change is made: n1 goes last in n6
	// (after its line OUTER), under n4, now the top level's first stage.
	if _, err := f.svc.ChangeBudgetNode(ctx, f.a, pb.ID, "n1", app.NodeChange{NodePatch: app.NodePatch{Description: &desc}, Move: true, ParentID: &into}); err != nil {
		t.Fatal(err)
	}
	n, err = f.svc.BudgetNode(ctx, f.a, pb.ID, "n2")
	if err != nil {
		t.Fatal(err)
	}
	if n.Number != "1.2.2.1" || n.Depth != 4 || len(n.Ancestors) != 3 || n.Ancestors[2].NodeID != "n1" || n.Ancestors[2].Description != desc {
		t.Errorf("after the change: %s depth %d, ancestors %+v", n.Number, n.Depth, n.Ancestors)
	}
	// A budget past a lowered cap stays readable and changeable where a
	// change keeps within the cap: an addition is checked where it goes.
	if _, err := capped.BudgetNode(ctx, f.a, pb.ID, "n2"); err != nil {
		t.Errorf("reading past the cap: %v", err)
	}
	line := app.NodeInput{Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("1")}
	if _, _, err := capped.AddBudgetNode(ctx, f.a, pb.ID, app.NodePlace{}, line); err != nil {
		t.Errorf("adding a line at the top level past the lowered cap: %v", err)
	}
	_, _, err = capped.AddBudgetNode(ctx, f.a, pb.ID, app.NodePlace{ParentID: "n1"}, line)
	if fields := domain.ErrorFields(err); len(fields) != 1 || fields[0].Field != "" {
		t.Errorf("adding a line on level 4 past the cap of 3: %v", err)
	}
	for _, tc := range []struct{ who, node string }{{"another company", "n1"}, {"unknown node", "n99"}} {
		p := f.a
		if tc.who == "another company" {
			p = f.b
		}
		if _, err := f.svc.BudgetNode(ctx, p, pb.ID, tc.node); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("%s: %v", tc.who, err)
		}
	}
}
