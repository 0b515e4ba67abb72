package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestOneRegimeEditionAttaches: an edition imported in one regime (here
// SINAPI SP 08/2026, não desonerado only) attaches to an own composition
// in both generations; the desonerado prices of its items are null and
// listed under missing (never 0), in the composition's answers and in the
// reports of a budget that uses the composition.
func TestOneRegimeEditionAttaches(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	_, err := h.App.ImportEditions(context.Background(), []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado}},
		Resources: []*domain.BankResource{{Code: "34586", Description: "TIJOLO", Unit: "UN", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: domain.Dec("2.5"), PNDI: domain.Dec("2.5")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	v1 := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"Alvenaria","unit":"M2","local":"SP"}`, 201))["id"].(string)
	v2 := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-2","description":"Alvenaria","unit":"M2","local":"SP"}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+v1+"/add-bases", `{"bases":[{"name":"SINAPI","local":"SP","version":"08/2026"}]}`, 200)
	pzCall(t, h, tok, "POST", pzV2+"/compositions/"+v2+"/add_banks", `{"banks":[{"name":"SINAPI","location":"SP","version":"08/2026"}]}`, 200)
	for _, id := range []string{v1, v2} {
		pzCall(t, h, tok, "POST", pzV1+"/compositions/"+id+"/add-items", `{"items":[{"bank":"SINAPI","code":"34586","qty":10}]}`, 200)
	}

	// v1: the item's pd is null and flagged, the composition's pd is null,
	// its pnd is 10 × 2.50.
	got := pzObj(t, pzCall(t, h, tok, "GET", pzV1+"/compositions/"+v1, "", 200))
	pzCheckIncomplete(t, "v1 composition", got, "34586")
	if n := pzNoUnexplainedZero(t, "v1 composition", got, ""); n == 0 {
		t.Errorf("v1 composition: no price seen: %v", got)
	}
	checkOneRegime(t, "v1", pzObj(t, got["prices"]), pzObj(t, got["items"].([]any)[0]))
	if m := pzObj(t, got["missing"].([]any)[0]); !strings.Contains(m["reason"].(string), "has no desonerado price in SINAPI SP 08/2026") {
		t.Errorf("v1 missing reason = %v", m)
	}

	// v2: the same in JSON:API.
	doc := pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/compositions/"+v2, "", 200))
	attrs := pzObj(t, pzObj(t, doc["data"])["attributes"])
	pzCheckIncomplete(t, "v2 composition", attrs, "34586")
	if n := pzNoUnexplainedZero(t, "v2 composition", doc, ""); n == 0 {
		t.Errorf("v2 composition: no price seen: %v", doc)
	}
	checkOneRegime(t, "v2", pzObj(t, attrs["prices"]), pzObj(t, pzObj(t, attrs["items"])["SINAPI:R:34586"]))

	// A budget in the missing regime that uses the composition: its
	// reports list the item; in the regime the edition has, it is complete.
	budget := func(code string, desonerado bool) string {
		b, _ := json.Marshal(map[string]any{"code": code, "description": "Obra", "location": "SP", "desonerado": desonerado,
			"items": []any{map[string]any{"kind": "composition", "bank": "MYBASE", "code": "CMP-1", "quantity": 2}}})
		return string(b)
	}
	bd := pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", budget("ORC-D", true), 201))["data"])["id"].(string)
	bn := pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", budget("ORC-N", false), 201))["data"])["id"].(string)
	for _, rep := range []string{"synthetic", "analytic", "abc"} {
		path := "/api/public/v2/budgets/" + bd + "/reports/" + rep
		v := pzCall(t, h, tok, "GET", path, "", 200)
		pzNoUnexplainedZero(t, path, v, "")
		pzCheckIncomplete(t, path, pzObj(t, pzObj(t, v)["meta"]), "34586")
		csv := h.Do("GET", path+"?format=csv", tok, "")
		if csv.Status != 200 || !strings.Contains(string(csv.Body), "Totais incompletos") || !strings.Contains(string(csv.Body), "has no desonerado price") {
			t.Errorf("GET %s?format=csv: %d, want the footer naming the desonerado price:\n%s", path, csv.Status, csv.Body)
		}
		path = "/api/public/v2/budgets/" + bn + "/reports/" + rep
		m := pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", path, "", 200))["meta"])
		if m["incomplete"] == true {
			t.Errorf("%s: the não desonerado budget is incomplete: %v", path, m)
		}
	}
	nd := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", "/api/public/v2/budgets/"+bn, "", 200))["data"])["attributes"])
	if !pzEqual(nd["total"], "50") {
		t.Errorf("não desonerado budget total = %v, want 2 × 25.00", nd["total"])
	}
}

// checkOneRegime checks a composition of one line, 10 × 34586 at 2.50 não
// desonerado and without a desonerado price: pnd 25, pd null, the line's
// desonerado figures null and the line flagged missing.
func checkOneRegime(t *testing.T, what string, prices, item map[string]any) {
	t.Helper()
	if !pzEqual(prices["pnd"], "25") || prices["pd"] != nil {
		t.Errorf("%s prices = %v, want pnd 25 and pd null", what, prices)
	}
	if !pzEqual(item["unitary_pnd"], "2.5") || !pzEqual(item["pnd"], "25") || item["unitary_pd"] != nil || item["pd"] != nil || item["missing"] != true {
		t.Errorf("%s item = %v, want unitary_pnd 2.50, pnd 25, unitary_pd and pd null, missing", what, item)
	}
}

// pzEqual reports whether a JSON number equals the decimal want.
func pzEqual(v any, want string) bool {
	s, ok := pzNumText(v)
	return ok && decimal.RequireFromString(s).Equal(decimal.RequireFromString(want))
}
