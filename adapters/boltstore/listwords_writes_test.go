package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestListWordsHeldWrites: the word index changes a transaction holds
// (puts, replaces with other, the same or some of the same words, deletes,
// inside and outside a batch) leave exactly the index built from the rows,
// and a list read inside the transaction already sees them. The other list
// indexes end as rebuilt from the records too.
func TestListWordsHeldWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	defer s.Close()
	ctx := context.Background()
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	res := func(i int, desc, unit string) *domain.Resource {
		return &domain.Resource{ID: fmt.Sprintf("01HZXRE%03d", i), CompanyID: co.ID, Code: fmt.Sprintf("R-%d", i),
			Description: desc, Type: domain.TypeMaterial, Unit: unit, CreatedAt: time.Unix(int64(i), 0).UTC()}
	}
	count := func(tx app.Tx, word string) int {
		t.Helper()
		rs, total, err := tx.Resources(co.ID, app.Query{
			Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: word}},
			Sort:  []app.Order{{Field: app.FieldCode}}, Limit: 5,
		})
		if err != nil {
			t.Fatal(err)
		}
		// The page comes from the sort index, walked with the word index.
		if len(rs) != min(total, 5) {
			t.Errorf("%s: page of %d, total %d", word, len(rs), total)
		}
		for i := 1; i < len(rs); i++ {
			if rs[i-1].Code >= rs[i].Code {
				t.Errorf("%s: %s before %s in code order", word, rs[i-1].Code, rs[i].Code)
			}
		}
		return total
	}
	if err := s.Update(ctx, func(tx app.Tx) error {
		if err := tx.PutCompany(co); err != nil {
			return err
		}
		for i := range 30 {
			if err := tx.PutResource(res(i, fmt.Sprintf("Tijolo cerâmico %d furos", i%3), "UN")); err != nil {
				return err
			}
		}
		if n := count(tx, "tijolo"); n != 30 {
			t.Errorf("inside the writing transaction: %d resources hold tijolo, want 30", n)
		}
		// Replaced: other words, the same words (another unit), some of them.
		for i := range 5 {
			if err := tx.PutResource(res(i, "Bloco de concreto", "UN")); err != nil {
				return err
			}
		}
		for i := 5; i < 10; i++ {
			if err := tx.PutResource(res(i, fmt.Sprintf("Tijolo cerâmico %d furos", i%3), "M2")); err != nil {
				return err
			}
		}
		for i := 10; i < 15; i++ {
			if err := tx.PutResource(res(i, "Tijolo maciço", "UN")); err != nil {
				return err
			}
		}
		if err := tx.DeleteResource(res(29, "", "").ID); err != nil {
			return err
		}
		if n, m := count(tx, "tijolo"), count(tx, "bloco"); n != 24 || m != 5 {
			t.Errorf("inside the writing transaction: tijolo %d, bloco %d; want 24, 5", n, m)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx app.Tx) error {
		return tx.(app.BatchTx).Batch(func() error {
			for i := 15; i < 20; i++ {
				if err := tx.PutResource(res(i, "Bloco de concreto", "UN")); err != nil {
					return err
				}
				if err := tx.PutResource(res(i, "Tijolo cerâmico", "UN")); err != nil {
					return err
				}
			}
			for i := 30; i < 35; i++ {
				if err := tx.PutResource(res(i, "Areia média", "M3")); err != nil {
					return err
				}
				if err := tx.DeleteResource(res(i, "", "").ID); err != nil {
					return err
				}
			}
			return tx.DeleteResource(res(0, "", "").ID)
		})
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.View(ctx, func(tx app.Tx) error {
		if n, m, a := count(tx, "tijolo"), count(tx, "bloco"), count(tx, "areia"); n != 24 || m != 4 || a != 0 {
			t.Errorf("tijolo %d, bloco %d, areia %d; want 24, 4, 0", n, m, a)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	dump := func(btx *bolt.Tx) map[string]string {
		out := map[string]string{}
		for _, name := range append(append(slices.Clone(wordBuckets), listBuckets...), bucketResourcesByCompany) {
			_ = btx.Bucket(name).ForEach(func(k, v []byte) error {
				out[string(name)+" "+string(k)] = fmt.Sprintf("%x", v)
				return nil
			})
		}
		return out
	}
	var kept, built map[string]string
	if err := s.db.Update(func(btx *bolt.Tx) error {
		kept = dump(btx)
		if err := rebuildLists(btx); err != nil {
			return err
		}
		built = dump(btx)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(built) == 0 {
		t.Fatal("the indexes rebuilt from the records are empty")
	}
	for k, v := range built {
		if kept[k] != v {
			t.Errorf("%q: kept %q, built from the rows %q", k, kept[k], v)
		}
	}
	for k, v := range kept {
		if _, ok := built[k]; !ok {
			t.Errorf("%q (%s) kept, not in the indexes rebuilt from the records", k, v)
		}
	}
}
