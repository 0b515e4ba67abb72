package pgstore_test

import (
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestSearchWordsFilledOnOpen: bank rows written before the search existed
// (their words NULL, as migration 0014_search.sql leaves them) are found
// once the store has been opened again.
func TestSearchWordsFilledOnOpen(t *testing.T) {
	url := newDatabase(t)
	s := openURL(t, url, pgstore.Options{})
	ed := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.Desonerado}, ImportedAt: time.Unix(0, 0).UTC()}
	if err := s.Update(bg, func(tx app.Tx) error {
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
	found := func(s *pgstore.Store) int {
		t.Helper()
		_, total, err := app.New(s, nil, app.Config{}).Search(bg, app.SearchInput{Q: "ceramico bloco", Page: app.Page{Limit: 10}})
		if err != nil {
			t.Fatal(err)
		}
		return total
	}
	if n := found(s); n != 2 {
		t.Fatalf("found %d, want 2", n)
	}
	for _, table := range []string{"bank_resources", "bank_compositions"} {
		if _, err := s.Pool().Exec(bg, `UPDATE `+table+` SET words = NULL`); err != nil {
			t.Fatal(err)
		}
	}
	if n := found(s); n != 0 {
		t.Fatalf("rows without words: found %d, want 0", n)
	}
	s.Close()
	if n := found(openURL(t, url, pgstore.Options{})); n != 2 {
		t.Fatalf("after the store opened again: found %d, want 2", n)
	}
}
