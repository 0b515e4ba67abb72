package boltstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestListWordsBuiltOnOpen: a file whose lists have no word index (written
// by a costdb that did not keep it) gets it when it is opened, verifies
// without it, and the text filters answer from it as before.
func TestListWordsBuiltOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	if err := s.Update(context.Background(), func(tx app.Tx) error {
		if err := tx.PutCompany(co); err != nil {
			return err
		}
		for i, d := range []string{"ALVENARIA DE BLOCO", "Bloco de concreto", "Pintura"} {
			r := &domain.Resource{ID: "01HZXRE" + string(rune('1'+i)), CompanyID: co.ID, Code: "R-" + string(rune('1'+i)),
				Description: d, Type: domain.TypeMaterial, Unit: "UN", CreatedAt: time.Unix(int64(i), 0).UTC()}
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	found := func(s *Store) []string {
		t.Helper()
		var ids []string
		if err := s.View(context.Background(), func(tx app.Tx) error {
			rs, total, err := tx.Resources(co.ID, app.Query{
				Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: "bloco"}},
				Sort:  []app.Order{{Field: app.FieldCode, Desc: true}}, Limit: 10,
			})
			if err != nil {
				return err
			}
			if total != len(rs) {
				t.Errorf("total %d, page %d", total, len(rs))
			}
			for _, r := range rs {
				ids = append(ids, r.ID)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	want := "[01HZXRE2 01HZXRE1]"
	if got := found(s); fmtIDs(got) != want {
		t.Fatalf("found %v, want %s", got, want)
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(btx *bolt.Tx) error {
		for _, b := range wordBuckets {
			if err := btx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := Verify(path); err != nil {
		t.Fatalf("Verify of a file without the word index: %v", err)
	}
	s = open(t, path)
	defer s.Close()
	if got := found(s); fmtIDs(got) != want {
		t.Fatalf("after the index was lost and the file opened again: found %v, want %s", got, want)
	}
	var entries int
	if err := s.db.View(func(btx *bolt.Tx) error {
		return btx.Bucket(bucketListPostings).ForEach(func(_, v []byte) error {
			forEachID(v, func([]byte) bool { entries++; return true })
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	// One posting per record and token of the description (the code is
	// answered from its sort index): alvenaria de bloco (3), bloco de
	// concreto (3), pintura (1).
	if entries != 7 {
		t.Errorf("the rebuilt index holds %d postings, want 7", entries)
	}
}

func fmtIDs(ids []string) string {
	out := "["
	for i, id := range ids {
		if i > 0 {
			out += " "
		}
		out += id
	}
	return out + "]"
}
