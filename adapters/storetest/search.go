package storetest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testSearch checks the search across the banks (app.SearchTx through
// app.Service.Search): words in any order, without accents or case; the
// ranking (every word, then most, then the shorter description, then code,
// kind, bank, state, the newer month); the newest edition of each bank and
// state unless every edition is asked for; the kind, bank and state
// filters; pages; and the index kept when an edition is replaced or its
// records are put again.
func testSearch(t *testing.T, s app.Store) {
	mgAug, mgJul := newEdition("SINAPI", "MG", "08/2026"), newEdition("SINAPI", "MG", "07/2026")
	pe, al := newEdition("SINAPI", "PE", "08/2026"), newEdition("SICRO3", "AL", "01/2024")
	res := func(code, desc string) *domain.BankResource {
		r := newBankResource(code, "1")
		r.Description = desc
		return r
	}
	comp := func(code, desc string) *domain.BankComposition {
		c := newBankComposition(code, "1")
		c.Description = desc
		return c
	}
	put := map[*domain.Edition][]any{
		mgAug: {
			res("00001", "BLOCO CERÂMICO VAZADO 14 X 19 X 39 CM"),
			comp("89282", "ALVENARIA DE BLOCOS CERÂMICOS 14X19X39CM, ARGAMASSA"),
			res("00002", "BLOCO DE CONCRETO 14 X 19 X 39 CM"),
			res("00003", "TIJOLO CERAMICO MACICO"),
			res("00004", "AREIA MEDIA"),
		},
		mgJul: {res("00001", "BLOCO CERAMICO 14X19")},
		pe:    {res("00001", "BLOCO CERÂMICO VAZADO 14 X 19 X 39 CM")},
		al:    {comp("0307", "Bloco cerâmico de vedação")},
	}
	update(t, s, func(tx app.Tx) error {
		for ed, recs := range put {
			for _, r := range recs {
				var err error
				switch r := r.(type) {
				case *domain.BankResource:
					err = tx.PutBankResource(ed.Key(), r)
				case *domain.BankComposition:
					err = tx.PutBankComposition(ed.Key(), r)
				}
				if err != nil {
					return err
				}
			}
			if err := tx.PutEdition(ed); err != nil {
				return err
			}
		}
		return nil
	})
	svc := app.New(s, nil, app.Config{})
	search := func(in app.SearchInput) ([]string, int) {
		t.Helper()
		if in.Page.Limit == 0 {
			in.Page.Limit = 20
		}
		items, total, err := svc.Search(bg(), in)
		if err != nil {
			t.Fatalf("Search(%+v): %v", in, err)
		}
		out := []string{}
		for _, it := range items {
			out = append(out, fmt.Sprintf("%s/%s/%s %s %s %d/%d", it.Edition.Bank, it.Edition.State, it.Edition.Month, it.Kind[:1], it.Code, it.Matched, it.Terms))
		}
		return out, total
	}
	expect := func(in app.SearchInput, wantTotal int, want ...string) {
		t.Helper()
		got, total := search(in)
		if want == nil {
			want = []string{}
		}
		if !reflect.DeepEqual(got, want) || total != wantTotal {
			t.Errorf("Search(%+v) =\n%s (total %d), want\n%s (total %d)", in, strings.Join(got, "\n"), total, strings.Join(want, "\n"), wantTotal)
		}
	}
	q := "bloco ceramico 14x19"
	expect(app.SearchInput{Q: q}, 6,
		"SINAPI/MG/08/2026 r 00001 4/4", "SINAPI/PE/08/2026 r 00001 4/4", "SINAPI/MG/08/2026 c 89282 4/4",
		"SINAPI/MG/08/2026 r 00002 3/4", "SICRO3/AL/01/2024 c 0307 2/4", "SINAPI/MG/08/2026 r 00003 1/4")
	for _, spelling := range []string{"BLOCO CERAMICO", "ceramico bloco", "blóco ceramico", "  Bloco   CERÂMICO "} {
		items, _, err := svc.Search(bg(), app.SearchInput{Q: spelling, State: "mg", Page: app.Page{Limit: 20}})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, it := range items {
			if it.Code == "00001" && it.Description == "BLOCO CERÂMICO VAZADO 14 X 19 X 39 CM" && it.Unit == "M3" && it.Matched == 2 && it.Terms == 2 {
				found = true
			}
		}
		if !found {
			t.Errorf("%q did not find BLOCO CERÂMICO VAZADO with both words: %+v", spelling, items)
		}
	}
	expect(app.SearchInput{Q: q, Kind: "composition"}, 2, "SINAPI/MG/08/2026 c 89282 4/4", "SICRO3/AL/01/2024 c 0307 2/4")
	expect(app.SearchInput{Q: q, Kind: "resource", Bank: "sinapi", State: "pe"}, 1, "SINAPI/PE/08/2026 r 00001 4/4")
	expect(app.SearchInput{Q: q, Bank: "SICRO3"}, 1, "SICRO3/AL/01/2024 c 0307 2/4")
	expect(app.SearchInput{Q: q, State: "MG", AllEditions: true}, 5,
		"SINAPI/MG/07/2026 r 00001 4/4", "SINAPI/MG/08/2026 r 00001 4/4", "SINAPI/MG/08/2026 c 89282 4/4",
		"SINAPI/MG/08/2026 r 00002 3/4", "SINAPI/MG/08/2026 r 00003 1/4")
	// Pages the items matching every word fill (PostgreSQL reads them
	// alone), and pages they do not.
	expect(app.SearchInput{Q: q, Page: app.Page{Offset: 1, Limit: 2}}, 6, "SINAPI/PE/08/2026 r 00001 4/4", "SINAPI/MG/08/2026 c 89282 4/4")
	expect(app.SearchInput{Q: q, Page: app.Page{Limit: 1}}, 6, "SINAPI/MG/08/2026 r 00001 4/4")
	expect(app.SearchInput{Q: "ceramico", Page: app.Page{Offset: 1, Limit: 2}}, 5, "SICRO3/AL/01/2024 c 0307 1/1", "SINAPI/MG/08/2026 r 00001 1/1")
	expect(app.SearchInput{Q: q, Page: app.Page{Offset: 2, Limit: 2}}, 6, "SINAPI/MG/08/2026 c 89282 4/4", "SINAPI/MG/08/2026 r 00002 3/4")
	expect(app.SearchInput{Q: q, Page: app.Page{Offset: 6, Limit: 2}}, 6)
	expect(app.SearchInput{Q: "areia 140"}, 1, "SINAPI/MG/08/2026 r 00004 1/2")
	expect(app.SearchInput{Q: "xyzzy"}, 0)
	expect(app.SearchInput{Q: q, State: "SP"}, 0)

	// Bad input: every parameter named at once, nothing read.
	_, _, err := svc.Search(bg(), app.SearchInput{Q: "  ", Kind: "budget", State: "Minas"})
	var fields []string
	for _, f := range domain.ErrorFields(err) {
		fields = append(fields, f.Field)
	}
	if domain.ErrorCode(err) != domain.EINVALID || !reflect.DeepEqual(fields, []string{"q", "kind", "state"}) {
		t.Errorf("bad search = %v (fields %v), want EINVALID naming q, kind, state", err, fields)
	}

	// A record put again with another description, and an edition
	// replaced: the index follows in the same transaction.
	update(t, s, func(tx app.Tx) error {
		return tx.PutBankResource(mgAug.Key(), res("00003", "TELHA DE FIBROCIMENTO"))
	})
	expect(app.SearchInput{Q: "tijolo"}, 0)
	expect(app.SearchInput{Q: "fibrocimento telha"}, 1, "SINAPI/MG/08/2026 r 00003 2/2")
	update(t, s, func(tx app.Tx) error {
		if err := tx.DeleteBankRecords(pe.Key()); err != nil {
			return err
		}
		if err := tx.PutBankResource(pe.Key(), res("00009", "CIMENTO PORTLAND")); err != nil {
			return err
		}
		return tx.PutEdition(pe)
	})
	expect(app.SearchInput{Q: q, State: "PE"}, 0)
	expect(app.SearchInput{Q: "portland"}, 1, "SINAPI/PE/08/2026 r 00009 1/1")
}
