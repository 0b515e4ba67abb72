package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// Export a company's own data and import it into another company: every
// record is created with new ids, and every report of every budget is the
// same, byte for byte (CSV), as in the first company. A second import is
// refused whole.
func TestExportImportCompany(t *testing.T) {
	h := apitest.New(t)
	a, b := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")
	g := str(data(t, create(t, h, groups, a.Token, `{"description":"Alvenarias"}`))["id"])
	create(t, h, resources, a.Token, `{"code":"R-OWN","description":"Bloco próprio","type":4,"unit":"UN","status":true,"group_id":"`+g+`","locals":{"MG":{"pnd":2.5,"pd":2.4,"pndi":2.5,"pdi":2.4}}}`)
	cp := create2(t, h, base+"/banks/"+sinapiID+"/items/89478/copy", a.Token, `{"code":"MINHA-89478"}`)
	expect(t, h.Do("POST", compositions+"/"+str(data(t, cp)["id"])+"/add_items", a.Token,
		`{"items":[{"bank":"MYBASE","code":"R-OWN","quantity":2.5,"resource":true}]}`), 200)
	bud := create(t, h, budgets, a.Token, `{"code":"ORC-X","description":"Obra","location":"MG","bdi":20,"rounding":"round",
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Paredes","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	    {"kind":"composition","bank":"MYBASE","code":"MINHA-89478","quantity":33.25},
	    {"kind":"resource","bank":"MYBASE","code":"R-OWN","quantity":1000}]}]}`)
	expect(t, h.Do("PATCH", budgets+"/"+str(data(t, bud)["id"])+"/bdi", a.Token,
		`{"work_type":"buildings","bdi_components":{"ac":4,"s":0.8,"r":1.27,"df":1.23,"l":7.4,"taxes":5.65},"supply_bdi":15.28,"supply_lines":["n4"]}`), 200)

	export := h.Do("GET", base+"/my_database/export?version=1", a.Token, "")
	exp := expect(t, export, 200)
	ea := attrs(t, exp)
	if ea["Format"] != "costdb.company-export" || num(t, ea["Version"]) != "1" || len(ea["Budgets"].([]any)) != 1 ||
		len(ea["Compositions"].([]any)) != 1 || len(ea["Resources"].([]any)) != 1 || len(ea["Groups"].([]any)) != 1 {
		t.Fatalf("export %v", ea)
	}

	imp := expect(t, h.Do("POST", base+"/my_database/import", b.Token, string(export.Body)), 201)
	ia := attrs(t, imp)
	counts := map[string]int{}
	for _, k := range []string{"groups", "resources", "compositions", "budgets"} {
		for _, x := range ia[k].([]any) {
			o := x.(obj)
			if o["old_id"] == o["new_id"] {
				t.Errorf("%s kept its id %v", k, o)
			}
			counts[k]++
		}
	}
	if d := cmp.Diff(map[string]int{"groups": 1, "resources": 1, "compositions": 1, "budgets": 1}, counts); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}
	newBudget := str(ia["budgets"].([]any)[0].(obj)["new_id"])
	oldBudget := str(data(t, bud)["id"])
	for _, rep := range []string{"/reports/synthetic?format=csv", "/reports/analytic?format=csv", "/reports/abc?format=csv", "/bdi"} {
		ra := h.Do("GET", budgets+"/"+oldBudget+rep, a.Token, "")
		rb := h.Do("GET", budgets+"/"+newBudget+rep, b.Token, "")
		if ra.Status != 200 || rb.Status != 200 {
			t.Fatalf("%s: %d / %d", rep, ra.Status, rb.Status)
		}
		if rep == "/bdi" {
			x, y := attrs(t, decode(t, ra.Body)), attrs(t, decode(t, rb.Body))
			if d := cmp.Diff(x, y); d != "" {
				t.Errorf("BDI differs after import (-exported +imported):\n%s", d)
			}
			continue
		}
		if string(ra.Body) != string(rb.Body) {
			t.Errorf("%s differs after import:\n%s\n---\n%s", rep, ra.Body, rb.Body)
		}
	}
	// The imported resource is in the imported group.
	r := data(t, expect(t, h.Do("GET", resources+"/find_by_code?code=R-OWN", b.Token, ""), 200))
	if gid := r["relationships"].(obj)["group"].(obj)["data"].(obj)["id"]; gid != ia["groups"].([]any)[0].(obj)["new_id"] {
		t.Errorf("group %v", gid)
	}

	// Again: every code is taken now; nothing is created.
	before := num(t, expect(t, h.Do("GET", resources, b.Token, ""), 200)["meta"].(obj)["total"])
	got := errorsOf(t, h.Do("POST", base+"/my_database/import", b.Token, string(export.Body)), 422)
	if len(got) < 4 {
		t.Errorf("second import: %v", got)
	}
	if after := num(t, expect(t, h.Do("GET", resources, b.Token, ""), 200)["meta"].(obj)["total"]); after != before {
		t.Errorf("resources %s → %s after a refused import", before, after)
	}
	errorsOf(t, h.Do("POST", base+"/my_database/import", b.Token, `{"Format":"other","Version":1}`), 422)
	errorsOf(t, h.Do("POST", base+"/my_database/import", b.Token, `{"Format":"costdb.company-export","Version":1,"Extra":1}`), 400)
}
