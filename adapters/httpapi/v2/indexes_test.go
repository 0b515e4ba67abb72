package v2_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Index series and the readjustment, on both engines: a series written as
// numbers (JSON:API) and one imported from an SGS CSV of variations
// (chained from 100); the statement of three measurements equal to the
// rule computed here (TestReadjust's figures); a missing month 422 naming
// it; another company sees none of them.
func TestIndexesAndReadjustment(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	const idx = "/api/public/v2/indexes"
	doc := expect(t, h.Do("PUT", idx+"/incc-di", tok, `{"data":{"type":"indexes","id":"INCC-DI","attributes":{"kind":"numbers",
		"points":[{"month":"03/2025","value":1000.000},{"month":"03/2026","value":1057.321},{"month":"03/2027","value":1102.5}]}}}`), 200)
	if a := data(t, doc)["attributes"].(obj); a["name"] != "INCC-DI" || num(t, a["months"]) != "3" || a["first"] != "03/2025" || a["last"] != "03/2027" {
		t.Errorf("series %v", a)
	}
	sgs := "\"data\";\"valor\"\r\n\"01/01/2026\";\"0,50\"\r\n\"01/02/2026\";\"0,30\"\r\n\"01/03/2026\";\"-0,10\"\r\n"
	doc = expect(t, h.Do("PUT", idx+"/IPCA?kind=variations", tok, sgs, "Content-Type", "text/csv"), 200)
	pts := data(t, doc)["attributes"].(obj)["points"].([]any)
	if len(pts) != 4 || num(t, pts[3].(obj)["value"]) != "100.700699" || pts[0].(obj)["month"] != "12/2025" {
		t.Errorf("chained IPCA %v", pts)
	}
	list := expect(t, h.Do("GET", idx, tok, ""), 200)
	if got := ids(t, list); strings.Join(got, ",") != "INCC-DI,IPCA" {
		t.Errorf("list %v", got)
	}

	body := `{"data":{"type":"readjustments","attributes":{"index":"INCC-DI","base_month":"03/2025",
		"rows":[{"number":1,"month":"02/2026","value":100000},{"number":2,"month":"04/2026","value":50000},{"number":3,"month":"03/2027","value":80000}]}}}`
	st := data(t, expect(t, h.Do("POST", "/api/public/v2/readjustments", tok, body), 200))["attributes"].(obj)
	// The rule, computed here: factor = trunc((I − I0) / I0, 4), amount = round(value × factor, 2).
	d := decimal.RequireFromString
	factor := func(i0, i string) decimal.Decimal { return d(i).Sub(d(i0)).Div(d(i0)).Truncate(4) }
	want := []decimal.Decimal{decimal.Zero, d("50000").Mul(factor("1000", "1057.321")).Round(2), d("80000").Mul(factor("1000", "1102.5")).Round(2)}
	total := decimal.Zero
	for i, row := range st["rows"].([]any) {
		got := d(num(t, row.(obj)["amount"]))
		if !got.Equal(want[i]) {
			t.Errorf("row %d: amount %s, want %s", i+1, got, want[i])
		}
		total = total.Add(want[i])
	}
	if got := d(num(t, st["total_amount"])); !got.Equal(total) || !total.Equal(d("11065")) {
		t.Errorf("total readjustment %s, want %s (11065.00)", got, total)
	}

	// A month the series lacks: 422 naming it; an index the company lacks.
	bad := strings.Replace(body, `"month":"03/2027"`, `"month":"05/2028"`, 1)
	r := h.Do("POST", "/api/public/v2/readjustments", tok, bad)
	errorsOf(t, r, 422)
	if !strings.Contains(string(r.Body), "no number for 03/2028") {
		t.Errorf("missing month: %s", r.Body)
	}
	errorsOf(t, h.Do("POST", "/api/public/v2/readjustments", f.other.Token, body), 422)
	errorsOf(t, h.Do("GET", idx+"/INCC-DI", f.other.Token, ""), 404)
	if got := ids(t, expect(t, h.Do("GET", idx, f.other.Token, ""), 200)); len(got) != 0 {
		t.Errorf("another company lists %v", got)
	}
	// Bad series: every bad point at once; a bad SGS file names its rows.
	errs := errorsOf(t, h.Do("PUT", idx+"/X", tok, `{"data":{"type":"indexes","id":"X","attributes":{"points":[{"month":"13/2025","value":1},{"month":"01/2025","value":-1}]}}}`), 422)
	if len(errs) != 2 {
		t.Errorf("errors %v", errs)
	}
	r = h.Do("PUT", idx+"/X", tok, "data;valor\n01/2026;x\n", "Content-Type", "text/csv")
	errorsOf(t, r, 422)
	if !strings.Contains(string(r.Body), "row 2") {
		t.Errorf("bad SGS: %s", r.Body)
	}
	if rr := h.Do("DELETE", idx+"/ipca", tok, ""); rr.Status != 204 {
		t.Errorf("DELETE %d", rr.Status)
	}
	errorsOf(t, h.Do("GET", idx+"/IPCA", tok, ""), 404)
}
