package v1_test

// The reference-bank views under /base/{bank}/…: a replay of the bank
// look-ups of the axios v1 client (it looks a bank item up under
// /v1/base/{bank}/… with the bank's name in lower case, then falls back to
// the company's base), and the rules of the views.

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func TestReplayAxiosBankLookups(t *testing.T) {
	h, u := setup(t)
	c := &replayClient{h: h, token: u.Token}

	// sinapi (the sample's SINAPI MG 08/2026, the only state imported: no
	// state needed), a composition with its published structure.
	comp := c.ok(t, "GET", "/base/sinapi/compositions/find_by_code?code=89306", nil)
	if comp["id"] != "89306" || comp["code"] != "89306" || comp["state"] != "MG" || comp["unit"] != "M2" ||
		field(comp["prices"], "pnd") != json.Number("113.33") || field(comp["prices"], "pd") != json.Number("110.13") {
		t.Errorf("sinapi 89306: %v", comp)
	}
	if diff := cmp.Diff(map[string]any{"data": "08/2026", "estado": "MG", "relatorio": false}, field(comp["banks"], "SINAPI")); diff != "" {
		t.Errorf("banks.SINAPI (-want +got):\n%s", diff)
	}
	items, _ := comp["items"].([]any)
	if len(items) != 6 {
		t.Fatalf("89306 items: %v", comp["items"])
	}
	// 0.6505 × 24.88 = 16.18444, cut to 16.18 (SINAPI truncates at 2 places).
	first := items[0].(map[string]any)
	if first["banco"] != "SINAPI" || first["code"] != "88316" || first["coefficient"] != json.Number("0.6505") ||
		first["unitary_pnd"] != json.Number("24.88") || first["pnd"] != json.Number("16.18") || first["is_resource"] != false {
		t.Errorf("first item: %v", first)
	}
	if _, ok := comp["incomplete"]; ok {
		t.Errorf("a complete bank composition carries incomplete: %v", comp)
	}
	// The same composition by id (its code) answers the same.
	if diff := cmp.Diff(comp, c.ok(t, "GET", "/base/SINAPI/compositions/89306?state=mg", nil)); diff != "" {
		t.Errorf("get by id (-find_by_code +get):\n%s", diff)
	}

	// sicro3: a resource with its four prices, and a composition whose
	// desonerado cost SICRO did not publish: null, named in missing.
	res := c.ok(t, "GET", "/base/sicro3/resources/find_by_code?code=E9017&state=AL", nil)
	want := map[string]any{"pnd": json.Number("185.4888"), "pd": json.Number("182.3921"), "pndi": json.Number("92.8898"), "pdi": json.Number("89.7931")}
	if diff := cmp.Diff(want, field(res["locals"], "AL")); diff != "" || res["id"] != "E9017" || res["type"] != json.Number("1") || res["status"] != true {
		t.Errorf("sicro3 E9017 locals (-want +got):\n%s\n%v", diff, res)
	}
	sc := c.ok(t, "GET", "/base/sicro3/compositions/find_by_code?code=0307731", nil)
	if sc["code"] != "0307731" || field(sc["prices"], "pnd") != json.Number("112.02") {
		t.Errorf("sicro3 0307731: %v", sc)
	}
	if p := sc["prices"].(map[string]any); p["pd"] != nil || sc["incomplete"] != true || sc["missing"] == nil {
		t.Errorf("sicro3 0307731: pd must be null (never 0), named in missing: %v", sc)
	}

	// orse: never imported. 404 saying which banks are, so the client falls
	// back to its own base.
	status, v := c.do(t, "GET", "/base/orse/compositions/find_by_code?code=00001&state=SE", nil)
	msg, _ := field(v, "message").(string)
	if status != 404 || !strings.Contains(msg, "bank ORSE has not been imported") || !strings.Contains(msg, "SICRO3, SINAPI") {
		t.Errorf("orse: status %d, message %q, want 404 naming the imported banks", status, msg)
	}
	if status, _ := c.do(t, "GET", "/base/orse/resources?state=SE", nil); status != 404 {
		t.Errorf("orse resources: status %d, want 404", status)
	}
	// A code the edition lacks is 404 too; the company's base is untouched.
	if status, _ := c.do(t, "GET", "/base/sinapi/compositions/find_by_code?code=E9999999", nil); status != 404 {
		t.Errorf("unknown code: status %d, want 404", status)
	}
	if status, v := c.do(t, "GET", "/base/mybase/compositions/find_by_code?code=89306", nil); status != 404 {
		t.Errorf("mybase find_by_code of a bank code: %d %v, want 404 (the company has none)", status, v)
	}

	// The list, paged and searched as the client pages its lists.
	list := c.ok(t, "GET", "/base/sicro3/resources?search=escavadeira&per_page=5", nil)
	records, _ := list["records"].([]any)
	if len(records) == 0 || list["per_page"] != json.Number("5") {
		t.Fatalf("sicro3 resources ?search=escavadeira: %v", list)
	}
	for _, r := range records {
		if d, _ := field(r, "description").(string); !strings.Contains(strings.ToUpper(d), "ESCAVADEIRA") {
			t.Errorf("record %v does not match the search", r)
		}
	}
	if f := findInPages(t, c, "/base/sicro3/compositions", "code", "0307731"); f == nil || field(f["prices"], "pnd") != json.Number("112.02") {
		t.Errorf("0307731 paged from the sicro3 list: %v", f)
	}
}

// TestBankViewEditions: which edition a view reads (state, version, region),
// the errors of the query, null prices of a regime not published, and
// that writes are 405.
func TestBankViewEditions(t *testing.T) {
	h, u := setup(t)
	importCompatEditions(t, h)
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	servente := func(month, pnd string) app.EditionData {
		return app.EditionData{Edition: domain.Edition{Bank: "SINAPI", State: "PI", Month: month, Regimes: both},
			Resources: []*domain.BankResource{{Code: "88316", Description: "SERVENTE", Unit: "H", Type: 3,
				Prices: domain.PriceLine{PND: dec(pnd), PD: dec(pnd), PNDI: dec(pnd), PDI: dec(pnd)}}}}
	}
	// An older edition imported after the newer ones: the newest month wins, not the last import.
	if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{servente("12/2025", "18.00")}); err != nil {
		t.Fatal(err)
	}
	const r88316 = base + "/../sinapi/resources/88316"
	path := strings.Replace(r88316, "/mybase/..", "", 1)
	pnd := func(body map[string]any, state string) any { return field(field(body["locals"], state), "pnd") }

	for _, tt := range []struct {
		query, state string
		want         json.Number
	}{
		{"state=PI", "PI", "20"},                 // PI 02/2026, the newest of PI
		{"state=pi&version=01/2026", "PI", "19"}, // any case
		{"state=PI&version=12/2025", "PI", "18"}, // an older one by version
		{"state=SP", "SP", "30"},                 // another state
	} {
		if got := pnd(call(t, h, "GET", path+"?"+tt.query, u.Token, "", 200), tt.state); got != tt.want {
			t.Errorf("%s: pnd %v, want %s", tt.query, got, tt.want)
		}
	}
	// SINAPI is imported for several states: state is required, naming them.
	body := call(t, h, "GET", path, u.Token, "", 422)
	checkError(t, body, "state")
	if msg := field(body["errors"], "state"); !strings.Contains(jsonText(t, msg), "MG, PI, SP") {
		t.Errorf("the states are named: %v", body)
	}
	checkError(t, call(t, h, "GET", path+"?state=XX&version=2026-02", u.Token, "", 422), "state", "version")
	for _, q := range []string{"state=RJ", "state=PI&version=03/2026", "state=PI&region=NORTE"} {
		call(t, h, "GET", path+"?"+q, u.Token, "", 404)
	}
	// A bank with regions: the region narrows, in any case.
	emop := call(t, h, "GET", "/api/v1/base/emop/resources/E1?region=capital", u.Token, "", 200)
	if pnd(emop, "RJ") != json.Number("25") {
		t.Errorf("emop E1: %v", emop)
	}
	// ORSE SE was published desonerado only: the other prices are null, never 0.
	orse := call(t, h, "GET", "/api/v1/base/orse/resources/find_by_code?code=00001", u.Token, "", 200)
	want := map[string]any{"pnd": nil, "pd": json.Number("80"), "pndi": nil, "pdi": json.Number("80")}
	if diff := cmp.Diff(want, field(orse["locals"], "SE")); diff != "" {
		t.Errorf("orse 00001 locals (-want +got):\n%s", diff)
	}
	// find_by_code needs a code; a bad page is 400 as on mybase.
	checkError(t, call(t, h, "GET", "/api/v1/base/sinapi/compositions/find_by_code?state=PI", u.Token, "", 422), "code")
	checkError(t, call(t, h, "GET", "/api/v1/base/sinapi/compositions?state=PI&page=0", u.Token, "", 400), "page")
	// The company's own base in another case is not a bank.
	call(t, h, "GET", "/api/v1/base/MyBase/compositions?state=PI", u.Token, "", 404)

	// Read-only: writes are 405 with Allow: GET, and change nothing.
	for _, w := range []struct{ method, path string }{
		{"POST", "/api/v1/base/sinapi/compositions"},
		{"PUT", "/api/v1/base/sinapi/compositions/87292"},
		{"PATCH", "/api/v1/base/sinapi/resources/88316"},
		{"DELETE", "/api/v1/base/sinapi/resources/88316"},
		{"POST", "/api/v1/base/sinapi/resources"},
	} {
		r := h.Do(w.method, w.path, u.Token, `{"code":"X"}`)
		checkStatus(t, r, w.method+" "+w.path, http.StatusMethodNotAllowed)
		if r.Header.Get("Allow") != "GET" {
			t.Errorf("%s %s: Allow %q, want GET", w.method, w.path, r.Header.Get("Allow"))
		}
	}
	if got := pnd(call(t, h, "GET", path+"?state=PI", u.Token, "", 200), "PI"); got != json.Number("20") {
		t.Errorf("after the refused writes: pnd %v", got)
	}
	// Without a token: 401, as every read.
	checkStatus(t, h.Do("GET", path+"?state=PI", "", ""), "GET without a token", http.StatusUnauthorized)
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
