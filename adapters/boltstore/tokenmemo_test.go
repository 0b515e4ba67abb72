package boltstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestTokenMemoFollowsTheVocabulary: a filter's page read through the
// memo of matched tokens is the page the vocabulary gives after every kind
// of write: a record with a new token that contains the word, a record
// with a token already known (only a count moves), the last record of a
// token deleted, and a write transaction that failed. It fails when a
// write that adds or removes a token does not move the vocabulary's
// sequence.
func TestTokenMemoFollowsTheVocabulary(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	res := func(i int, desc string) *domain.Resource {
		return &domain.Resource{ID: fmt.Sprintf("01HZXRE%03d", i), CompanyID: co.ID, Code: fmt.Sprintf("R-%03d", i),
			Description: desc, Type: domain.TypeMaterial, Unit: "UN", CreatedAt: time.Unix(int64(i), 0).UTC()}
	}
	put := func(rs ...*domain.Resource) {
		t.Helper()
		if err := s.Update(ctx, func(tx app.Tx) error {
			for _, r := range rs {
				if err := tx.PutResource(r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	// page lists the codes holding word, in code order, and the total.
	page := func(word string) (codes []string, total int) {
		t.Helper()
		if err := s.View(ctx, func(tx app.Tx) error {
			rs, n, err := tx.Resources(co.ID, app.Query{
				Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: word}},
				Sort:  []app.Order{{Field: app.FieldCode}}, Limit: 100,
			})
			for _, r := range rs {
				codes = append(codes, r.Code)
			}
			total = n
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return codes, total
	}
	want := func(word string, codes ...string) {
		t.Helper()
		// Twice: the second read is answered through the memo.
		for range 2 {
			got, total := page(word)
			if fmt.Sprint(got) != fmt.Sprint(codes) || total != len(codes) {
				t.Fatalf("%q: %v (total %d), want %v", word, got, total, codes)
			}
		}
	}
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.PutCompany(co) }); err != nil {
		t.Fatal(err)
	}
	var rs []*domain.Resource
	for i := range 40 {
		rs = append(rs, res(i, fmt.Sprintf("Bloco de concreto Nº %d", i)))
	}
	rs = append(rs, res(40, "Bloco para alvenaria"))
	put(rs...)
	want("alvenaria", "R-040")

	// A new token containing the word.
	put(res(41, "Argamassa de ALVENARIAS estruturais"))
	want("alvenaria", "R-040", "R-041")
	// A known token: only its count moves.
	put(res(42, "Alvenaria de vedação"))
	want("alvenaria", "R-040", "R-041", "R-042")
	// The last record of a token changed to other words: the token leaves.
	put(res(41, "Argamassa de assentamento"))
	want("alvenaria", "R-040", "R-042")
	// A failed write leaves the memo's answer as it was.
	boom := fmt.Errorf("boom")
	if err := s.Update(ctx, func(tx app.Tx) error {
		if err := tx.PutResource(res(43, "Alvenarias e vedações")); err != nil {
			return err
		}
		return boom
	}); err != boom {
		t.Fatalf("the failing write returned %v", err)
	}
	want("alvenaria", "R-040", "R-042")
	// A deleted record whose token another record keeps, then the last one.
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.DeleteResource(res(42, "").ID) }); err != nil {
		t.Fatal(err)
	}
	want("alvenaria", "R-040")
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.DeleteResource(res(40, "").ID) }); err != nil {
		t.Fatal(err)
	}
	want("alvenaria")
	// Numbers: each record's own token.
	put(res(44, "Bloco de concreto Nº 317"))
	want("317", "R-044")
	want("31", "R-031", "R-044")
}
