package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestSicroWithoutTeamProductionIsUnpriced: a SICRO-model composition with
// team production 0 (real v1 clients send "0" as their default) is valid,
// and has no unit cost until it is set: its prices say so (never a cost
// of 0), its missing list names the field, and a composition or a budget
// line holding it has that item missing. A fic of 0 is a value, not missing.
func TestSicroWithoutTeamProductionIsUnpriced(t *testing.T) {
	sicro := domain.BankRef{Name: "SICRO3", State: "AL", Month: "01/2024"}
	src := &fakeSource{
		bankRes: map[string]*domain.BankResource{
			sicro.EditionKey() + " P1": {Code: "P1", Description: "P1", Unit: "h", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: dec("20"), PD: dec("18"), PNDI: dec("20"), PDI: dec("18")}},
		},
		ownComp: map[string]*domain.Composition{},
	}
	sub := &domain.Composition{ID: "S", Code: "S-0", Description: "Escavação", Unit: "m³", State: "AL", IsSicro: true,
		Rounding: domain.DefaultRounding(true), Banks: []domain.BankRef{sicro},
		Items: []domain.Item{item("SICRO3", "P1", domain.KindResource, "2")}}
	if err := sub.Validate(); err != nil {
		t.Fatalf("team production 0 must be accepted: %v", err)
	}
	if diff := cmp.Diff([]string{"team_production"}, sub.UnsetFields()); diff != "" {
		t.Errorf("unset fields (-want +got):\n%s", diff)
	}
	pc, err := domain.NewPricer(src).Price(sub)
	if err != nil {
		t.Fatal(err)
	}
	if pc.Prices.Unpriced != [2]bool{true, true} || !pc.Incomplete() {
		t.Errorf("prices %+v, incomplete %v: want no unit cost in either regime", pc.Prices, pc.Incomplete())
	}
	// B is still known: it does not depend on the team production.
	if !pc.Prices.ChDaMo.Equal(dec("40")) {
		t.Errorf("B = %s, want 40", pc.Prices.ChDaMo)
	}
	want := []domain.MissingPrice{{Bank: "MYBASE", Code: "S-0", Kind: domain.KindComposition, Field: "team_production",
		Reason: "team_production is not set (0): a SICRO-model composition's unit cost divides by it", Unpriced: [2]bool{true, true}}}
	if diff := cmp.Diff(want, pc.Missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}

	// Set, it is priced and complete; fic 0 stays a value.
	set := *sub
	set.TeamProduction = dec("4")
	if pc, err := domain.NewPricer(src).Price(&set); err != nil || pc.Incomplete() || pc.Prices.Unpriced != [2]bool{} || !pc.Prices.PND.Equal(dec("10")) {
		t.Errorf("with team production 4: %v, missing %v, prices %+v (want PND 40/4 = 10)", err, pc.Missing, pc.Prices)
	}

	// Held by another composition: the item is missing, named once.
	src.ownComp["S-0"] = sub
	outer := &domain.Composition{ID: "O", Code: "O-1", Description: "Outer", Unit: "m³", State: "AL",
		Rounding: domain.Truncate2, Items: []domain.Item{item("MYBASE", "S-0", domain.KindComposition, "1")}}
	opc, err := domain.NewPricer(src).Price(outer)
	if err != nil {
		t.Fatal(err)
	}
	if it := opc.Items[0]; !it.Missing || it.Unpriced != [2]bool{true, true} {
		t.Errorf("outer item: missing %v unpriced %v, want missing in both regimes", it.Missing, it.Unpriced)
	}
	wantOuter := []domain.MissingPrice{{Bank: "MYBASE", Code: "S-0", Kind: domain.KindComposition,
		Reason:   "own composition S-0 (AL) has no unit cost: team_production is not set (0): a SICRO-model composition's unit cost divides by it",
		Unpriced: [2]bool{true, true}}}
	if diff := cmp.Diff(wantOuter, opc.Missing); diff != "" {
		t.Errorf("outer missing (-want +got):\n%s", diff)
	}
	if opc.Prices.Unpriced != [2]bool{} || !opc.Prices.PND.IsZero() {
		t.Errorf("outer prices %+v: the sum of what could be priced (nothing), flagged incomplete", opc.Prices)
	}
}

// TestBudgetLineOfSicroWithoutTeamProduction: a budget line of a SICRO-model
// composition without team production is missing (priced at zero, listed
// with why) in the synthetic report, and stays whole and missing when the
// budget is taken down to its inputs (its equipment and labour have no
// quantity per unit without it).
func TestBudgetLineOfSicroWithoutTeamProduction(t *testing.T) {
	src := worldSource()
	src.ownComp["S0"] = &domain.Composition{ID: "id-S0", Code: "S0", Description: "Escavação", Unit: "m³", State: "MG", IsSicro: true,
		Rounding: domain.Truncate4, Banks: []domain.BankRef{mg08},
		Items: []domain.Item{item("SINAPI", "R2", domain.KindResource, "1"), item("SINAPI", "R1", domain.KindResource, "3")}}
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Items = []domain.BudgetNode{line(domain.NodeComposition, "MYBASE", "S0", "2")}
	syn, err := domain.NewBudgetPricer(src).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	const reason = "own composition S0 (MG) has no unit cost: team_production is not set (0): a SICRO-model composition's unit cost divides by it"
	if !syn.Rows[0].Missing || !syn.Total.IsZero() || len(syn.Missing) != 1 || syn.Missing[0].Reason != reason {
		t.Errorf("synthetic: row %+v, total %s, missing %+v", syn.Rows[0], syn.Total, syn.Missing)
	}
	items, err := domain.NewBudgetPricer(src).Explode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || !items[0].Missing || items[0].Code != "S0" || !items[0].Total.IsZero() {
		t.Errorf("exploded: %+v, want S0 whole and missing", items)
	}
}
