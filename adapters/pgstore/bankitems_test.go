package pgstore_test

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestBankCompositionItemsFlush puts, in one transaction, compositions whose
// structures have no items, none at all (nil), one and several, in an order
// that puts empty ones first, between and last, then reads each back: every
// item in its place, with its kind, code and coefficient, and no item moved
// to a neighbour (the items are copied in by walking the compositions).
func TestBankCompositionItemsFlush(t *testing.T) {
	s := open(t, pgstore.Options{})
	key := domain.EditionKey("SINAPI", "PE", "08/2026", "")
	sizes := []int{-1, 0, 3, 0, 1, 5, -1, 2, 0}
	comps := make([]*domain.BankComposition, len(sizes))
	for i, n := range sizes {
		c := &domain.BankComposition{Code: fmt.Sprintf("C%02d", i), Description: "Comp", Unit: "M2", Class: "X",
			Cost: domain.UnitPrice{PND: decimal.RequireFromString("1.00"), PD: decimal.RequireFromString("1.00")}}
		if n >= 0 {
			c.Items = []domain.StructureItem{}
		}
		for j := range n {
			kind := domain.KindResource
			if j%2 == 1 {
				kind = domain.KindComposition
			}
			c.Items = append(c.Items, domain.StructureItem{Kind: kind, Code: fmt.Sprintf("%d-%d", i, j),
				Coefficient: decimal.RequireFromString(fmt.Sprintf("%d.%04d", i, j+1))})
		}
		comps[i] = c
	}
	if err := s.Update(bg, func(tx app.Tx) error {
		for _, c := range comps {
			if err := tx.PutBankComposition(key, c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.View(bg, func(tx app.Tx) error {
		for i, c := range comps {
			got, err := tx.BankComposition(key, c.Code)
			if err != nil {
				return err
			}
			if len(got.Items) != len(c.Items) {
				t.Errorf("%s: %d items, want %d (size %d)", c.Code, len(got.Items), len(c.Items), sizes[i])
				continue
			}
			for j, it := range c.Items {
				g := got.Items[j]
				if g.Kind != it.Kind || g.Code != it.Code || !g.Coefficient.Equal(it.Coefficient) {
					t.Errorf("%s item %d: %s %s %s, want %s %s %s", c.Code, j, g.Kind, g.Code, g.Coefficient, it.Kind, it.Code, it.Coefficient)
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
