package v1_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

const bud = "/api/v1/bud/budgets"

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// budgetFixture is a company with an own resource R1 (10.50 in MG), an own
// composition ALV-001 (1 × SINAPI 89306 + 2 × R1) and a budget over SINAPI
// MG 08/2026 made through v2 (v1 has no budget authoring):
//
//	1    Alvenaria
//	1.1    SINAPI 89306          120.5 m²
//	1.2    MYBASE ALV-001         10 m²
//	2    SINAPI 34586 (resource) 1000 un
type budgetFixture struct {
	h     *apitest.Harness
	u     apitest.User
	other apitest.User
	id    string
}

func newBudgetFixture(t *testing.T) *budgetFixture {
	t.Helper()
	h, u := setup(t)
	f := &budgetFixture{h: h, u: u, other: h.AddUser("Construtora Beta", "bia@beta.example")}
	createResource(t, h, u.Token, "R1")
	comp := createComposition(t, h, u.Token, "ALV-001")
	attachSinapi(t, h, u.Token, id(t, comp))
	call(t, h, "POST", base+"/compositions/"+id(t, comp)+"/add-items", u.Token,
		`{"items":[{"bank":"SINAPI","code":"89306","qty":1},{"bank":"MYBASE","code":"R1","qty":2}]}`, 200)
	f.id = f.create(t, u.Token, "ORC-001", "Edifício residencial", "Construtora Exemplo")
	return f
}

// create makes a budget through v2 and returns its id.
func (f *budgetFixture) create(t *testing.T, token, code, description, client string) string {
	t.Helper()
	body := `{"code":"` + code + `","description":"` + description + `","client":"` + client + `","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[
	    {"kind":"stage","description":"Alvenaria","items":[
	      {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	      {"kind":"composition","bank":"MYBASE","code":"ALV-001","quantity":10}]},
	    {"kind":"resource","bank":"SINAPI","code":"34586","quantity":1000}]}`
	if code != "ORC-001" {
		body = `{"code":"` + code + `","description":"` + description + `","client":"` + client + `","location":"MG"}`
	}
	r := f.h.Do("POST", "/api/public/v2/budgets", token, body)
	if r.Status != 201 {
		t.Fatalf("creating budget %s: %d\n%s", code, r.Status, r.Body)
	}
	return object(t, r.Body)["data"].(map[string]any)["id"].(string)
}

// fig is a line's figures by hand: BDI 25% on the unit price, truncating.
type fig struct{ price, priceBDI, total, totalBDI decimal.Decimal }

func lineFig(price, qty string) fig {
	p := dec(price)
	pb := p.Mul(dec("1.25")).Truncate(2)
	return fig{p, pb, p.Mul(dec(qty)).Truncate(2), pb.Mul(dec(qty)).Truncate(2)}
}

func TestBudgetList(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	f.create(t, tok, "ORC-010", "Escola municipal", "Prefeitura de Contagem")
	f.create(t, tok, "ORC-002", "Galpão", "Indústria Ávila")
	f.create(t, f.other.Token, "ORC-003", "Obra de outra", "Outro")

	body := call(t, h, "GET", bud+"/list", tok, "", 200)
	if diff := cmp.Diff([]string{"budgets", "current_page", "per_page", "total"}, keys(body)); diff != "" {
		t.Errorf("envelope keys (-want +got):\n%s", diff)
	}
	if body["total"] != num("3") || body["current_page"] != num("1") || body["per_page"] != num("10") {
		t.Errorf("envelope %v", body)
	}
	first := body["budgets"].([]any)[0].(map[string]any)
	// 89306: 13656.26; ALV-001 = 113.33 + trunc(2 × 10.5) = 134.33, × 10 = 1343.30; 34586: 2620.00.
	if first["code"] != "ORC-001" || first["total"] != "17619.56" || first["total_with_bdi"] != "22019.13" || first["bdi_value"] != "4399.57" ||
		first["bdi"] != "25" || first["state"] != "MG" || first["lines"] != num("3") || first["company_id"] != f.u.CompanyID {
		t.Errorf("first budget %v", first)
	}
	if diff := cmp.Diff(map[string]any{"SINAPI": map[string]any{"data": "08/2026", "estado": "MG", "relatorio": false}}, first["banks"]); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}
	checkCreatedAt(t, first)

	codes := func(q string) []string {
		var out []string
		for _, b := range call(t, h, "GET", bud+"/list"+q, tok, "", 200)["budgets"].([]any) {
			out = append(out, b.(map[string]any)["code"].(string))
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"?order_name=code", []string{"ORC-001", "ORC-002", "ORC-010"}},
		{"?order_name=code&order_type=DESC", []string{"ORC-010", "ORC-002", "ORC-001"}},
		{"?order_name=client&order_type=asc", []string{"ORC-001", "ORC-002", "ORC-010"}},
		{"?search=avila", []string{"ORC-002"}},
		{"?search=ESCOLA", []string{"ORC-010"}},
		{"?order_name=code&per_page=1&page=3", []string{"ORC-010"}},
		{"?page=9", nil},
	} {
		if got := codes(tc.query); !cmp.Equal(tc.want, got) {
			t.Errorf("list%s: %v, want %v", tc.query, got, tc.want)
		}
	}

	checkError(t, call(t, h, "GET", bud+"/list?order_type=up", tok, "", 400), "order_type")
	checkError(t, call(t, h, "GET", bud+"/list?order_name=total", tok, "", 400), "order_name")
	checkError(t, call(t, h, "GET", bud+"/list?per_page=0", tok, "", 400), "per_page")

	// The bare token (real v1 clients) works; no token is 401.
	r := h.Do("GET", bud+"/list", "", "", "Authorization", tok)
	checkStatus(t, r, "bare token", 200)
	r = h.Do("GET", bud+"/list", "", "")
	checkStatus(t, r, "no token", 401)
	if r.Header.Get("WWW-Authenticate") == "" {
		t.Error("401 without WWW-Authenticate")
	}
	other := call(t, h, "GET", bud+"/list", f.other.Token, "", 200)
	if other["total"] != num("1") {
		t.Errorf("the other company sees %v budgets", other["total"])
	}
}

// row is what the test checks of a report row.
type row struct {
	Itemization, Kind, Base, BaseVersion, Code, Unity, Qty, Price, PriceBDI, Total, TotalBDI any
}

func rowOf(m map[string]any) row {
	return row{m["itemization"], m["kind"], m["base"], m["base_version"], m["code"], m["unity"], m["qty"], m["price"], m["price_plus_bdi"], m["total_price"], m["total_price_plus_bdi"]}
}

func TestSyntheticReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, bud+"/"+f.id+"/synthetic"

	r := h.Do("GET", path, tok, "")
	checkStatus(t, r, "synthetic", 200)
	list, ok := decode(t, r.Body).([]any)
	if !ok {
		t.Fatalf("not an array:\n%s", r.Body)
	}
	l11, l12, l2 := lineFig("113.33", "120.5"), lineFig("134.33", "10"), lineFig("2.62", "1000")
	s := func(d decimal.Decimal) string { return d.StringFixed(2) }
	line := func(n, kind, bank string, month any, code, unit, qty string, x fig) row {
		return row{n, kind, bank, month, code, unit, qty, s(x.price), s(x.priceBDI), s(x.total), s(x.totalBDI)}
	}
	total, withBDI := l11.total.Add(l12.total).Add(l2.total), l11.totalBDI.Add(l12.totalBDI).Add(l2.totalBDI)
	want := []row{
		{"1", "stage", nil, nil, nil, nil, nil, nil, nil, s(l11.total.Add(l12.total)), s(l11.totalBDI.Add(l12.totalBDI))},
		line("1.1", "composition", "SINAPI", "08/2026", "89306", "M2", "120.5", l11),
		line("1.2", "composition", "MYBASE", nil, "ALV-001", "M2", "10", l12),
		line("2", "resource", "SINAPI", "08/2026", "34586", "UN", "1000", l2),
		{nil, "total", nil, nil, nil, nil, nil, nil, nil, s(total), s(withBDI)},
	}
	var got []row
	for _, it := range list {
		got = append(got, rowOf(it.(map[string]any)))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// By hand: 134.33 × 1.25 = 167.9125 → 167.91, × 10 = 1679.10.
	if got[2].PriceBDI != "167.91" || got[2].TotalBDI != "1679.10" || got[4].Total != "17619.56" {
		t.Errorf("ALV-001 %v, footer %v", got[2], got[4])
	}
	foot := list[4].(map[string]any)
	if foot["descr"] != "Total" || foot["weight"] != "100.00" {
		t.Errorf("footer %v", foot)
	}
	if w := list[1].(map[string]any)["weight"]; w != l11.total.Shift(2).DivRound(total, 2).StringFixed(2) {
		t.Errorf("weight of 1.1: %v", w)
	}

	// CSV.
	for _, r := range []*apitest.Response{
		h.Do("GET", path+"?format=csv", tok, ""),
		h.Do("GET", path, tok, "", "Accept", "text/csv"),
	} {
		recs := csvRecords(t, r, "orcamento-ORC-001-sintetico.csv")
		if len(recs) != 1+4+3 {
			t.Fatalf("%d records, want header + 4 rows + 3 footer rows", len(recs))
		}
		if r := recs[3]; r[0] != "1.2" || r[2] != "MYBASE" || r[4] != "ALV-001" || r[8] != "134,33" || r[11] != "1679,10" {
			t.Errorf("row 1.2 %q", r)
		}
		if r := recs[len(recs)-1]; r[5] != "Total com BDI" || r[10] != strings.Replace(s(withBDI), ".", ",", 1) {
			t.Errorf("last footer row %q", r)
		}
	}
	// The CSV for a spreadsheet: item numbers and codes as text formulas,
	// figures as in the plain file.
	recs := csvRecords(t, h.Do("GET", path+"?format=csv-excel", tok, ""), "orcamento-ORC-001-sintetico.csv")
	if r := recs[3]; r[0] != `="1.2"` || r[2] != "MYBASE" || r[4] != `="ALV-001"` || r[8] != "134,33" || r[11] != "1679,10" {
		t.Errorf("row 1.2 for a spreadsheet %q", r)
	}
	checkError(t, call(t, h, "GET", path+"?format=pdf", tok, "", 400), "format")
	checkError(t, call(t, h, "GET", path, f.other.Token, "", 404))
	checkError(t, call(t, h, "GET", bud+"/nope/synthetic", tok, "", 404))
	checkError(t, call(t, h, "GET", path, "", "", 401))
}

// csvRecords checks a CSV export and returns its records.
func csvRecords(t *testing.T, r *apitest.Response, filename string) [][]string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8; header=present" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.Header.Get("Content-Disposition"); cd != "attachment; filename="+filename {
		t.Errorf("Content-Disposition %q", cd)
	}
	if !bytes.HasPrefix(r.Body, []byte("\xef\xbb\xbf")) {
		t.Fatal("no byte order mark")
	}
	cr := csv.NewReader(bytes.NewReader(r.Body[3:]))
	cr.Comma = ';'
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("not CSV with ';': %v", err)
	}
	return recs
}

func TestAnalyticReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, bud+"/"+f.id+"/analytical_with_unit_price"

	r := h.Do("GET", path, tok, "")
	checkStatus(t, r, "analytic", 200)
	list := decode(t, r.Body).([]any)
	if len(list) != 5 {
		t.Fatalf("%d rows, want 4 and the footer", len(list))
	}
	// 1.2 is the own composition ALV-001: SINAPI 89306 (opened into its
	// published structure) and R1.
	own := list[2].(map[string]any)
	items := own["items"].([]any)
	if len(items) != 2 {
		t.Fatalf("ALV-001 items %v", items)
	}
	c := items[0].(map[string]any)
	if c["kind"] != "composition" || c["code"] != "89306" || c["base"] != "SINAPI" || c["base_version"] != "08/2026" ||
		c["coefficient"] != "1" || c["price"] != "113.33" || c["total_price"] != "113.33" || c["type"] != nil || len(c["items"].([]any)) != 6 {
		t.Errorf("89306 in ALV-001: %v", c)
	}
	res := items[1].(map[string]any)
	if res["kind"] != "resource" || res["code"] != "R1" || res["base"] != "MYBASE" || res["base_version"] != nil ||
		res["type"] != "4" || res["coefficient"] != "2" || res["price"] != "10.50" || res["total_price"] != "21.00" {
		t.Errorf("R1 in ALV-001: %v", res)
	}
	us := own["unit_summary"].(map[string]any)
	if us["material"] == nil || own["summary"] != nil {
		t.Errorf("ALV-001 summaries: unit %v, summary %v", us, own["summary"])
	}
	if stage := list[0].(map[string]any); stage["unit_summary"] != nil || len(stage["items"].([]any)) != 0 {
		t.Errorf("stage row %v", stage)
	}
	foot := list[4].(map[string]any)
	sum := foot["summary"].(map[string]any)
	if foot["kind"] != "total" || foot["total_price"] != "17619.56" || sum["total"] == nil {
		t.Errorf("footer %v", foot)
	}
	parts := dec(sum["labor"].(string)).Add(dec(sum["material"].(string))).Add(dec(sum["equipment"].(string))).Add(dec(sum["services"].(string)))
	if parts.StringFixed(2) != sum["total"] {
		t.Errorf("summary %v does not add up", sum)
	}

	recs := csvRecords(t, h.Do("GET", path+"?format=csv", tok, ""), "orcamento-ORC-001-analitico.csv")
	// Header; 1, 1.1 and its 6 items; 1.2, its 2 items and the 6 of
	// 89306 inside it; 2; 3 totals; 4 categories.
	if len(recs) != 1+(1+1+6)+(1+2+6)+1+3+4 {
		t.Fatalf("%d records", len(recs))
	}
	if r := recs[10]; r[0] != "1.2" || r[1] != "1" || r[5] != "89306" {
		t.Errorf("first item of 1.2: %q", r)
	}
	if r := recs[11]; r[0] != "1.2" || r[1] != "2" || r[5] != "88316" {
		t.Errorf("first item of 89306 inside 1.2: %q", r)
	}
	checkError(t, call(t, h, "GET", path, f.other.Token, "", 404))
}
