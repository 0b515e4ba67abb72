package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// No silent zero price (docs/decisions.md): the tests of this file go
// through HTTP, in both generations.

const (
	pzV1 = "/api/v1/base/mybase"
	pzV2 = "/api/public/v2/my_database"
)

// pzCall sends a request, checks the status and returns the body decoded
// with exact numbers.
func pzCall(t *testing.T, h *apitest.Harness, token, method, path, body string, want int) any {
	t.Helper()
	r := h.Do(method, path, token, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d\n%s", method, path, r.Status, want, r.Body)
	}
	return pzDecode(t, r.Body)
}

func pzDecode(t *testing.T, body []byte) any {
	t.Helper()
	if len(body) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	return v
}

func pzObj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %v", v)
	}
	return m
}

// pzPriceKeys are the members that hold a price or a line's amount.
var pzPriceKeys = map[string]bool{
	"unitary_pnd": true, "unitary_pd": true, "pnd": true, "pd": true,
	"price": true, "price_plus_bdi": true, "unit_price": true, "unit_price_with_bdi": true,
	"partial": true, "total_price": true,
}

// pzNoUnexplainedZero walks a JSON answer: every price member that is 0
// must sit in an object flagged `missing` true. It returns how many price
// members it checked, so that a caller can tell the walk saw prices.
func pzNoUnexplainedZero(t *testing.T, what string, v any, path string) int {
	t.Helper()
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if pzPriceKeys[k] {
				if s, ok := pzNumText(val); ok {
					n++
					if d, err := decimal.NewFromString(s); err == nil && d.IsZero() && x["missing"] != true {
						t.Errorf("%s: %s/%s is 0 and nothing says it is missing: %v", what, path, k, x)
					}
				}
			}
			n += pzNoUnexplainedZero(t, what, val, path+"/"+k)
		}
	case []any:
		for i, val := range x {
			n += pzNoUnexplainedZero(t, what, val, fmt.Sprintf("%s/%d", path, i))
		}
	}
	return n
}

func pzNumText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return x.String(), true
	case string:
		if _, err := decimal.NewFromString(x); err == nil {
			return x, true
		}
	}
	return "", false
}

// pzMissingCodes returns the codes a `missing` list names, and checks every
// entry gives a reason.
func pzMissingCodes(t *testing.T, what string, list any) []string {
	t.Helper()
	entries, ok := list.([]any)
	if !ok || len(entries) == 0 {
		t.Errorf("%s: missing is %v, want a non-empty list", what, list)
		return nil
	}
	var codes []string
	for _, e := range entries {
		m := pzObj(t, e)
		if r, _ := m["reason"].(string); r == "" {
			t.Errorf("%s: a missing entry has no reason: %v", what, m)
		}
		codes = append(codes, m["code"].(string))
	}
	return codes
}

// pzCheckIncomplete checks an object flagged incomplete whose missing list
// names code.
func pzCheckIncomplete(t *testing.T, what string, m map[string]any, code string) {
	t.Helper()
	if m["incomplete"] != true {
		t.Errorf("%s: incomplete is %v, want true", what, m["incomplete"])
	}
	codes := pzMissingCodes(t, what, m["missing"])
	found := false
	for _, c := range codes {
		found = found || c == code
	}
	if !found {
		t.Errorf("%s: missing names %v, want %s among them", what, codes, code)
	}
}

// TestNoSilentZeroPrice provokes an item without a price (an own resource
// priced in MG only, in a composition moved to SP) and walks every priced
// read of both generations: the composition (GET, list, find_by_code, the
// add-items answer), the bank items it uses, the budget that uses the
// composition (GET, lists) and its three reports, as JSON and CSV. No price
// may be 0 without a flag saying it is missing, and each answer must flag
// itself incomplete and name the item.
func TestNoSilentZeroPrice(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	res := func(body string) string {
		return pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/resources", body, 201))["id"].(string)
	}
	res(`{"code":"000123","description":"AREIA","type":4,"unit":"M3","local":"MG","pnd":10,"pd":9,"pndi":10,"pdi":9}`)
	r2 := res(`{"code":"000124","description":"CIMENTO","type":4,"unit":"KG","local":"MG","pnd":1.5,"pd":1.4,"pndi":1.5,"pdi":1.4}`)
	pzCall(t, h, tok, "PUT", pzV1+"/resources/"+r2, `{"locals":{"MG":{"pnd":1.5,"pd":1.4,"pndi":1.5,"pdi":1.4},"SP":{"pnd":1.6,"pd":1.5,"pndi":1.6,"pdi":1.5}}}`, 200)

	c := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"Argamassa","unit":"M3","local":"MG"}`, 201))
	cid := c["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-bases", `{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026"}]}`, 200)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items",
		`{"items":[{"bank":"SINAPI","code":"88316","qty":1},{"bank":"MYBASE","code":"000123","qty":2},{"bank":"MYBASE","code":"000124","qty":3}]}`, 200)
	// The API refuses to move the composition to SP, where 000123 has no
	// price (TestCompositionMoveKeepsOwnPrices); a database written before
	// that rule may hold such a composition. Write it as such data would be.
	if err := h.Store.Update(context.Background(), func(tx app.Tx) error {
		c, err := tx.Composition(cid)
		if err != nil {
			return err
		}
		c.State = "SP"
		return tx.PutComposition(c)
	}); err != nil {
		t.Fatal(err)
	}
	moved := pzObj(t, pzCall(t, h, tok, "PUT", pzV1+"/compositions/"+cid, `{"description":"Argamassa"}`, 200))
	pzCheckIncomplete(t, "v1 PUT answer", moved, "000123")

	// The missing item itself: null prices, flagged; the price leaves it out.
	var item map[string]any
	for _, it := range moved["items"].([]any) {
		if m := pzObj(t, it); m["code"] == "000123" {
			item = m
		}
	}
	for _, k := range []string{"unitary_pnd", "unitary_pd", "pnd", "pd"} {
		if v, ok := item[k]; !ok || v != nil {
			t.Errorf("missing item %s = %v, want null", k, v)
		}
	}
	if item["missing"] != true {
		t.Errorf("missing item not flagged: %v", item)
	}
	// 88316 (24.88 não desonerado) + 3 × 1.60, each line truncated.
	if p := pzObj(t, moved["prices"])["pnd"]; p != json.Number("29.68") {
		t.Errorf("incomplete composition pnd = %v, want 29.68 (the priced items only)", p)
	}

	budget := pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", `{"code":"ORC-1","description":"Obra","location":"SP",
		"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
		"items":[{"kind":"stage","description":"Etapa","items":[
			{"kind":"composition","bank":"MYBASE","code":"CMP-1","quantity":2},
			{"kind":"composition","bank":"SINAPI","code":"89306","quantity":1},
			{"kind":"resource","bank":"MYBASE","code":"000124","quantity":5}]}]}`, 201))
	bid := pzObj(t, budget["data"])["id"].(string)

	type read struct {
		what, method, path, body string
		status                   int
		flagged                  func(any) map[string]any // the object that says incomplete; nil: none to check
	}
	self := func(v any) map[string]any { return pzObj(t, v) }
	v2attrs := func(v any) map[string]any { return pzObj(t, pzObj(t, pzObj(t, v)["data"])["attributes"]) }
	v1first := func(key string) func(any) map[string]any {
		return func(v any) map[string]any { return pzObj(t, pzObj(t, v)[key].([]any)[0]) }
	}
	v2firstAttrs := func(v any) map[string]any {
		return pzObj(t, pzObj(t, pzObj(t, v)["data"].([]any)[0])["attributes"])
	}
	lastRow := func(v any) map[string]any { rows := v.([]any); return pzObj(t, rows[len(rows)-1]) }
	meta := func(v any) map[string]any { return pzObj(t, pzObj(t, v)["meta"]) }
	reads := []read{
		{"v1 GET composition", "GET", pzV1 + "/compositions/" + cid, "", 200, self},
		{"v1 composition list", "GET", pzV1 + "/compositions", "", 200, v1first("records")},
		{"v1 find_by_code", "GET", pzV1 + "/compositions/find_by_code?code=CMP-1&state=SP", "", 200, self},
		{"v1 add-items answer", "POST", pzV1 + "/compositions/" + cid + "/add-items", `{"items":[{"bank":"SINAPI","code":"34586","qty":1}]}`, 200, self},
		{"v2 GET composition", "GET", pzV2 + "/compositions/" + cid, "", 200, v2attrs},
		{"v2 composition list", "GET", pzV2 + "/compositions", "", 200, v2firstAttrs},
		{"v2 add_items answer", "POST", pzV2 + "/compositions/" + cid + "/add_items", `{"items":[{"bank":"SINAPI","code":"34586","quantity":2,"resource":true}]}`, 200, v2attrs},
		{"v1 bank item", "GET", "/api/v1/banks/find_by_code?bank=SINAPI&state=MG&version=08/2026&code=89306", "", 200, nil},
		{"v2 bank item", "GET", "/api/public/v2/banks/SINAPI-MG-2026-08/items/89306", "", 200, nil},
		{"v1 budget list", "GET", "/api/v1/bud/budgets/list", "", 200, v1first("budgets")},
		{"v1 synthetic", "GET", "/api/v1/bud/budgets/" + bid + "/synthetic", "", 200, lastRow},
		{"v1 analytic", "GET", "/api/v1/bud/budgets/" + bid + "/analytical_with_unit_price", "", 200, lastRow},
		{"v2 GET budget", "GET", "/api/public/v2/budgets/" + bid, "", 200, v2attrs},
		{"v2 budget list", "GET", "/api/public/v2/budgets", "", 200, v2firstAttrs},
		{"v2 synthetic", "GET", "/api/public/v2/budgets/" + bid + "/reports/synthetic", "", 200, meta},
		{"v2 analytic", "GET", "/api/public/v2/budgets/" + bid + "/reports/analytic", "", 200, meta},
		{"v2 abc", "GET", "/api/public/v2/budgets/" + bid + "/reports/abc", "", 200, meta},
	}
	for _, rd := range reads {
		v := pzCall(t, h, tok, rd.method, rd.path, rd.body, rd.status)
		n := pzNoUnexplainedZero(t, rd.what, v, "")
		if rd.flagged != nil {
			f := rd.flagged(v)
			pzCheckIncomplete(t, rd.what, f, "000123")
			// A budget read carries totals only: they must not be 0 either.
			if s, ok := pzNumText(f["total"]); ok {
				n++
				if decimal.RequireFromString(s).IsZero() {
					t.Errorf("%s: total is 0", rd.what)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: the walk met no price at all", rd.what)
		}
	}

	// CSV exports: the missing line's price cells are empty, never 0, and
	// the footer says the totals are incomplete and why.
	for _, p := range []string{
		"/api/v1/bud/budgets/" + bid + "/synthetic?format=csv",
		"/api/v1/bud/budgets/" + bid + "/analytical_with_unit_price?format=csv",
		"/api/public/v2/budgets/" + bid + "/reports/synthetic?format=csv",
		"/api/public/v2/budgets/" + bid + "/reports/analytic?format=csv",
		"/api/public/v2/budgets/" + bid + "/reports/abc?format=csv",
	} {
		r := h.Do("GET", p, tok, "")
		if r.Status != 200 {
			t.Fatalf("GET %s: %d\n%s", p, r.Status, r.Body)
		}
		body := string(r.Body)
		if !strings.Contains(body, "Totais incompletos") || !strings.Contains(body, "000123") || !strings.Contains(body, "has no price for SP") {
			t.Errorf("GET %s: the CSV does not say what is missing:\n%s", p, body)
		}
		for _, line := range strings.Split(body, "\n") {
			if strings.Contains(line, "(sem preço)") && strings.Contains(line, ";0,00;") && !strings.Contains(line, "Etapa") {
				// a missing row may total 0,00 but its price cells are empty
				if strings.Count(line, ";;") == 0 {
					t.Errorf("GET %s: missing row with price cells filled: %q", p, line)
				}
			}
		}
	}

	// A complete composition carries neither member (the seed's shape).
	full := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-2","description":"Completa","unit":"M3","local":"MG"}`, 201))
	for _, k := range []string{"incomplete", "missing"} {
		if _, ok := full[k]; ok {
			t.Errorf("a complete composition has %q: %v", k, full)
		}
	}
}

// TestEditionMustHaveRegimeAndState: an edition that lacks a regime asked
// for (v1 with_labor_charges, a budget's regime), or the state asked for,
// is 422 naming it, and nothing changes.
func TestEditionMustHaveRegimeAndState(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	// SINAPI SP 08/2026 with its não desonerado prices only.
	_, err := h.App.ImportEditions(context.Background(), []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado}},
		Resources: []*domain.BankResource{{Code: "34586", Description: "TIJOLO", Unit: "UN", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: domain.Dec("2.5"), PNDI: domain.Dec("2.5")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	c := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"X","unit":"M3","local":"SP"}`, 201))
	cid := c["id"].(string)

	for _, tc := range []struct {
		name, path, body, want string
	}{
		// A regime the client names (with_labor_charges) must be there;
		// an edition of one regime attaches otherwise (TestOneRegimeEditionAttaches).
		{"v1 regime", pzV1 + "/compositions/" + cid + "/add-bases", `{"bases":[{"name":"SINAPI","local":"SP","version":"08/2026","with_labor_charges":false}]}`,
			"edition SINAPI SP 08/2026 has no desonerado prices"},
		{"v1 state", pzV1 + "/compositions/" + cid + "/add-bases", `{"bases":[{"name":"SINAPI","local":"RJ","version":"08/2026"}]}`,
			"lacks the state RJ (imported for MG, SP)"},
		{"v2 state", pzV2 + "/compositions/" + cid + "/add_banks", `{"banks":[{"name":"SINAPI","location":"RJ","version":"08/2026"}]}`,
			"lacks the state RJ (imported for MG, SP)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.Do("POST", tc.path, tok, tc.body)
			if r.Status != 422 || !strings.Contains(string(r.Body), tc.want) {
				t.Errorf("status %d, want 422 saying %q:\n%s", r.Status, tc.want, r.Body)
			}
			got := pzObj(t, pzCall(t, h, tok, "GET", pzV1+"/compositions/"+cid, "", 200))
			if diff := cmp.Diff(map[string]any{}, got["banks"]); diff != "" {
				t.Errorf("banks changed (-want +got):\n%s", diff)
			}
		})
	}

	// A budget is priced in one regime: its editions must have that one.
	budget := func(desonerado bool) string {
		return fmt.Sprintf(`{"code":"ORC-%t","description":"Obra","location":"SP","desonerado":%t,
			"banks":[{"name":"SINAPI","location":"SP","version":"08/2026"}],
			"items":[{"kind":"resource","bank":"SINAPI","code":"34586","quantity":10}]}`, desonerado, desonerado)
	}
	r := h.Do("POST", "/api/public/v2/budgets", tok, budget(true))
	if r.Status != 422 || !strings.Contains(string(r.Body), "lacks the desonerado prices") || !strings.Contains(string(r.Body), `"/banks/0"`) {
		t.Errorf("desonerado budget over a não-desonerado edition: %d\n%s", r.Status, r.Body)
	}
	doc := pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", budget(false), 201))
	bid := pzObj(t, doc["data"])["id"].(string)
	r = h.Do("PATCH", "/api/public/v2/budgets/"+bid, tok, `{"desonerado":true}`)
	if r.Status != 422 || !strings.Contains(string(r.Body), "lacks the desonerado prices") {
		t.Errorf("switching the regime: %d\n%s", r.Status, r.Body)
	}
	got := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", "/api/public/v2/budgets/"+bid, "", 200))["data"])["attributes"])
	if got["desonerado"] != false || got["total"] != json.Number("25.00") {
		t.Errorf("the refused PATCH changed the budget: %v", got)
	}
	// A budget with a state no edition has is 422 too.
	r = h.Do("POST", "/api/public/v2/budgets", tok, strings.Replace(budget(false), `"location":"SP","version"`, `"location":"RJ","version"`, 1))
	if r.Status != 422 || !strings.Contains(string(r.Body), "lacks the state RJ") {
		t.Errorf("edition of a state never imported: %d\n%s", r.Status, r.Body)
	}
}

// TestResourceKeepsStatesInUse: a resource update that drops a state's
// prices while a composition or budget of that state uses it is 409 naming
// them (up to 20), in both generations, and changes nothing.
func TestResourceKeepsStatesInUse(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	rid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/resources",
		`{"code":"000123","description":"AREIA","type":4,"unit":"M3","local":"MG","pnd":10,"pd":9,"pndi":10,"pdi":9}`, 201))["id"].(string)
	both := `{"MG":{"pnd":10,"pd":9,"pndi":10,"pdi":9},"SP":{"pnd":11,"pd":10,"pndi":11,"pdi":10}}`
	pzCall(t, h, tok, "PUT", pzV1+"/resources/"+rid, `{"locals":`+both+`}`, 200)
	cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"X","unit":"M3","local":"MG"}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items", `{"items":[{"bank":"MYBASE","code":"000123","qty":1}]}`, 200)
	pzCall(t, h, tok, "POST", "/api/public/v2/budgets", `{"code":"ORC-SP","description":"Obra","location":"SP",
		"items":[{"kind":"resource","bank":"MYBASE","code":"000123","quantity":3}]}`, 201)

	for _, tc := range []struct {
		name, method, path, body, want string
	}{
		{"v1 drops MG", "PUT", pzV1 + "/resources/" + rid, `{"locals":{"SP":{"pnd":11,"pd":10,"pndi":11,"pdi":10}}}`, "composition CMP-1 (MG)"},
		{"v2 drops SP", "PATCH", pzV2 + "/resources/" + rid, `{"locals":{"MG":{"pnd":10,"pd":9,"pndi":10,"pdi":9}}}`, "budget ORC-SP (SP)"},
		{"v2 drops both", "PATCH", pzV2 + "/resources/" + rid, `{"locals":{"RJ":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`, "cannot lose its prices in MG, SP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.Do(tc.method, tc.path, tok, tc.body)
			if r.Status != 409 || !strings.Contains(string(r.Body), tc.want) {
				t.Errorf("status %d, want 409 naming %q:\n%s", r.Status, tc.want, r.Body)
			}
			got := pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/resources/"+rid, "", 200))
			locals := pzObj(t, pzObj(t, pzObj(t, got["data"])["attributes"])["locals"])
			if len(locals) != 2 || locals["MG"] == nil || locals["SP"] == nil {
				t.Errorf("the refused update changed the prices: %v", locals)
			}
		})
	}
	// A state nobody uses may go.
	pzCall(t, h, tok, "PATCH", pzV2+"/resources/"+rid, `{"locals":{"MG":{"pnd":10,"pd":9,"pndi":10,"pdi":9},"SP":{"pnd":11,"pd":10,"pndi":11,"pdi":10},"RJ":{"pnd":1,"pd":1,"pndi":1,"pdi":1}}}`, 200)
	pzCall(t, h, tok, "PUT", pzV1+"/resources/"+rid, `{"locals":`+both+`}`, 200)

	// Up to 20 users are named, then how many more.
	for i := 2; i <= 22; i++ {
		id := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", fmt.Sprintf(`{"code":"CMP-%d","description":"X","unit":"M3","local":"MG"}`, i), 201))["id"].(string)
		pzCall(t, h, tok, "POST", pzV1+"/compositions/"+id+"/add-items", `{"items":[{"bank":"MYBASE","code":"000123","qty":1}]}`, 200)
	}
	r := h.Do("PUT", pzV1+"/resources/"+rid, tok, `{"locals":{"SP":{"pnd":11,"pd":10,"pndi":11,"pdi":10}}}`)
	msg := string(r.Body)
	if r.Status != 409 || strings.Count(msg, "composition CMP-") != 20 || !strings.Contains(msg, "and 2 more") || !strings.Contains(msg, "22 compositions or budgets") {
		t.Errorf("22 users: status %d, want 409 naming 20 and 2 more:\n%s", r.Status, msg)
	}
}

// TestCompositionItemCap: a composition holds at most
// Config.MaxItemsPerComposition items; passing it is 422 and changes
// nothing, in both generations.
func TestCompositionItemCap(t *testing.T) {
	h := apitest.NewWithConfig(t, app.Config{MaxItemsPerComposition: 3})
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"X","unit":"M3","local":"MG"}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-bases", `{"bases":[{"name":"SINAPI","local":"MG","version":"08/2026"}]}`, 200)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items",
		`{"items":[{"bank":"SINAPI","code":"88316","qty":1},{"bank":"SINAPI","code":"88309","qty":1},{"bank":"SINAPI","code":"34586","qty":1}]}`, 200)
	// At the cap, setting the quantity of an item already there is fine.
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items", `{"items":[{"bank":"SINAPI","code":"34586","qty":2}]}`, 200)

	r := h.Do("POST", pzV1+"/compositions/"+cid+"/add-items", tok, `{"items":[{"bank":"SINAPI","code":"34649","qty":1}]}`)
	body := pzObj(t, pzDecode(t, r.Body))
	if r.Status != 422 || !strings.Contains(fmt.Sprint(body["errors"]), "a composition holds at most 3") || pzObj(t, body["errors"])["items"] == nil {
		t.Errorf("v1 past the cap: %d %v", r.Status, body)
	}
	r = h.Do("POST", pzV2+"/compositions/"+cid+"/add_items", tok, `{"items":[{"bank":"SINAPI","code":"34649","quantity":1,"resource":true}]}`)
	if r.Status != 422 || !strings.Contains(string(r.Body), `"pointer":"/items"`) || !strings.Contains(string(r.Body), "would give the composition 4 items") {
		t.Errorf("v2 past the cap: %d\n%s", r.Status, r.Body)
	}
	got := pzObj(t, pzCall(t, h, tok, "GET", pzV1+"/compositions/"+cid, "", 200))
	if n := len(got["items"].([]any)); n != 3 {
		t.Errorf("the refused requests changed the items: %d items", n)
	}
}

// TestItemLinesAtTwoDecimals: item line totals are shown at 2 decimals for
// every calculation method, cut the method's way, while the composition's
// price stays the sum of the lines as computed (DOMAIN.md); v1 and v2 agree.
func TestItemLinesAtTwoDecimals(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	pzCall(t, h, tok, "POST", pzV1+"/resources", `{"code":"R2D","description":"X","type":4,"unit":"UN","local":"MG","pnd":10.1234,"pd":10.1234,"pndi":10.1234,"pdi":10.1234}`, 201)
	// 1.5 × 10.1234 = 15.1851.
	for _, tc := range []struct {
		method      int
		line, price string
	}{
		{1, "15.19", "15.19"},   // round half up: the line added is the one shown
		{2, "15.18", "15.18"},   // truncate
		{3, "15.18", "15.1851"}, // 4 places added, shown truncated
		{4, "15.19", "15.1851"}, // unrounded added, shown rounded
	} {
		t.Run(fmt.Sprint("method ", tc.method), func(t *testing.T) {
			cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions",
				fmt.Sprintf(`{"code":"M%d","description":"X","unit":"UN","local":"MG","rounding_type":%d}`, tc.method, tc.method), 201))["id"].(string)
			v1 := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items", `{"items":[{"bank":"MYBASE","code":"R2D","qty":1.5}]}`, 200))
			it := pzObj(t, v1["items"].([]any)[0])
			want := map[string]any{"pnd": json.Number(tc.line), "pd": json.Number(tc.line)}
			if diff := cmp.Diff(want, map[string]any{"pnd": it["pnd"], "pd": it["pd"]}); diff != "" {
				t.Errorf("v1 line (-want +got):\n%s", diff)
			}
			if p := pzObj(t, v1["prices"])["pnd"]; p != json.Number(tc.price) {
				t.Errorf("v1 price %v, want %s", p, tc.price)
			}
			v2 := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/compositions/"+cid, "", 200))["data"])["attributes"])
			it2 := pzObj(t, pzObj(t, v2["items"])["MYBASE:R:R2D"])
			if diff := cmp.Diff(want, map[string]any{"pnd": it2["pnd"], "pd": it2["pd"]}); diff != "" {
				t.Errorf("v2 line (-want +got):\n%s", diff)
			}
			if p := pzObj(t, v2["prices"])["pnd"]; p != json.Number(tc.price) {
				t.Errorf("v2 price %v, want %s", p, tc.price)
			}
		})
	}
}

// TestBankItemsCarryTheirType: an item from a bank shows the bank's class
// in the vocabulary of own items: a resource its resource type as text, a
// composition its SINAPI class, in both generations.
func TestBankItemsCarryTheirType(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	_, err := h.App.ImportEditions(context.Background(), []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "SP", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{{Code: "88597", Description: "DESENHISTA", Unit: "H", Type: domain.TypeLabor,
			Prices: domain.PriceLine{PND: domain.Dec("30"), PD: domain.Dec("28"), PNDI: domain.Dec("30"), PDI: domain.Dec("28")}}},
		Compositions: []*domain.BankComposition{{Code: "89306", Description: "ALVENARIA", Unit: "M2", Class: "PARE",
			Cost: domain.UnitPrice{PND: domain.Dec("112.2"), PD: domain.Dec("108.58")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"X","unit":"M2","local":"SP"}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-bases", `{"bases":[{"name":"SINAPI","local":"SP","version":"08/2026"}]}`, 200)
	v1 := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items",
		`{"items":[{"bank":"SINAPI","code":"89306","qty":1},{"bank":"SINAPI","code":"88597","qty":2}]}`, 200))
	got := map[string]any{}
	for _, it := range v1["items"].([]any) {
		m := pzObj(t, it)
		got[m["code"].(string)] = m["type"]
	}
	want := map[string]any{"89306": "PARE", "88597": "3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("v1 item types (-want +got):\n%s", diff)
	}
	v2 := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/compositions/"+cid, "", 200))["data"])["attributes"])
	items := pzObj(t, v2["items"])
	got2 := map[string]any{"89306": pzObj(t, items["SINAPI:C:89306"])["type"], "88597": pzObj(t, items["SINAPI:R:88597"])["type"]}
	if diff := cmp.Diff(want, got2); diff != "" {
		t.Errorf("v2 item types (-want +got):\n%s", diff)
	}
}

// TestRecordOfOneRegime: SICRO's synthetic composition report gives no
// desonerado cost, so a SICRO bank composition has none, although its
// edition (from the equipment and labour reports) has both regimes. That
// price is null everywhere, never 0: in the bank item reads, in a
// composition that uses it (flagged incomplete), and a desonerado budget
// cannot use it (422).
func TestRecordOfOneRegime(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	tok := u.Token
	const reason = "composition 0407818 has no desonerado price in SICRO3 AL 01/2024"

	v1item := pzObj(t, pzCall(t, h, tok, "GET", "/api/v1/banks/find_by_code?bank=SICRO3&state=AL&version=01/2024&code=0407818", "", 200))
	if v1item["unitary_pd"] != nil || v1item["unitary_pnd"] != json.Number("11.88") {
		t.Errorf("v1 bank item: %v", v1item)
	}
	v2item := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", "/api/public/v2/banks/SICRO3-AL-2024-01/items/0407818", "", 200))["data"])["attributes"])
	if diff := cmp.Diff(map[string]any{"pnd": json.Number("11.88"), "pd": nil}, v2item["prices"]); diff != "" {
		t.Errorf("v2 bank item prices (-want +got):\n%s", diff)
	}

	cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions",
		`{"code":"DNIT-1","description":"X","unit":"m3","local":"AL","is_sicro":true,"team_production":1}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-bases", `{"bases":[{"name":"SICRO3","local":"AL","version":"01/2024"}]}`, 200)
	v1 := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items",
		`{"items":[{"bank":"SICRO3","code":"0407818","qty":2},{"bank":"SICRO3","code":"M0004","qty":1}]}`, 200))
	pzCheckIncomplete(t, "v1", v1, "0407818")
	if got := pzObj(t, v1["missing"].([]any)[0])["reason"]; got != reason {
		t.Errorf("v1 reason %q, want %q", got, reason)
	}
	it := pzObj(t, v1["items"].([]any)[0])
	if it["unitary_pd"] != nil || it["pd"] != nil || it["unitary_pnd"] != json.Number("11.88") || it["pnd"] != json.Number("23.76") || it["missing"] != true {
		t.Errorf("v1 item of one regime: %v", it)
	}
	pzNoUnexplainedZero(t, "v1 SICRO composition", v1, "")
	v2 := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "GET", pzV2+"/compositions/"+cid, "", 200))["data"])["attributes"])
	pzCheckIncomplete(t, "v2", v2, "0407818")
	if it := pzObj(t, pzObj(t, v2["items"])["SICRO3:C:0407818"]); it["pd"] != nil || it["pnd"] != json.Number("23.76") {
		t.Errorf("v2 item of one regime: %v", it)
	}

	budget := func(desonerado bool) string {
		return fmt.Sprintf(`{"code":"ORC-%t","description":"Obra","location":"AL","desonerado":%t,
			"banks":[{"name":"SICRO3","location":"AL","version":"01/2024"}],
			"items":[{"kind":"composition","bank":"SICRO3","code":"0407818","quantity":10}]}`, desonerado, desonerado)
	}
	r := h.Do("POST", "/api/public/v2/budgets", tok, budget(true))
	if r.Status != 422 || !strings.Contains(string(r.Body), "composition 0407818 has no desonerado price in SICRO3 AL 01/2024") ||
		!strings.Contains(string(r.Body), `"/items/0/code"`) {
		t.Errorf("desonerado budget with a não-desonerado-only line: %d\n%s", r.Status, r.Body)
	}
	b := pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", budget(false), 201))["data"])["attributes"])
	if b["total"] != json.Number("118.80") || b["incomplete"] != nil {
		t.Errorf("não desonerado budget: %v", b)
	}

	// An own composition holding it is priced in não desonerado and
	// incomplete in desonerado: a budget says so in its own regime only.
	own := func(desonerado bool) map[string]any {
		return pzObj(t, pzObj(t, pzObj(t, pzCall(t, h, tok, "POST", "/api/public/v2/budgets", fmt.Sprintf(`{"code":"OWN-%t","description":"Obra",
			"location":"AL","desonerado":%t,"items":[{"kind":"composition","bank":"MYBASE","code":"DNIT-1","quantity":1}]}`, desonerado, desonerado), 201))["data"])["attributes"])
	}
	if nd := own(false); nd["incomplete"] != nil || nd["missing"] != nil {
		t.Errorf("não desonerado budget over the own composition is flagged: %v", nd)
	}
	d := own(true)
	pzCheckIncomplete(t, "desonerado budget over the own composition", d, "0407818")
	if got := pzObj(t, d["missing"].([]any)[0])["reason"]; got != "in own composition DNIT-1 (AL): "+reason {
		t.Errorf("reason %q", got)
	}
}

// TestCompositionMoveKeepsOwnPrices: moving a composition to a state where
// one of its own resources has no price, or where its own sub-composition
// does not exist, is 422 on the state in both generations, and changes
// nothing; a state where everything is priced is fine.
func TestCompositionMoveKeepsOwnPrices(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.example").Token
	pzCall(t, h, tok, "POST", pzV1+"/resources",
		`{"code":"000123","description":"AREIA","type":4,"unit":"M3","local":"MG","pnd":10,"pd":9,"pndi":10,"pdi":9}`, 201)
	sub := `{"code":"SUB-1","description":"Sub","unit":"M3","local":"MG"}`
	subID := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", sub, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+subID+"/add-items", `{"items":[{"bank":"MYBASE","code":"000123","qty":2}]}`, 200)
	cid := pzObj(t, pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"CMP-1","description":"X","unit":"M3","local":"MG"}`, 201))["id"].(string)
	pzCall(t, h, tok, "POST", pzV1+"/compositions/"+cid+"/add-items",
		`{"items":[{"bank":"MYBASE","code":"000123","qty":1},{"bank":"MYBASE","code":"SUB-1","qty":1}]}`, 200)
	before := pzCall(t, h, tok, "GET", pzV1+"/compositions/"+cid, "", 200)

	for _, tc := range []struct{ name, method, path, body, want string }{
		{"v1", "PUT", pzV1 + "/compositions/" + cid, `{"local":"SP"}`, `"local"`},
		{"v2", "PATCH", pzV2 + "/compositions/" + cid, `{"location":"SP"}`, `"/location"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.Do(tc.method, tc.path, tok, tc.body)
			body := string(r.Body)
			if r.Status != 422 || !strings.Contains(body, tc.want) ||
				!strings.Contains(body, "resource 000123, an item of this composition, has no price for SP") ||
				!strings.Contains(body, "own composition SUB-1, an item of this composition, does not exist in SP") {
				t.Errorf("status %d, want 422 on the state naming both items:\n%s", r.Status, body)
			}
			if diff := cmp.Diff(before, pzCall(t, h, tok, "GET", pzV1+"/compositions/"+cid, "", 200)); diff != "" {
				t.Errorf("the refused move changed the composition (-before +after):\n%s", diff)
			}
		})
	}
	// Priced in SP and with SUB-1 in SP, the move is fine.
	pzCall(t, h, tok, "PUT", pzV1+"/resources/"+pzObj(t, pzCall(t, h, tok, "GET", pzV1+"/resources/find_by_code?code=000123", "", 200))["id"].(string),
		`{"locals":{"MG":{"pnd":10,"pd":9,"pndi":10,"pdi":9},"SP":{"pnd":12,"pd":11,"pndi":12,"pdi":11}}}`, 200)
	pzCall(t, h, tok, "POST", pzV1+"/compositions", `{"code":"SUB-1","description":"Sub","unit":"M3","local":"SP"}`, 201)
	got := pzObj(t, pzCall(t, h, tok, "PUT", pzV1+"/compositions/"+cid, `{"local":"SP"}`, 200))
	if got["state"] != "SP" {
		t.Errorf("state %v after the move, want SP", got["state"])
	}
}
