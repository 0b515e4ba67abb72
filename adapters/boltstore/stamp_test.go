package boltstore

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestCompositionStamps: a stamp is the stored record's bytes, in a read
// transaction and in the write transaction that put it (then without a
// copy); CompositionStamped tells the same record from a changed or deleted
// one.
func TestCompositionStamps(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	c := &domain.Composition{ID: "c1", CompanyID: "co1", Code: "C-1", State: "PE", Description: "Alvenaria <&>", Unit: "M2",
		Items: []domain.Item{{Bank: "SINAPI", Code: "88316", Kind: domain.KindResource, Quantity: decimal.RequireFromString("0.5")}}}
	var put []byte
	if err := s.Update(ctx, func(atx app.Tx) error {
		if err := atx.PutComposition(c); err != nil {
			return err
		}
		var err error
		put, err = atx.(app.CompositionStamper).CompositionStamp("c1")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var read []byte
	if err := s.View(ctx, func(atx app.Tx) error {
		st := atx.(app.CompositionStamper)
		var err error
		if read, err = st.CompositionStamp("c1"); err != nil {
			return err
		}
		if none, err := st.CompositionStamp("c2"); err != nil || none != nil {
			t.Errorf("stamp of no record: %q, %v", none, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if put == nil || !bytes.Equal(put, read) {
		t.Fatalf("stamp in the writing transaction %q, read back %q", put, read)
	}
	stamped := func(stamp []byte) bool {
		var ok bool
		if err := s.View(ctx, func(atx app.Tx) error {
			var err error
			ok, err = atx.(app.CompositionStamper).CompositionStamped("c1", stamp)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !stamped(read) || stamped(nil) || stamped(append(bytes.Clone(read), ' ')) {
		t.Fatal("CompositionStamped does not tell the stored bytes")
	}
	c2 := c.Clone()
	c2.Description = "Alvenaria"
	if err := s.Update(ctx, func(atx app.Tx) error {
		st := atx.(app.CompositionStamper)
		if err := atx.PutComposition(c2); err != nil {
			return err
		}
		if err := atx.DeleteComposition("c1"); err != nil {
			return err
		}
		if got, err := st.CompositionStamp("c1"); err != nil || got != nil {
			t.Errorf("stamp after the delete in the same transaction: %q, %v", got, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if stamped(read) {
		t.Fatal("a deleted record keeps its stamp")
	}
}
