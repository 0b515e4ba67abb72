package storetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testBatch: records put inside a BatchTx's Batch are stored as single puts
// store them (lookups by id and code, lists in code order with their
// count, the compositions' uses), a put inside the batch sees the codes
// put before it in the batch (a taken code is ECONFLICT), and a batch
// whose function fails leaves nothing. Stores without BatchTx skip it.
func testBatch(t *testing.T, s app.Store) {
	var has bool
	_ = s.View(bg(), func(tx app.Tx) error { _, has = app.Optional[app.BatchTx](tx); return nil })
	if !has {
		t.Skip("the store has no BatchTx")
	}
	const n = 300
	id := func(kind byte, i int) string { return fmt.Sprintf("01HZXB%c%019d", kind, i) }
	code := func(i int) string { return fmt.Sprintf("B-%04d", n-i) } // put in descending code order
	err := s.Update(bg(), func(tx app.Tx) error {
		b, _ := app.Optional[app.BatchTx](tx)
		return b.Batch(func() error {
			for i := 0; i < n; i++ {
				r := newResource(id('R', i), coA, code(i))
				r.Description = fmt.Sprintf("Recurso %d", (i*7919)%n) // another order again
				if err := tx.PutResource(r); err != nil {
					return err
				}
				if i%50 == 49 {
					got, err := tx.ResourceByCode(coA, code(i-1))
					if err != nil || got.ID != id('R', i-1) {
						return fmt.Errorf("inside the batch, ResourceByCode(%s) = %v, %v", code(i-1), got, err)
					}
				}
			}
			for i := 0; i < n/10; i++ {
				c := newComposition(id('C', i), coA, code(i), "MG")
				c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: code(i), Kind: domain.KindResource, Quantity: dec("1")})
				if err := tx.PutComposition(c); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(bg(), func(tx app.Tx) error {
		list, total, err := tx.Resources(coA, app.Query{Sort: []app.Order{{Field: app.FieldCode}}})
		if err != nil {
			return err
		}
		if total != n || len(list) != n {
			return fmt.Errorf("Resources(A): %d listed, total %d, want %d", len(list), total, n)
		}
		for i, r := range list {
			if r.Code != fmt.Sprintf("B-%04d", i+1) {
				return fmt.Errorf("Resources(A) by code: %d is %s", i, r.Code)
			}
		}
		for i := 0; i < n; i += 37 {
			r, err := tx.ResourceByCode(coA, code(i))
			if err != nil || r.ID != id('R', i) {
				return fmt.Errorf("ResourceByCode(%s) = %v, %v", code(i), r, err)
			}
		}
		_, total, err = tx.Compositions(coA, app.Query{})
		if err != nil || total != n/10 {
			return fmt.Errorf("Compositions(A): total %d, %v", total, err)
		}
		c, err := tx.CompositionByCode(coA, code(3), "MG")
		if err != nil || c.ID != id('C', 3) || len(c.Items) != 4 {
			return fmt.Errorf("CompositionByCode: %+v, %v", c, err)
		}
		users, _, err := tx.Compositions(coA, app.Query{Where: []app.Cond{{Op: app.Uses, Item: app.UsedItem{Kind: domain.KindResource, Code: code(5)}}}})
		if err != nil || len(users) != 1 || users[0].ID != id('C', 5) {
			return fmt.Errorf("Compositions using %s: %v, %v", code(5), users, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// A code taken inside the batch is refused; nothing of that
	// transaction stays.
	err = s.Update(bg(), func(tx app.Tx) error {
		b, _ := app.Optional[app.BatchTx](tx)
		return b.Batch(func() error {
			if err := tx.PutResource(newResource(id('X', 1), coB, "DUP")); err != nil {
				return err
			}
			return tx.PutResource(newResource(id('X', 2), coB, "DUP"))
		})
	})
	wantCode(t, "a code taken earlier in the batch", err, domain.ECONFLICT)
	boom := errors.New("boom")
	err = s.Update(bg(), func(tx app.Tx) error {
		b, _ := app.Optional[app.BatchTx](tx)
		return b.Batch(func() error {
			if err := tx.PutResource(newResource(id('X', 3), coB, "KEPT?")); err != nil {
				return err
			}
			return boom
		})
	})
	if !errors.Is(err, boom) {
		t.Fatalf("a failed batch: %v", err)
	}
	err = s.View(bg(), func(tx app.Tx) error {
		list, total, err := tx.Resources(coB, app.Query{})
		if err != nil || total != 0 || len(list) != 0 {
			return fmt.Errorf("company B after refused batches: %d resources (total %d), %v", len(list), total, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
