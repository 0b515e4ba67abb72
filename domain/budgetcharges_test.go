package domain_test

import (
	"bytes"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestBudgetLabourCharges: a budget with own labour charges prices its bank
// labour resource lines at the price without charges × (1 + %), cut to 2
// places, in its regime; materials keep the bank's price; a labour resource
// without a price without charges is missing; the synthetic total, the
// explosion (ABC) and the analytic report agree; one pricer shared by a
// budget with charges and one without prices each with its own; null gives
// the bank's prices back. The figures are computed here by hand.
func TestBudgetLabourCharges(t *testing.T) {
	k := func(code string) string { return mg08.EditionKey() + " " + code }
	src := &fakeSource{
		bankRes: map[string]*domain.BankResource{
			k("88309"): {Code: "88309", Description: "PEDREIRO", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: dec("35.00"), PD: dec("31.00"), PNDI: dec("35.00"), PDI: dec("31.00")},
				Base:   decimal.NewNullDecimal(dec("18.37"))},
			k("88316"): {Code: "88316", Description: "SERVENTE", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: dec("25.00"), PD: dec("22.00")}},
			k("R1"): {Code: "R1", Description: "Tijolo", Unit: "UN", Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: dec("2.50"), PD: dec("2.40")}},
		},
		ownComp: map[string]*domain.Composition{},
	}
	budget := func(charges string) *domain.Budget {
		b := &domain.Budget{Code: "ORC", State: "MG", Banks: []domain.BankRef{mg08}, Rounding: domain.BudgetTruncate, BDIMode: domain.BDIOnUnitPrice,
			Items: []domain.BudgetNode{
				line(domain.NodeResource, "SINAPI", "88309", "3"),
				line(domain.NodeResource, "SINAPI", "R1", "10"),
			}}
		if charges != "" {
			b.LabourCharges = decimal.NewNullDecimal(dec(charges))
		}
		return b
	}
	// 18.37 × 1.685 = 30.953450 → 30.95; × 3 = 92.85; 10 × 2.50 = 25.00.
	own, bank := dec("117.85"), dec("130") // bank: 3 × 35.00 + 25.00
	bp := domain.NewBudgetPricer(src)
	for _, tc := range []struct {
		b    *domain.Budget
		want decimal.Decimal
	}{{budget("68.5"), own}, {budget(""), bank}, {budget("68.5"), own}} {
		pb, err := bp.Price(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if !pb.Totals.Total.Equal(tc.want) || pb.Incomplete() {
			t.Errorf("charges %v: total %s missing %+v, want %s", tc.b.LabourCharges, pb.Totals.Total, pb.Missing, tc.want)
		}
		ins, err := bp.Explode(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		sum := decimal.Zero
		for _, in := range ins {
			sum = sum.Add(in.Total)
		}
		if !sum.Equal(tc.want) {
			t.Errorf("charges %v: exploded total %s, want %s", tc.b.LabourCharges, sum, tc.want)
		}
		ar, err := bp.AnalyticStream(tc.b, tc.b.Walk)
		if err != nil {
			t.Fatal(err)
		}
		if !ar.Total.Equal(tc.want) {
			t.Errorf("charges %v: analytic total %s, want %s", tc.b.LabourCharges, ar.Total, tc.want)
		}
	}
	// Desonerado: the same own figure (the bank's pd 31.00 is not used).
	b := budget("68.5")
	b.Desonerado = true
	pb, err := domain.NewBudgetPricer(src).Price(b)
	if err != nil || !pb.Totals.Total.Equal(dec("116.85")) { // 92.85 + 10 × 2.40
		t.Errorf("desonerado: total %v (%v), want 116.85", pb.Totals.Total, err)
	}
	// No price without charges: missing, never the bank's charged price.
	b = budget("68.5")
	b.Items = append(b.Items, line(domain.NodeResource, "SINAPI", "88316", "1"))
	pb, err = domain.NewBudgetPricer(src).Price(b)
	if err != nil {
		t.Fatal(err)
	}
	if !pb.Totals.Total.Equal(own) || len(pb.Missing) != 1 || pb.Missing[0].Code != "88316" {
		t.Errorf("labour without base: total %s missing %+v, want %s and 88316 missing", pb.Totals.Total, pb.Missing, own)
	}
}

func TestBudgetLabourChargesValidated(t *testing.T) {
	for _, c := range []string{"-1", "1000.5", "10.12345"} {
		b := frozenBudget()
		b.LabourCharges = decimal.NewNullDecimal(dec(c))
		if err := b.Validate(); err == nil || !bytes.Contains([]byte(err.Error()), []byte("labour_charges")) {
			t.Errorf("labour_charges %s: %v, want an error on /labour_charges", c, err)
		}
	}
	b := frozenBudget()
	b.LabourCharges = decimal.NewNullDecimal(dec("84.2701"))
	if err := b.Validate(); err != nil {
		t.Errorf("84.2701: %v", err)
	}
}

// TestFreezeKeepsLabourCharges: a budget with own labour charges freezes
// them into its version (and so into its hash); one without is held to its
// old bytes by TestFreezeHashUnchangedByARTFields.
func TestFreezeKeepsLabourCharges(t *testing.T) {
	_, plain, err := domain.Freeze(frozenBudget(), domain.NewPriceSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	b := frozenBudget()
	b.LabourCharges = decimal.NewNullDecimal(dec("68.5"))
	content, hash, err := domain.Freeze(b, domain.NewPriceSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	if hash == plain || !bytes.Contains(content, []byte(`"LabourCharges":"68.5"`)) {
		t.Errorf("the charges are not in the frozen content: %s", content)
	}
	v := &domain.BudgetVersion{Number: 1, Hash: hash, Content: content}
	got, _, err := v.Open()
	if err != nil || !got.LabourCharges.Valid || !got.LabourCharges.Decimal.Equal(dec("68.5")) {
		t.Errorf("Open = %v, %v; want the frozen charges", got.LabourCharges, err)
	}
}

// TestBudgetLabourChargesBankComposition: a bank composition line of a
// budget with own labour charges is priced at its cost recomputed from its
// published structure (SINAPI's model: Σ trunc₂(coefficient × price)) with
// its labour, at any depth, priced by the own charges; the analytic report
// opens it with those figures and its total is the synthetic one. The
// published costs (40.00, 4.00) are used again once the charges are null.
func TestBudgetLabourChargesBankComposition(t *testing.T) {
	k := func(code string) string { return mg08.EditionKey() + " " + code }
	src := &fakeSource{
		bankRes: map[string]*domain.BankResource{
			k("88309"): {Code: "88309", Description: "PEDREIRO", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: dec("35.00"), PD: dec("31.00")}, Base: decimal.NewNullDecimal(dec("18.37"))},
			k("R1"): {Code: "R1", Description: "Tijolo", Unit: "UN", Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: dec("2.50"), PD: dec("2.40")}},
		},
		bankComp: map[string]*domain.BankComposition{
			k("C2"): {Code: "C2", Description: "Sub", Unit: "M2", Cost: domain.UnitPrice{PND: dec("4.00"), PD: dec("3.80")},
				Items: []domain.StructureItem{{Kind: domain.KindResource, Code: "88309", Coefficient: dec("0.1")}}},
			k("C1"): {Code: "C1", Description: "Alvenaria", Unit: "M2", Cost: domain.UnitPrice{PND: dec("40.00"), PD: dec("38.00")},
				Items: []domain.StructureItem{
					{Kind: domain.KindResource, Code: "88309", Coefficient: dec("0.5")},
					{Kind: domain.KindResource, Code: "R1", Coefficient: dec("4")},
					{Kind: domain.KindComposition, Code: "C2", Coefficient: dec("2")},
				}},
		},
		ownComp: map[string]*domain.Composition{},
	}
	b := &domain.Budget{Code: "ORC", State: "MG", Banks: []domain.BankRef{mg08}, Rounding: domain.BudgetTruncate, BDIMode: domain.BDIOnUnitPrice,
		Items:         []domain.BudgetNode{line(domain.NodeComposition, "SINAPI", "C1", "2")},
		LabourCharges: decimal.NewNullDecimal(dec("68.5"))}
	// Labour: trunc₂(18.37 × 1.685 = 30.95345) = 30.95. C2: trunc₂(0.1 × 30.95) = 3.09.
	// C1: trunc₂(0.5 × 30.95) = 15.47 + 4 × 2.50 = 10.00 + 2 × 3.09 = 6.18 → 31.65; × 2 = 63.30.
	bp := domain.NewBudgetPricer(src)
	ar, err := bp.AnalyticStream(b, b.Walk)
	if err != nil {
		t.Fatal(err)
	}
	if !ar.Total.Equal(dec("63.30")) || ar.Incomplete() {
		t.Errorf("analytic total %s missing %+v, want 63.30", ar.Total, ar.Missing)
	}
	pb, err := bp.Price(b)
	if err != nil || !pb.Totals.Total.Equal(ar.Total) {
		t.Errorf("synthetic total %v (%v), want the analytic %s", pb.Totals.Total, err, ar.Total)
	}
	var items []domain.AnalyticItem
	if err := ar.Each(func(r *domain.AnalyticRow) error {
		if r.Code == "C1" {
			items = r.Items
			if !r.UnitPrice.Equal(dec("31.65")) {
				t.Errorf("C1 unit price %s, want 31.65", r.UnitPrice)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 {
		t.Fatalf("C1 opened into %d items, want 3", len(items))
	}
	if it := items[0]; !it.UnitPrice.Equal(dec("30.95")) || !it.Partial.Equal(dec("15.47")) ||
		!it.LabourBase.Decimal.Equal(dec("18.37")) || !it.LabourCharges.Decimal.Equal(dec("68.5")) {
		t.Errorf("labour item %+v, want 30.95 (18.37, 68.5 %%), partial 15.47", it)
	}
	if it := items[2]; !it.UnitPrice.Equal(dec("3.09")) || !it.Partial.Equal(dec("6.18")) || !it.Items[0].UnitPrice.Equal(dec("30.95")) {
		t.Errorf("sub-composition item %+v, want 3.09, partial 6.18, its labour 30.95", it)
	}
	// The same pricer, the charges back to null: the published cost.
	b.LabourCharges = decimal.NullDecimal{}
	pb, err = bp.Price(b)
	if err != nil || !pb.Totals.Total.Equal(dec("80")) {
		t.Errorf("null charges: total %v (%v), want 2 × 40.00", pb.Totals.Total, err)
	}
}
