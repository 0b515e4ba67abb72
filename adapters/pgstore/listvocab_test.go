package pgstore_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestVocabTotal: the total of a description filter is the number of the
// company's resources whose folded description contains the folded text,
// whether the vocabulary gives it (one word held by one token) or the
// rows are counted (no token, several, a space), after puts one by one and
// in a batch (COPY), changed descriptions, deletes, and with another
// company holding the same words; and a word of one token takes its total
// from list_vocab (a count changed there by hand shows in the total).
func TestVocabTotal(t *testing.T) {
	url := newDatabase(t)
	s := openURL(t, url, pgstore.Options{})
	rng := rand.New(rand.NewPCG(29, 16))
	pieces := []string{"ALVENARIA", "alvenarias", "Alvenária", "BLOCO", "bloco", "CERÂMICO", "de", "DE", "9X19", "pvc", "tubo", "  ", "\t", "x"}
	desc := func() string {
		var b []string
		for range 1 + rng.IntN(6) {
			b = append(b, pieces[rng.IntN(len(pieces))])
		}
		return strings.Join(b, " ")
	}
	descs := map[string]map[string]string{"co1": {}, "co2": {}} // company → id → description
	n := 0
	res := func(company string) *domain.Resource {
		n++
		id := fmt.Sprintf("01HZXVOCAB%016d", n)
		d := desc()
		descs[company][id] = d
		return &domain.Resource{
			ID: id, CompanyID: company, UserID: "u", DepartmentID: "d", Code: fmt.Sprintf("V-%d", n), Description: d,
			Type: domain.TypeMaterial, Unit: "UN", Status: true,
			Locals:    map[string]domain.PriceLine{"MG": {PND: decimal.New(1, 0), PD: decimal.New(1, 0)}},
			CreatedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC),
		}
	}
	update := func(fn func(tx app.Tx) error) {
		t.Helper()
		if err := s.Update(bg, fn); err != nil {
			t.Fatal(err)
		}
	}
	// One by one, then in a batch.
	update(func(tx app.Tx) error {
		for range 40 {
			for _, co := range []string{"co1", "co2"} {
				if err := tx.PutResource(res(co)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	update(func(tx app.Tx) error {
		return tx.(app.BatchTx).Batch(func() error {
			for range 60 {
				if err := tx.PutResource(res("co1")); err != nil {
					return err
				}
			}
			return nil
		})
	})
	// Changed descriptions and deletes.
	update(func(tx app.Tx) error {
		i := 0
		for id := range descs["co1"] {
			i++
			switch i % 5 {
			case 0:
				r, err := tx.Resource(id)
				if err != nil {
					return err
				}
				r.Description = desc()
				descs["co1"][id] = r.Description
				if err := tx.PutResource(r); err != nil {
					return err
				}
			case 1:
				if err := tx.DeleteResource(id); err != nil {
					return err
				}
				delete(descs["co1"], id)
			}
		}
		return nil
	})

	total := func(company, text string) int {
		t.Helper()
		var got int
		if err := s.View(bg, func(tx app.Tx) error {
			q := app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: text}},
				Sort: []app.Order{{Field: app.FieldCode, Desc: true}}, Limit: 10}
			_, n, err := tx.Resources(company, q)
			got = n
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, co := range []string{"co1", "co2"} {
		for _, text := range []string{"alvenaria", "ALVENÁRIA", "alvenarias", "bloco", "ceramico", "cerâmico", "de", "9x19", "x", "pvc", "tubo",
			"venar", "arias", "nothing", "bloco de", "de bloco", "%", "_"} {
			want := 0
			for _, d := range descs[co] {
				if strings.Contains(app.Fold(d), app.Fold(text)) {
					want++
				}
			}
			if got := total(co, text); got != want {
				t.Errorf("%s %q: total %d, want %d", co, text, got, want)
			}
		}
	}

	// "ceramico" is held by one token (cerâmico folded): its total is
	// list_vocab's.
	before := total("co1", "ceramico")
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	if _, err := conn.Exec(bg, `UPDATE list_vocab SET n = n + 5 WHERE company_id = 'co1' AND token = 'ceramico' AND shard = (SELECT min(shard) FROM list_vocab WHERE company_id = 'co1' AND token = 'ceramico')`); err != nil {
		t.Fatal(err)
	}
	if got := total("co1", "ceramico"); got != before+5 {
		t.Errorf("ceramico after list_vocab += 5: %d, want %d (the total is not the vocabulary's)", got, before+5)
	}
}
