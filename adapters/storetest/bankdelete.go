package storetest

import (
	"errors"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testDeleteBankRecords: deleting an edition's records leaves every other
// edition's (another month, a region whose key starts with the same text)
// and the edition record itself; it is undone with its transaction and
// refused in a read-only one.
func testDeleteBankRecords(t *testing.T, s app.Store) {
	regional := newEdition("SINAPI", "MG", "08/2026")
	regional.Region = "Norte"
	aug := newEdition("SINAPI", "MG", "08/2026")
	julRes, regRes := newBankResource("00001", "9.99"), newBankResource("00001", "1")
	julCom, regCom := newBankComposition("87292", "1"), newBankComposition("87292", "2")
	update(t, s, func(tx app.Tx) error {
		if err := tx.PutEdition(aug); err != nil {
			return err
		}
		for _, r := range []*domain.BankResource{newBankResource("00001", "10.01"), newBankResource("00002", "2")} {
			if err := tx.PutBankResource(edSinapiAug, r); err != nil {
				return err
			}
		}
		if err := tx.PutBankComposition(edSinapiAug, newBankComposition("87292", "3")); err != nil {
			return err
		}
		for key, rc := range map[string]struct {
			r *domain.BankResource
			c *domain.BankComposition
		}{edSinapiJul: {julRes, julCom}, regional.Key(): {regRes, regCom}} {
			if err := tx.PutBankResource(key, rc.r); err != nil {
				return err
			}
			if err := tx.PutBankComposition(key, rc.c); err != nil {
				return err
			}
		}
		return nil
	})
	boom := errors.New("boom")
	if err := s.Update(bg(), func(tx app.Tx) error {
		if err := tx.DeleteBankRecords(edSinapiAug); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Update = %v", err)
	}
	count := func(tx app.Tx, key string) (int, int) {
		r, err := tx.BankResources(key)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tx.BankCompositions(key)
		if err != nil {
			t.Fatal(err)
		}
		return len(r), len(c)
	}
	view(t, s, func(tx app.Tx) error {
		if r, c := count(tx, edSinapiAug); r != 2 || c != 1 {
			t.Errorf("after a rollback the edition has %d resources and %d compositions, want 2 and 1", r, c)
		}
		if err := tx.DeleteBankRecords(edSinapiAug); err == nil {
			t.Error("DeleteBankRecords succeeded in a read-only transaction")
		}
		return nil
	})
	update(t, s, func(tx app.Tx) error { return tx.DeleteBankRecords(edSinapiAug) })
	update(t, s, func(tx app.Tx) error { return tx.DeleteBankRecords(edSinapiAug) }) // nothing left: no error
	view(t, s, func(tx app.Tx) error {
		if r, c := count(tx, edSinapiAug); r != 0 || c != 0 {
			t.Errorf("after the delete the edition has %d resources and %d compositions", r, c)
		}
		_, err := tx.BankResource(edSinapiAug, "00001")
		wantCode(t, "BankResource after the delete", err, notFound)
		if _, err := tx.Edition(edSinapiAug); err != nil {
			t.Errorf("the edition record went with its records: %v", err)
		}
		for _, key := range []string{edSinapiJul, regional.Key()} {
			if r, c := count(tx, key); r != 1 || c != 1 {
				t.Errorf("%s has %d resources and %d compositions, want 1 and 1", key, r, c)
			}
		}
		return nil
	})
}
