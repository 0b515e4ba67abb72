package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestOneRegimeNested: an own composition whose items are all without a
// desonerado price (an edition imported não desonerado only) has a null
// desonerado price, passed on to the composition that holds it and to a
// desonerado budget line (missing, with why); its não desonerado price
// stays. A composition with a priced item besides keeps the sum of what
// is priced (incomplete), as for any missing price.
func TestOneRegimeNested(t *testing.T) {
	nd := []domain.Regime{domain.NaoDesonerado}
	k := func(code string) string { return mg08.EditionKey() + " " + code }
	src := &fakeSource{
		ownRes: map[string]*domain.Resource{"OR1": {Code: "OR1", Description: "Próprio", Unit: "KG", Type: domain.TypeMaterial,
			Locals: map[string]domain.PriceLine{"MG": {PND: dec("5"), PD: dec("4")}}}},
		bankRes: map[string]*domain.BankResource{
			k("R1"): {Code: "R1", Description: "Tijolo", Unit: "UN", Type: domain.TypeMaterial, Regimes: nd,
				Prices: domain.PriceLine{PND: dec("2.5"), PNDI: dec("2.5")}},
		},
		ownComp: map[string]*domain.Composition{},
	}
	own := func(code string, items ...domain.Item) *domain.Composition {
		c := &domain.Composition{ID: "id-" + code, Code: code, Description: code, Unit: "M2", State: "MG",
			Rounding: domain.Truncate2, Banks: []domain.BankRef{mg08}, Items: items}
		src.ownComp[code] = c
		return c
	}
	inner := own("INNER", item("SINAPI", "R1", domain.KindResource, "10"))
	outer := own("OUTER", item("MYBASE", "INNER", domain.KindComposition, "2"))
	mixed := own("MIXED", item("MYBASE", "INNER", domain.KindComposition, "1"), item("MYBASE", "OR1", domain.KindResource, "1"))

	pr := domain.NewPricer(src)
	for _, tc := range []struct {
		c        *domain.Composition
		pnd      string
		unpriced [2]bool
	}{
		{inner, "25", [2]bool{false, true}},
		{outer, "50", [2]bool{false, true}},
		{mixed, "30", [2]bool{}}, // 25 + 5; pd 4, the own resource only: incomplete
	} {
		pc, err := pr.Price(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		if !pc.Prices.PND.Equal(dec(tc.pnd)) || pc.Prices.Unpriced != tc.unpriced || !pc.Incomplete() {
			t.Errorf("%s: pnd %s unpriced %v incomplete %v, want %s, %v, incomplete", tc.c.Code, pc.Prices.PND, pc.Prices.Unpriced, pc.Incomplete(), tc.pnd, tc.unpriced)
		}
		if tc.c == mixed && !pc.Prices.PD.Equal(dec("4")) {
			t.Errorf("MIXED pd %s, want 4 (the priced item only)", pc.Prices.PD)
		}
		if tc.c == outer {
			if it := pc.Items[0]; it.Priced(domain.Desonerado) || !it.Priced(domain.NaoDesonerado) {
				t.Errorf("OUTER's item INNER: unpriced %v, want desonerado only", it.Unpriced)
			}
		}
	}

	b := &domain.Budget{Code: "ORC", State: "MG", Desonerado: true, Banks: []domain.BankRef{mg08}, Rounding: domain.BudgetTruncate, BDIMode: domain.BDIOnUnitPrice,
		Items: []domain.BudgetNode{line(domain.NodeComposition, "MYBASE", "OUTER", "1")}}
	pb, err := domain.NewBudgetPricer(src).Price(b)
	if err != nil {
		t.Fatal(err)
	}
	var line bool
	for _, m := range pb.Missing {
		line = line || m.Code == "OUTER" && m.Reason == "own composition OUTER (MG) has no item priced in the budget's regime"
	}
	if !line || !pb.Totals.Total.IsZero() {
		t.Errorf("desonerado budget: missing %+v, total %s; want OUTER's line missing and nothing priced", pb.Missing, pb.Totals.Total)
	}
}
