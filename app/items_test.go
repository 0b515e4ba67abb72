package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// An item without a bank but with a kind is the own base's, unless the
// input requires the bank (a v1 item, whose kind is only a hint): then it is
// EINVALID on its bank, and nothing is added.
func TestAddItemsWithoutBank(t *testing.T) {
	f := newFixture(t)
	f.resource(f.a, "R-1", "10")
	c := f.composition(f.a, "C-1")
	for _, kind := range []domain.ItemKind{"", domain.KindResource, domain.KindComposition} {
		_, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Code: "R-1", Kind: kind, Quantity: dec("2"), BankRequired: true}})
		wantField(t, err, "/items/0/bank")
	}
	_, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Code: "R-1", Quantity: dec("2")}})
	wantField(t, err, "/items/0/bank")
	got, err := f.svc.Composition(ctx, f.a, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 0 {
		t.Fatalf("a refused add left %d items", len(got.Items))
	}
	got, err = f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Code: "R-1", Kind: domain.KindResource, Quantity: dec("2")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 1 || got.Items[0].Bank != domain.BankMyBase || got.Items[0].Code != "R-1" {
		t.Fatalf("items = %+v, want R-1 of %s", got.Items, domain.BankMyBase)
	}
}
