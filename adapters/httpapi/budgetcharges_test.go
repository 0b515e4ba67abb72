package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestBudgetLabourCharges: a budget with the company's own labour charges
// (v2 labour_charges) prices a bank labour line at the price without
// charges × (1 + %), and a bank composition line at its cost recomputed
// from its published structure with its labour so priced; the figures are
// computed here from the imported base prices; the synthetic total (the
// budget's) and the analytic report's agree; the charges are kept by a
// duplicate; bad values are 422; null gives the bank's prices back.
func TestBudgetLabourCharges(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.example").Token
	const base, charges = "18.37", "68.5"
	_, err := h.App.ImportEditions(context.Background(), []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{
			{Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: domain.Dec("37.28"), PD: domain.Dec("31.90"), PNDI: domain.Dec("37.28"), PDI: domain.Dec("31.90")},
				Base:   decimal.NewNullDecimal(domain.Dec(base))},
			{Code: "34586", Description: "TIJOLO", Unit: "UN", Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: domain.Dec("2.5"), PD: domain.Dec("2.5"), PNDI: domain.Dec("2.5"), PDI: domain.Dec("2.5")}},
		},
		Compositions: []*domain.BankComposition{
			{Code: "87503", Description: "ALVENARIA", Unit: "M2", Cost: domain.UnitPrice{PND: domain.Dec("43.64"), PD: domain.Dec("40.95")},
				Items: []domain.StructureItem{
					{Kind: domain.KindResource, Code: "88309", Coefficient: domain.Dec("0.5")},
					{Kind: domain.KindResource, Code: "34586", Coefficient: domain.Dec("10")},
				}},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// By hand: labour trunc₂(18.37 × 1.685) = 30.95; the labour line 3 h →
	// 92.85; the composition trunc₂(0.5 × 30.95) + 10 × 2.50 = 15.47 + 25 =
	// 40.47, 2 m² → 80.94; total 173.79.
	d := decimal.RequireFromString
	unit := d(base).Mul(d("1").Add(d(charges).Div(d("100")))).Truncate(2)
	comp := d("0.5").Mul(unit).Truncate(2).Add(d("10").Mul(d("2.5")).Truncate(2))
	total := d("3").Mul(unit).Truncate(2).Add(d("2").Mul(comp).Truncate(2))
	if !unit.Equal(d("30.95")) || !comp.Equal(d("40.47")) || !total.Equal(d("173.79")) {
		t.Fatalf("the hand computation is wrong: %s %s %s", unit, comp, total)
	}
	doc := pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", `{"code":"ORC-1","description":"Obra","location":"SP",
		"labour_charges":`+charges+`,"banks":[{"name":"SINAPI","location":"SP","version":"08/2026"}],
		"items":[{"kind":"resource","bank":"SINAPI","code":"88309","quantity":3},{"kind":"composition","bank":"SINAPI","code":"87503","quantity":2}]}`, 201))
	data := pzObj(t, doc["data"])
	id, attrs := data["id"].(string), pzObj(t, data["attributes"])
	if !pzEqual(attrs["labour_charges"], charges) || !pzEqual(attrs["total"], total.String()) {
		t.Errorf("budget: labour_charges %v total %v, want %s and %s", attrs["labour_charges"], attrs["total"], charges, total)
	}
	an := pzObj(t, pzCall(t, h, tok, "GET", "/api/public/v2/budgets/"+id+"/reports/analytic", "", 200))
	if m := pzObj(t, an["meta"]); !pzEqual(m["total"], total.String()) {
		t.Errorf("analytic total %v, want the synthetic %s", m["total"], total)
	}
	var seen bool
	for _, row := range an["data"].([]any) {
		a := pzObj(t, pzObj(t, row)["attributes"])
		if a["code"] != "87503" {
			continue
		}
		if !pzEqual(a["unit_price"], comp.String()) {
			t.Errorf("composition line unit price %v, want %s", a["unit_price"], comp)
		}
		for _, x := range a["items"].([]any) {
			if it := pzObj(t, x); it["code"] == "88309" {
				seen = true
				if !pzEqual(it["unit_price"], unit.String()) || !pzEqual(it["labour_base"], base) || !pzEqual(it["labour_charges"], charges) {
					t.Errorf("analytic labour item %v, want %s (%s, %s %%)", it, unit, base, charges)
				}
			}
		}
	}
	if !seen {
		t.Errorf("the analytic report does not open 87503's labour: %v", an["data"])
	}
	// A duplicate keeps the charges.
	dup := pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets/"+id+"/duplicate", `{"code":"ORC-2"}`, 201))["data"])
	if da := pzObj(t, dup["attributes"]); !pzEqual(da["labour_charges"], charges) || !pzEqual(da["total"], total.String()) {
		t.Errorf("duplicate: %v %v", da["labour_charges"], da["total"])
	}
	// Bad values: 422 on /labour_charges, nothing written.
	for _, v := range []string{"-1", "1000.5", "10.12345"} {
		bad := h.Do("PATCH", "/api/public/v2/budgets/"+id, tok, `{"labour_charges":`+v+`}`)
		if bad.Status != 422 || !strings.Contains(string(bad.Body), "/labour_charges") {
			t.Errorf("labour_charges %s: %d\n%s", v, bad.Status, bad.Body)
		}
	}
	// null: the bank's prices (3 × 37.28 + 2 × 43.64 = 199.12).
	attrs = pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "PATCH", "/api/public/v2/budgets/"+id, `{"labour_charges":null}`, 200))["data"])["attributes"])
	if _, ok := attrs["labour_charges"]; ok || !pzEqual(attrs["total"], "199.12") {
		t.Errorf("after null: labour_charges %v total %v, want absent and 199.12", attrs["labour_charges"], attrs["total"])
	}
}
