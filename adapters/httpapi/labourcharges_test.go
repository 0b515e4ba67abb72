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

// TestOwnLabourChargesReprice: a composition with the company's own labour
// charges (v2 labour_charges) prices its bank labour at the price without
// charges × (1 + charges / 100), in both regimes, shows the base and the
// percentage on the line, and leaves materials alone; the expected figures
// are computed here from the imported price without charges; null goes
// back to the bank's prices.
func TestOwnLabourChargesReprice(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	const base, charges = "18.37", "68.5" // pedreiro sem encargos; a Simples Nacional company's own charges
	_, err := h.App.ImportEditions(context.Background(), []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{
			{Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: domain.Dec("37.28"), PD: domain.Dec("31.90"), PNDI: domain.Dec("37.28"), PDI: domain.Dec("31.90")},
				Base:   decimal.NewNullDecimal(domain.Dec(base))},
			{Code: "88316", Description: "SERVENTE COM ENCARGOS COMPLEMENTARES", Unit: "H", Type: domain.TypeLabor,
				Prices: domain.PriceLine{PND: domain.Dec("24.88"), PD: domain.Dec("21.30"), PNDI: domain.Dec("24.88"), PDI: domain.Dec("21.30")}},
			{Code: "34586", Description: "TIJOLO", Unit: "UN", Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: domain.Dec("2.5"), PD: domain.Dec("2.5"), PNDI: domain.Dec("2.5"), PDI: domain.Dec("2.5")}},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	doc := pzObj(t, pzCall(t, h, tok, "POST", pzV2+"/compositions",
		`{"code":"ALV-1","description":"Alvenaria","unit":"M2","location":"SP","labour_charges":`+charges+`}`, 201))
	id := pzObj(t, doc["data"])["id"].(string)
	pzCall(t, h, tok, "POST", pzV2+"/compositions/"+id+"/add_banks", `{"banks":[{"name":"SINAPI","location":"SP","version":"08/2026"}]}`, 200)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+id+"/add-items", `{"items":[{"bank":"SINAPI","code":"88309","qty":0.5},{"bank":"SINAPI","code":"34586","qty":10}]}`, 200)

	// The expected figures, by hand: 18.37 × 1.685 = 30.953450 → 30.95
	// (cut to 2 places); the line 0.5 × 30.95 = 15.475 → 15.47 (the
	// composition truncates to 2 places); the bricks 10 × 2.50 = 25.
	d := decimal.RequireFromString
	unit := d(base).Mul(d("1").Add(d(charges).Div(d("100")))).Truncate(2)
	line := d("0.5").Mul(unit).Truncate(2)
	total := line.Add(d("25"))
	if !unit.Equal(d("30.95")) || !total.Equal(d("40.47")) {
		t.Fatalf("the hand computation is wrong: %s, %s", unit, total)
	}
	attrs := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/compositions/"+id, "", 200))["data"])["attributes"])
	if !pzEqual(attrs["labour_charges"], charges) {
		t.Errorf("labour_charges = %v, want %s", attrs["labour_charges"], charges)
	}
	prices := pzObj(t, attrs["prices"])
	if !pzEqual(prices["pnd"], total.String()) || !pzEqual(prices["pd"], total.String()) {
		t.Errorf("prices = %v, want pnd and pd %s (own charges, the same in both regimes)", prices, total)
	}
	items := pzObj(t, attrs["items"])
	lab := pzObj(t, items["SINAPI:R:88309"])
	for k, want := range map[string]decimal.Decimal{"unitary_pnd": unit, "unitary_pd": unit, "pnd": line, "pd": line, "labour_base": d(base), "labour_charges": d(charges)} {
		if !pzEqual(lab[k], want.String()) {
			t.Errorf("labour line %s = %v, want %s", k, lab[k], want)
		}
	}
	brick := pzObj(t, items["SINAPI:R:34586"])
	if _, ok := brick["labour_base"]; ok || !pzEqual(brick["unitary_pnd"], "2.5") {
		t.Errorf("a material is priced as the bank publishes it: %v", brick)
	}

	// A budget of the composition: its analytic report shows the labour
	// line's base and the charges applied, and its unit price.
	bud := pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", `{"code":"ORC-1","description":"Obra","location":"SP",
		"items":[{"kind":"composition","bank":"MYBASE","code":"ALV-1","quantity":2}]}`, 201))["data"])["id"].(string)
	rows := pzObj(t, pzCall(t, h, tok, "GET", "/api/public/v2/budgets/"+bud+"/reports/analytic", "", 200))["data"].([]any)
	its := pzObj(t, pzObj(t, rows[0])["attributes"])["items"].([]any)
	var seen bool
	for _, x := range its {
		it := pzObj(t, x)
		if it["code"] != "88309" {
			if _, ok := it["labour_base"]; ok {
				t.Errorf("analytic: %v carries labour_base", it["code"])
			}
			continue
		}
		seen = true
		if !pzEqual(it["labour_base"], base) || !pzEqual(it["labour_charges"], charges) || !pzEqual(it["unit_price"], unit.String()) || !pzEqual(it["partial"], line.String()) {
			t.Errorf("analytic labour item = %v, want base %s, charges %s, unit price %s, partial %s", it, base, charges, unit, line)
		}
	}
	if !seen {
		t.Errorf("the analytic report does not list 88309: %v", its)
	}
	pzCall(t, h, tok, "DELETE", "/api/public/v2/budgets/"+bud, "", 204)

	// A labour resource without a price without charges cannot be priced
	// with own charges: missing, null, never the bank's charged price.
	r := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions/"+id+"/add-items", `{"items":[{"bank":"SINAPI","code":"88316","qty":1}]}`, 200))
	pzCheckIncomplete(t, "labour without base", r, "88316")
	for _, m := range r["missing"].([]any) {
		if e := pzObj(t, m); e["code"] == "88316" && !strings.Contains(e["reason"].(string), "no price without charges") {
			t.Errorf("reason = %v", e["reason"])
		}
	}
	pzCall(t, h, tok, "DELETE", pzV2+"/compositions/"+id+"/remove_items", `{"items":[{"bank":"SINAPI","code":"88316","resource":true}]}`, 200)

	// Bad values: all reported at once, nothing changes.
	bad := h.Do("PATCH", pzV2+"/compositions/"+id, tok, `{"labour_charges":-1}`)
	if bad.Status != 422 || !strings.Contains(string(bad.Body), "/labour_charges") {
		t.Errorf("negative charges: %d\n%s", bad.Status, bad.Body)
	}

	// null: the bank's prices again (37.28 and 31.90 with the bank's charges).
	attrs = pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "PATCH", pzV2+"/compositions/"+id, `{"labour_charges":null}`, 200))["data"])["attributes"])
	if _, ok := attrs["labour_charges"]; ok {
		t.Errorf("labour_charges after null: %v", attrs["labour_charges"])
	}
	prices = pzObj(t, attrs["prices"])
	// 0.5 × 37.28 = 18.64 and 0.5 × 31.90 = 15.95, plus 25.
	if !pzEqual(prices["pnd"], "43.64") || !pzEqual(prices["pd"], "40.95") {
		t.Errorf("prices with the bank's charges = %v, want 43.64 and 40.95", prices)
	}
}
