package v2_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// bdiBody is a JSON:API budget-bdis update of the budget id.
func bdiBody(id, attrs string) string {
	return `{"data":{"type":"budget-bdis","id":"` + id + `","attributes":` + attrs + `}}`
}

// checkRows is a check's rows as name:value:status.
func checkRows(t *testing.T, check any) []string {
	t.Helper()
	c, ok := check.(obj)
	if !ok {
		t.Fatalf("check is not an object: %v", check)
	}
	var out []string
	for _, r := range c["rows"].([]any) {
		o := r.(obj)
		out = append(out, str(o["name"])+":"+num(t, o["value"])+":"+str(o["status"]))
	}
	return out
}

// The BDI as TCU checks it, through HTTP on the real SINAPI MG sample
// budget: the worked examples of Acórdão 2622/2013 reproduced, the rate
// applied to the budget's prices, a component out of range flagged, the
// differentiated BDI on a supply line, the BDI table in the reports.
func TestBudgetBDI(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	path := budgets + "/" + f.id + "/bdi"

	a := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
	if a["work_type"] != nil || a["check"] != nil || a["bdi_components"] != nil || num(t, a["bdi"]) != "25" {
		t.Errorf("before: %v", a)
	}

	// Example 1: edifícios, every component at its average: 22.23%.
	ex1 := `{"ac":4.00,"s":0.80,"r":1.27,"g":0,"df":1.23,"l":7.40,"taxes":5.65,"cprb":0}`
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, bdiBody(f.id, `{"work_type":"buildings","bdi_components":`+ex1+`}`)), 200))
	check := a["check"].(obj)
	if num(t, a["bdi"]) != "22.23" || num(t, check["bdi"]) != "22.23" || num(t, check["bdi_without_cprb"]) != "22.23" ||
		num(t, check["flagged"]) != "0" || !strings.HasPrefix(num(t, check["bdi_exact"]), "22.22616419") {
		t.Errorf("example 1: %v", a)
	}
	want := []string{"ac:4:inside", "sg:0.8:inside", "r:1.27:inside", "df:1.23:inside", "l:7.4:inside", "bdi:22.23:inside"}
	if d := cmp.Diff(want, checkRows(t, check)); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	// The rate is the budget's: its totals, recomputed by hand with 22.23%.
	rate := d("1.2223")
	var total, withBDI decimal.Decimal
	for _, l := range [][2]string{{"89306", "120.5"}, {"89478", "33.25"}, {"34586", "1000"}} {
		p, q := d(mgPrice[l[0]]), d(l[1])
		total = total.Add(p.Mul(q).Truncate(2))
		withBDI = withBDI.Add(p.Mul(rate).Truncate(2).Mul(q).Truncate(2))
	}
	b := attrs(t, expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200))
	if num(t, b["bdi"]) != "22.23" || num(t, b["total"]) != total.StringFixed(2) || num(t, b["total_with_bdi"]) != withBDI.StringFixed(2) {
		t.Errorf("budget: bdi %v total %v with BDI %v; want 22.23, %s, %s", b["bdi"], b["total"], b["total_with_bdi"], total.StringFixed(2), withBDI.StringFixed(2))
	}

	// The differentiated BDI (example 3, 15.28%) on the material line 2.1.
	ex3 := `{"ac":3.45,"s":0.48,"r":0.85,"df":0.85,"l":5.11,"taxes":3.65}`
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, `{"supply_bdi_components":`+ex3+`,"supply_lines":["n5"]}`), 200))
	sc := a["supply_check"].(obj)
	if num(t, a["supply_bdi"]) != "15.28" || num(t, sc["flagged"]) != "0" || str(sc["work_type"]) != "supply" ||
		cmp.Diff([]any{"n5"}, a["supply_lines"]) != "" || num(t, a["bdi"]) != "22.23" {
		t.Errorf("supply: %v", a)
	}
	p, q := d(mgPrice["34586"]), d("1000")
	supplyUnit := p.Mul(d("1.1528")).Truncate(2)
	withBDI = withBDI.Sub(p.Mul(rate).Truncate(2).Mul(q).Truncate(2)).Add(supplyUnit.Mul(q).Truncate(2))
	if num(t, a["total_with_bdi"]) != withBDI.StringFixed(2) {
		t.Errorf("total with BDI %v, want %s", a["total_with_bdi"], withBDI.StringFixed(2))
	}
	rep := expect(t, h.Do("GET", budgets+"/"+f.id+"/reports/synthetic", tok, ""), 200)
	for _, r := range rep["data"].([]any) {
		ra := r.(obj)["attributes"].(obj)
		isSupply := ra["node_id"] == "n5"
		if (ra["supply"] == true) != isSupply {
			t.Errorf("row %v: supply %v", ra["node_id"], ra["supply"])
		}
		if isSupply && num(t, ra["unit_price_with_bdi"]) != supplyUnit.StringFixed(2) {
			t.Errorf("supply line unit price with BDI %v, want %s", ra["unit_price_with_bdi"], supplyUnit.StringFixed(2))
		}
	}
	meta := rep["meta"].(obj)
	tbl, ok := meta["bdi_table"].(obj)
	if !ok || num(t, meta["total_with_bdi"]) != withBDI.StringFixed(2) || num(t, tbl["bdi"]) != "22.23" || num(t, tbl["supply_bdi"]) != "15.28" {
		t.Fatalf("report meta: %v", meta)
	}
	if d := cmp.Diff(want, checkRows(t, tbl["check"])); d != "" {
		t.Errorf("report BDI table rows (-want +got):\n%s", d)
	}

	// A component outside its range is flagged: AC 6.00 > 5.50, L 6.00 < 6.16.
	a = attrs(t, expect(t, h.Do("PATCH", path, tok, `{"bdi_components":{"ac":6,"s":0.8,"r":1.27,"df":1.23,"l":6,"taxes":5.65}}`), 200))
	got := checkRows(t, a["check"])
	if got[0] != "ac:6:above" || got[4] != "l:6:below" || num(t, a["check"].(obj)["flagged"]) != "2" {
		t.Errorf("flagged rows %v", got)
	}

	// Bad input: each member named, nothing changed.
	tests := []struct {
		name, body string
		want       []apiError
	}{
		{"CPRB on a não desonerado budget", bdiBody(f.id, `{"bdi_components":{"ac":4,"df":1.23,"l":7.4,"taxes":5.65,"cprb":4.5}}`),
			[]apiError{{"422", "invalid", "/data/attributes/bdi_components/cprb", ""}}},
		{"taxes of 100%", `{"bdi_components":{"ac":4,"df":1.23,"l":7.4,"taxes":100,"cprb":0},"supply_bdi":-1}`,
			[]apiError{{"422", "invalid", "/supply_bdi", ""}, {"422", "invalid", "/bdi_components/taxes", ""}}},
		{"missing component and unknown one", `{"bdi_components":{"ac":4,"sg":0.8,"l":7.4,"taxes":5}}`,
			[]apiError{{"422", "invalid", "/bdi_components/sg", ""}}},
		{"missing component", `{"bdi_components":{"ac":4,"l":7.4,"taxes":5}}`,
			[]apiError{{"422", "invalid", "/bdi_components/df", ""}}},
		{"unknown work type", `{"work_type":"reformas"}`, []apiError{{"422", "invalid", "/work_type", ""}}},
		{"a stage as supply line", `{"supply_lines":["n1","n9"]}`,
			[]apiError{{"422", "invalid", "/supply_lines/0", ""}, {"422", "invalid", "/supply_lines/1", ""}}},
		{"rate and parts", `{"supply_bdi":15.28,"supply_bdi_components":` + ex3 + `}`, []apiError{{"422", "invalid", "/supply_bdi", ""}}},
		{"a quoted number", `{"supply_bdi":"15"}`, []apiError{{"422", "invalid", "/supply_bdi", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, h.Do("PATCH", path, tok, tt.body), 422)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
	after := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
	if num(t, after["bdi"]) != num(t, a["bdi"]) || num(t, after["supply_bdi"]) != "15.28" || after["work_type"] != "buildings" {
		t.Errorf("changed by a refused request: %v", after)
	}
	// Another company's budget is 404.
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
	errorsOf(t, h.Do("PATCH", path, f.other.Token, `{"work_type":"ports"}`), 404)

	// A rate set by hand on the budget drops the components it no longer
	// comes from.
	expect(t, h.Do("PATCH", budgets+"/"+f.id, tok, `{"bdi":30}`), 200)
	after = attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
	if after["bdi_components"] != nil || after["check"] != nil || num(t, after["bdi"]) != "30" {
		t.Errorf("after a hand-set rate: %v", after)
	}
}

// Example 2: a desonerado budget applies the rate with CPRB in the taxes
// (28.35%) and is checked without it (22.23%, inside).
func TestBudgetBDIDesonerado(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	doc := create(t, h, budgets, tok, strings.Replace(strings.Replace(sampleBudgetBody, "ORC-001", "ORC-D", 1), `"desonerado":false`, `"desonerado":true`, 1))
	id := str(data(t, doc)["id"])
	a := attrs(t, expect(t, h.Do("PATCH", budgets+"/"+id+"/bdi", tok,
		`{"work_type":"buildings","bdi_components":{"ac":4.00,"s":0.80,"r":1.27,"g":0,"df":1.23,"l":7.40,"taxes":5.65,"cprb":4.50}}`), 200))
	c := a["check"].(obj)
	if num(t, a["bdi"]) != "28.35" || num(t, c["bdi"]) != "28.35" || num(t, c["bdi_without_cprb"]) != "22.23" ||
		checkRows(t, c)[5] != "bdi:22.23:inside" || a["desonerado"] != true {
		t.Errorf("desonerado: %v", a)
	}
	// The published municipal sheet: L 7.31 → 28.24%.
	a = attrs(t, expect(t, h.Do("PATCH", budgets+"/"+id+"/bdi", tok,
		`{"bdi_components":{"ac":4.00,"s":0.80,"r":1.27,"df":1.23,"l":7.31,"taxes":5.65,"cprb":4.50}}`), 200))
	if num(t, a["bdi"]) != "28.24" {
		t.Errorf("municipal sheet: bdi %v, want 28.24", a["bdi"])
	}
}
