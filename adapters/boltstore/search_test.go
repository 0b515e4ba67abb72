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

// TestSearchIndexBuiltOnOpen: a file whose editions have no search index
// (held before it existed, or written by a costdb that did not keep it) gets
// it when it is opened, and verifies (restores) without it.
func TestSearchIndexBuiltOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	ed := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.Desonerado}, ImportedAt: time.Unix(0, 0).UTC()}
	if err := s.Update(context.Background(), func(tx app.Tx) error {
		if err := tx.PutBankResource(ed.Key(), &domain.BankResource{Code: "00001", Description: "BLOCO CERÂMICO VAZADO", Unit: "UN"}); err != nil {
			return err
		}
		if err := tx.PutBankComposition(ed.Key(), &domain.BankComposition{Code: "89282", Description: "ALVENARIA DE BLOCOS", Unit: "M2"}); err != nil {
			return err
		}
		return tx.PutEdition(ed)
	}); err != nil {
		t.Fatal(err)
	}
	found := func(s *Store) int {
		t.Helper()
		_, total, err := app.New(s, nil, app.Config{}).Search(context.Background(), app.SearchInput{Q: "bloco", Page: app.Page{Limit: 10}})
		if err != nil {
			t.Fatal(err)
		}
		return total
	}
	if n := found(s); n != 2 {
		t.Fatalf("found %d, want 2", n)
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(btx *bolt.Tx) error { return btx.DeleteBucket(bucketSearch) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// A file of the same schema version made before the index (a backup)
	// is whole.
	if err := Verify(path); err != nil {
		t.Fatalf("Verify of a file without the search bucket: %v", err)
	}
	s = open(t, path)
	defer s.Close()
	if n := found(s); n != 2 {
		t.Fatalf("after the index was lost and the file opened again: found %d, want 2", n)
	}
}
