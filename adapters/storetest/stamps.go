package storetest

import (
	"bytes"
	"testing"

	"github.com/costdb/costdb/app"
)

// testCompositionStamps checks app.CompositionStamper, for a store that
// offers it: a composition's stamp is the same in the transaction that put
// it and in a later read, nil when there is none; CompositionStamped tells
// the same stored record from a changed or deleted one, in any later
// transaction.
func testCompositionStamps(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.CompositionStamper); return nil })
	if !supported {
		t.Skip("the store keeps no composition stamps")
	}
	c := newComposition(cpA1, coA, "C-1", "PE")
	var put []byte
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutComposition(c); err != nil {
			return err
		}
		var err error
		put, err = tx.(app.CompositionStamper).CompositionStamp(cpA1)
		return err
	})
	var read []byte
	view(t, s, func(tx app.Tx) error {
		st := tx.(app.CompositionStamper)
		var err error
		if read, err = st.CompositionStamp(cpA1); err != nil {
			return err
		}
		if none, err := st.CompositionStamp(cpA2); err != nil || none != nil {
			t.Errorf("stamp of no record: %q, %v", none, err)
		}
		return nil
	})
	if put == nil || !bytes.Equal(put, read) {
		t.Fatalf("stamp in the writing transaction %q, read back %q", put, read)
	}
	stamped := func(stamp []byte) bool {
		var ok bool
		view(t, s, func(tx app.Tx) error {
			var err error
			ok, err = tx.(app.CompositionStamper).CompositionStamped(cpA1, stamp)
			return err
		})
		return ok
	}
	if !stamped(read) || stamped(nil) || stamped(append(bytes.Clone(read), ' ')) {
		t.Fatal("CompositionStamped does not tell the stored record")
	}
	// A change, even one put back later in the same transaction, is
	// another record.
	c2 := c.Clone()
	c2.Description = "Alvenaria changed"
	update(t, s, func(tx app.Tx) error { return tx.PutComposition(c2) })
	if stamped(read) {
		t.Fatal("a changed record keeps its stamp")
	}
	var changed []byte
	view(t, s, func(tx app.Tx) error {
		var err error
		changed, err = tx.(app.CompositionStamper).CompositionStamp(cpA1)
		return err
	})
	if changed == nil || bytes.Equal(changed, read) {
		t.Fatalf("stamp after a change %q, before %q", changed, read)
	}
	update(t, s, func(tx app.Tx) error {
		st := tx.(app.CompositionStamper)
		if err := tx.DeleteComposition(cpA1); err != nil {
			return err
		}
		if got, err := st.CompositionStamp(cpA1); err != nil || got != nil {
			t.Errorf("stamp after the delete in the same transaction: %q, %v", got, err)
		}
		return nil
	})
	if stamped(changed) {
		t.Fatal("a deleted record keeps its stamp")
	}
}
