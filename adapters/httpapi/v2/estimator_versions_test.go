package v2_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// reimportMG imports the SINAPI MG 08/2026 sample again with 89306 at
// another price (a corrected edition).
func reimportMG(t *testing.T, h *apitest.Harness, pnd string) {
	t.Helper()
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		if e.Edition.Bank != "SINAPI" {
			continue
		}
		for _, c := range e.Compositions {
			if c.Code == "89306" {
				c.Cost.PND = domain.Dec(pnd)
			}
		}
		if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}}); err != nil {
			t.Fatal(err)
		}
	}
}

// A frozen version's reports are byte for byte the same after a new
// edition is imported, the budget's edition is re-imported with another
// price, and an own resource's price changes; the budget's own reports do
// change. Two versions compare line by line.
func TestFrozenVersions(t *testing.T) {
	h := apitest.New(t)
	u, other := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")
	tok := u.Token
	create(t, h, resources, tok, `{"code":"R-OWN","description":"Bloco próprio","type":4,"unit":"UN","status":true,"locals":{"MG":{"pnd":2.5,"pd":2.4,"pndi":2.5,"pdi":2.4}}}`)
	res := str(data(t, expect(t, h.Do("GET", resources+"/find_by_code?code=R-OWN", tok, ""), 200))["id"])
	bud := create(t, h, budgets, tok, `{"code":"ORC-V","description":"Licitação","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Alvenaria","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	    {"kind":"resource","bank":"MYBASE","code":"R-OWN","quantity":1000}]}]}`)
	id := str(data(t, bud)["id"])
	vpath := budgets + "/" + id + "/versions"

	r := h.Do("POST", vpath, tok, "")
	v1 := expect(t, r, 201)
	va := attrs(t, v1)
	if r.Header.Get("Location") != vpath+"/1" || num(t, va["number"]) != "1" || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(str(va["hash"])) ||
		num(t, va["total_with_bdi"]) != num(t, attrs(t, bud)["total_with_bdi"]) {
		t.Fatalf("version 1: %v (Location %s)", va, r.Header.Get("Location"))
	}
	reportPaths := []string{"/reports/synthetic", "/reports/analytic", "/reports/abc",
		"/reports/synthetic?format=csv", "/reports/analytic?format=csv", "/reports/abc?format=csv"}
	snapshot := func(prefix string) map[string][]byte {
		out := map[string][]byte{}
		for _, p := range reportPaths {
			r := h.Do("GET", prefix+p, tok, "")
			if r.Status != 200 {
				t.Fatalf("GET %s%s: %d %s", prefix, p, r.Status, r.Body)
			}
			out[p] = r.Body
		}
		return out
	}
	frozen := snapshot(vpath + "/1")
	live := snapshot(budgets + "/" + id)
	// Right after freezing, the version's reports are the budget's (but
	// for the self link of the JSON:API documents).
	for _, p := range reportPaths {
		if p[len(p)-3:] == "csv" {
			if string(frozen[p]) != string(live[p]) {
				t.Errorf("%s: the version's CSV differs from the budget's at freezing", p)
			}
			continue
		}
		fv, lv := decode(t, frozen[p]), decode(t, live[p])
		delete(fv, "links")
		delete(lv, "links")
		if d := cmp.Diff(lv, fv); d != "" {
			t.Errorf("%s: the version's report differs from the budget's at freezing (-budget +version):\n%s", p, d)
		}
	}

	// A new edition, the edition re-imported with another price, an own
	// price changed.
	importPE(t, h)
	reimportMG(t, h, "999.99")
	expect(t, h.Do("PATCH", resources+"/"+res, tok, `{"locals":{"MG":{"pnd":3.75,"pd":3.5,"pndi":3.75,"pdi":3.5}}}`), 200)

	again := snapshot(vpath + "/1")
	for _, p := range reportPaths {
		if string(again[p]) != string(frozen[p]) {
			t.Errorf("%s: the frozen version's report changed:\nbefore %s\nafter  %s", p, frozen[p], again[p])
		}
	}
	now := snapshot(budgets + "/" + id)
	if string(now["/reports/synthetic"]) == string(live["/reports/synthetic"]) {
		t.Errorf("the budget's own report did not change: the test changes nothing")
	}
	if got := attrs(t, expect(t, h.Do("GET", vpath+"/1", tok, ""), 200)); got["hash"] != va["hash"] {
		t.Errorf("the hash changed: %v", got["hash"])
	}

	// Version 2 has the new prices; comparing 1 with 2: 89306 113.33 →
	// 999.99 and R-OWN 2.50 → 3.75, sorted by impact.
	v2 := attrs(t, expect(t, h.Do("POST", vpath, tok, ""), 201))
	if num(t, v2["number"]) != "2" || v2["hash"] == va["hash"] {
		t.Errorf("version 2: %v", v2)
	}
	cmpDoc := expect(t, h.Do("GET", vpath+"/1/compare/2", tok, ""), 200)
	type row struct{ Code, Before, After string }
	var got []row
	for _, x := range cmpDoc["data"].([]any) {
		a := x.(obj)["attributes"].(obj)
		got = append(got, row{str(a["code"]), num(t, a["unit_price_before"]), num(t, a["unit_price_after"])})
	}
	if d := cmp.Diff([]row{{"89306", "113.33", "999.99"}, {"R-OWN", "2.50", "3.75"}}, got); d != "" {
		t.Errorf("compare (-want +got):\n%s", d)
	}
	list := expect(t, h.Do("GET", vpath, tok, ""), 200)
	if n := len(list["data"].([]any)); n != 2 {
		t.Errorf("%d versions listed", n)
	}

	// Another company sees none of it; an unknown version is 404.
	errorsOf(t, h.Do("GET", vpath+"/1", other.Token, ""), 404)
	errorsOf(t, h.Do("GET", vpath+"/1/reports/synthetic", other.Token, ""), 404)
	errorsOf(t, h.Do("POST", vpath, other.Token, ""), 404)
	errorsOf(t, h.Do("GET", vpath+"/3", tok, ""), 404)
	errorsOf(t, h.Do("GET", vpath+"/x/reports/abc", tok, ""), 404)
	// Deleting the budget deletes its versions.
	if r := h.Do("DELETE", budgets+"/"+id, tok, ""); r.Status != 204 {
		t.Fatalf("delete: %d", r.Status)
	}
	errorsOf(t, h.Do("GET", vpath+"/1", tok, ""), 404)
}
