package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// A deep copy follows every published structure: sub-compositions become
// own compositions coded "<root>.<bank code>", each copied once however
// often it appears, the copies name each other in MYBASE, a composition
// without structure stays a bank item, and the root prices like Caixa's
// rule applied at every level. A structure that contains itself is refused
// and nothing is created.
func TestDeepCopy(t *testing.T) {
	f := newFixture(t)
	st := func(kind domain.ItemKind, code, coef string) domain.StructureItem {
		return domain.StructureItem{Kind: kind, Code: code, Coefficient: dec(coef)}
	}
	R, C := domain.KindResource, domain.KindComposition
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	_, err := f.svc.ImportEditions(ctx, []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: both},
		Resources: []*domain.BankResource{
			{Code: "R1", Description: "AREIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("10.07"), PD: dec("10.07")}},
			{Code: "R2", Description: "BLOCO", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("2.62"), PD: dec("2.62")}},
		},
		Compositions: []*domain.BankComposition{
			{Code: "L", Description: "PEDREIRO", Unit: "H", Cost: domain.UnitPrice{PND: dec("33.62"), PD: dec("31.67")}},
			{Code: "S", Description: "ARGAMASSA", Unit: "M3", Cost: domain.UnitPrice{PND: dec("1"), PD: dec("1")},
				Items: []domain.StructureItem{st(R, "R1", "0.5555"), st(C, "L", "1.1152")}},
			{Code: "U", Description: "ASSENTAMENTO", Unit: "M2", Cost: domain.UnitPrice{PND: dec("1"), PD: dec("1")},
				Items: []domain.StructureItem{st(C, "S", "0.0175"), st(C, "L", "0.6505")}},
			{Code: "A", Description: "ALVENARIA", Unit: "M2", Class: "PARE", Cost: domain.UnitPrice{PND: dec("1"), PD: dec("1")},
				Items: []domain.StructureItem{st(C, "S", "0.0123"), st(C, "U", "1"), st(R, "R2", "15.37")}},
			{Code: "X", Description: "CICLO X", Unit: "UN", Items: []domain.StructureItem{st(C, "Y", "1")}},
			{Code: "Y", Description: "CICLO Y", Unit: "UN", Items: []domain.StructureItem{st(C, "X", "1")}},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.CopyBankComposition(ctx, f.a, app.CopyInput{EditionID: "SINAPI-SP-2026-08", Code: "A", NewCode: "K", Deep: true})
	if err != nil {
		t.Fatal(err)
	}
	type line struct{ Bank, Code, Qty string }
	lines := map[string][]line{}
	var codes []string
	for _, c := range got.Created {
		codes = append(codes, c.Code)
		for _, it := range c.Items {
			lines[c.Code] = append(lines[c.Code], line{it.Bank, it.Code, it.Quantity.String()})
		}
	}
	if d := cmp.Diff([]string{"K", "K.S", "K.U"}, codes); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}
	want := map[string][]line{
		"K":   {{"MYBASE", "K.S", "0.0123"}, {"MYBASE", "K.U", "1"}, {"SINAPI", "R2", "15.37"}},
		"K.S": {{"SINAPI", "R1", "0.5555"}, {"SINAPI", "L", "1.1152"}},
		"K.U": {{"MYBASE", "K.S", "0.0175"}, {"SINAPI", "L", "0.6505"}},
	}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	// By hand, não desonerado, Σ trunc₂(coefficient × price) at each level:
	// S = trunc(0.5555×10.07)=5.59 + trunc(1.1152×33.62)=37.49 → 43.08
	// U = trunc(0.0175×43.08)=0.75 + trunc(0.6505×33.62)=21.86 → 22.61
	// A = trunc(0.0123×43.08)=0.52 + 22.61 + trunc(15.37×2.62)=40.26 → 63.39
	if p := got.Root.Prices.PND.String(); p != "63.39" {
		t.Errorf("deep copy price %s, want 63.39", p)
	}

	// A cycle is refused; nothing of it is created.
	_, err = f.svc.CopyBankComposition(ctx, f.a, app.CopyInput{EditionID: "SINAPI-SP-2026-08", Code: "X", NewCode: "CX", Deep: true})
	wantCode(t, err, domain.ECONFLICT)
	// A taken code (of a sub-copy too) refuses the whole copy.
	_, err = f.svc.CopyBankComposition(ctx, f.a, app.CopyInput{EditionID: "SINAPI-SP-2026-08", Code: "U", NewCode: "K", Deep: true})
	wantField(t, err, "/code")
	for _, code := range []string{"CX", "CX.Y"} {
		if _, err := f.svc.CompositionByCode(ctx, f.a, code, "SP"); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("%s exists after a refused copy: %v", code, err)
		}
	}
}
