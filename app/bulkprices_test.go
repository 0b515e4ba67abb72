package app_test

import (
	"context"
	"testing"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// countingStore counts the transactions run through it.
type countingStore struct {
	app.Store
	views, updates int
}

func (s *countingStore) View(ctx context.Context, fn func(app.Tx) error) error {
	s.views++
	return s.Store.View(ctx, fn)
}

func (s *countingStore) Update(ctx context.Context, fn func(app.Tx) error) error {
	s.updates++
	return s.Store.Update(ctx, fn)
}

// TestPriceItemsOneView: a bulk request is read in one read transaction,
// whatever the number of items, and writes nothing.
func TestPriceItemsOneView(t *testing.T) {
	f := newFixture(t)
	tokens, err := jwtauth.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: f.speed}
	svc := app.New(cs, tokens, app.Config{})
	qs := make([]app.PriceQuery, app.MaxBulkPrices)
	for i := range qs {
		qs[i] = app.PriceQuery{Bank: "SINAPI", Code: []string{"0001", "88309", "nope"}[i%3], State: "MG"}
	}
	out, err := svc.PriceItems(ctx, f.a, qs)
	if err != nil {
		t.Fatal(err)
	}
	if cs.views != 1 || cs.updates != 0 {
		t.Errorf("%d read and %d write transactions, want 1 and 0", cs.views, cs.updates)
	}
	if len(out) != len(qs) || out[2].Err == nil || domain.ErrorCode(out[2].Err) != domain.ENOTFOUND || out[1].Err != nil {
		t.Errorf("answers: %d, third %v, second %v", len(out), out[2].Err, out[1].Err)
	}
	// Over the cap: refused before anything is read.
	cs.views = 0
	if _, err := svc.PriceItems(ctx, f.a, append(qs, qs[0])); domain.ErrorCode(err) != domain.EINVALID || cs.views != 0 {
		t.Errorf("1,001 items: %v after %d reads", err, cs.views)
	}
}

// TestPriceItemsNewest: without a month the newest edition held of the bank
// and state answers, with the figures BankItem gives; with one, that month.
func TestPriceItemsNewest(t *testing.T) {
	f := newFixture(t)
	out, err := f.svc.PriceItems(ctx, f.a, []app.PriceQuery{
		{Bank: "sinapi", Code: "0001", State: "mg"},
		{Bank: "SINAPI", Code: "0001", State: "MG", Month: "08/2026", Regime: domain.Desonerado},
		{Bank: "SINAPI", Code: "0002", State: "MG"}, // not in 09/2026, the newest
		{Bank: "SINAPI", Code: "7777", State: "MG", Kind: domain.KindResource},
		{Bank: "SINAPI", Code: "7777", State: "MG"},
	})
	if err != nil {
		t.Fatal(err)
	}
	single, err := f.svc.BankItem(ctx, domain.BankRef{Name: "SINAPI", State: "MG", Month: "09/2026"}, "0001", "")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		month, price string
		kind         domain.ItemKind
	}{{"09/2026", "130", domain.KindResource}, {"08/2026", "120", domain.KindResource}, {}, {"09/2026", "1", domain.KindResource}, {"09/2026", "2", domain.KindComposition}} {
		b := &out[i]
		if want.month == "" {
			if domain.ErrorCode(b.Err) != domain.ENOTFOUND {
				t.Errorf("item %d: %v, want ENOTFOUND", i, b.Err)
			}
			continue
		}
		p, ok := b.Price()
		if b.Err != nil || b.Query.Month != want.month || !ok || !p.Equal(dec(want.price)) || b.Kind() != want.kind {
			t.Errorf("item %d: err %v month %s price %s %v kind %s, want %+v", i, b.Err, b.Query.Month, p, ok, b.Kind(), want)
		}
	}
	if !out[0].Bank.Prices.PND.Equal(single.Prices.PND) || out[0].Description() != single.Description || out[0].Unit() != single.Unit {
		t.Errorf("bulk %+v, single %+v", out[0].Bank, single)
	}
	if out[0].Query.Bank != "SINAPI" || out[0].Query.State != "MG" {
		t.Errorf("query not normalized: %+v", out[0].Query)
	}
}

// TestCheckPriceQueries names every bad member of every query at once.
func TestCheckPriceQueries(t *testing.T) {
	_, err := app.CheckPriceQueries([]app.PriceQuery{
		{Bank: "SINAPI", Code: "1"},
		{Code: "1", State: "XX", Month: "8/2026"},
		{Bank: "MYBASE", Code: " ", Month: "08/2026", Kind: "service"},
	})
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID {
		t.Fatalf("%v", err)
	}
	var got []string
	for _, f := range e.Fields {
		got = append(got, f.Field)
	}
	want := []string{"/1/bank", "/1/state", "/1/month", "/2/code", "/2/state", "/2/month", "/2/kind"}
	if len(got) != len(want) {
		t.Fatalf("fields %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fields %v, want %v", got, want)
			break
		}
	}
	if _, err := app.CheckPriceQueries(nil); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("no query: %v", err)
	}
}

// TestPriceItemsSeveralStates: a bank held for several states needs the
// state; told on that item alone, pointer /state.
func TestPriceItemsSeveralStates(t *testing.T) {
	f := newFixture(t)
	out, err := f.svc.PriceItems(ctx, f.a, []app.PriceQuery{{Bank: "SINAPI", Code: "0001"}})
	if err != nil || out[0].Err != nil || out[0].Query.State != "MG" {
		t.Fatalf("one state held: %v %+v", err, out)
	}
	sp := app.EditionData{
		Edition:   domain.Edition{Bank: "SINAPI", State: "SP", Month: "09/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{{Code: "0001", Description: "AREIA MEDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("140"), PD: dec("140")}}},
	}
	if _, err := f.svc.ImportEditions(ctx, []app.EditionData{sp}); err != nil {
		t.Fatal(err)
	}
	out, err = f.svc.PriceItems(ctx, f.a, []app.PriceQuery{{Bank: "SINAPI", Code: "0001"}, {Bank: "SINAPI", Code: "0001", State: "SP"}})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := out[0].Err.(*domain.Error)
	if !ok || e.Code != domain.EINVALID || len(e.Fields) != 1 || e.Fields[0].Field != "/state" {
		t.Errorf("no state, two held: %v", out[0].Err)
	}
	if p, ok := out[1].Price(); out[1].Err != nil || !ok || !p.Equal(dec("140")) {
		t.Errorf("SP: %v %s", out[1].Err, p)
	}
}
