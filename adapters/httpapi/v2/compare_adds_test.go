package v2_test

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// Comparing two versions whose trees differ lists the line added and the
// line removed besides the one changed, and the lines' differences add up
// to the total's (the residual is zero with the BDI on the unit price); the
// CSV has the same rows, its file named after both versions.
func TestCompareVersionsAddsUp(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.com.br").Token
	bud := create(t, h, budgets, tok, `{"code":"ORC-C","description":"Comparação","location":"MG","bdi":22.23,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Alvenaria","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5},
	    {"kind":"resource","bank":"SINAPI","code":"34649","quantity":100}]}]}`)
	id := str(data(t, bud)["id"])
	path := budgets + "/" + id
	expect(t, h.Do("POST", path+"/versions", tok, ""), 201)
	expect(t, h.Do("POST", path+"/nodes", tok, `{"parent_id":"n1","kind":"resource","bank":"SINAPI","code":"34649","quantity":7}`), 201)
	expect(t, h.Do("DELETE", path+"/nodes/n3", tok, ""), 200)
	expect(t, h.Do("PATCH", path+"/nodes/n2", tok, `{"quantity":130}`), 200)
	expect(t, h.Do("POST", path+"/versions", tok, ""), 201)

	doc := expect(t, h.Do("GET", path+"/versions/1/compare/2", tok, ""), 200)
	changes := map[string]string{}
	sum := decimal.Zero
	for _, x := range doc["data"].([]any) {
		a := x.(obj)["attributes"].(obj)
		changes[str(a["node_id"])] = str(a["change"])
		sum = sum.Add(domain.Dec(num(t, a["total_diff"])))
	}
	if d := cmp.Diff(map[string]string{"n2": "changed", "n3": "removed", "n4": "added"}, changes); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	meta := doc["meta"].(obj)
	res := meta["residual"].(obj)
	if !domain.Dec(num(t, res["before"])).IsZero() || !domain.Dec(num(t, res["after"])).IsZero() {
		t.Errorf("residual with the BDI on the unit price: %v", res)
	}
	if diff := domain.Dec(num(t, meta["diff"])); !sum.Equal(diff) || diff.IsZero() {
		t.Errorf("lines add up to %s, the total's difference is %s", sum, diff)
	}

	r := h.Do("GET", path+"/versions/1/compare/2?format=csv", tok, "")
	if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "orcamento-ORC-C-versoes-1-2.csv") {
		t.Fatalf("CSV: %d %s", r.Status, r.Header.Get("Content-Disposition"))
	}
	cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(r.Body), "\ufeff")))
	cr.Comma, cr.FieldsPerRecord = ';', -1
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	csvSum := decimal.Zero
	for _, row := range rows[1:] {
		if row[0] != "" && row[2] != "" { // a line
			got = append(got, row[2]+" "+row[18])
			csvSum = csvSum.Add(domain.Dec(strings.Replace(row[14], ",", ".", 1)))
		}
	}
	last := rows[len(rows)-1]
	slices.Sort(got)
	if d := cmp.Diff([]string{"34649 excluída", "34649 incluída", "89306 alterada"}, got); d != "" {
		t.Errorf("CSV lines (-want +got):\n%s", d)
	}
	if last[3] != "Total com BDI" || !csvSum.Equal(domain.Dec(strings.Replace(last[14], ",", ".", 1))) {
		t.Errorf("CSV lines add up to %s; last row %q", csvSum, last)
	}
}

// A frozen version's files carry its number in their name (CSV, XLSX and
// PDF), the budget's do not; ?format=csv-excel answers the CSV for a
// spreadsheet (codes as text formulas), and another format is 400.
func TestVersionFilesAndSpreadsheetCSV(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.com.br").Token
	bud := create(t, h, budgets, tok, `{"code":"ORC-N","description":"Nomes","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Alvenaria","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":120.5}]}]}`)
	path := budgets + "/" + str(data(t, bud)["id"])
	expect(t, h.Do("POST", path+"/versions", tok, ""), 201)
	for p, want := range map[string]string{
		path + "/reports/synthetic?format=csv":                  "orcamento-ORC-N-sintetico.csv",
		path + "/versions/1/reports/synthetic?format=csv":       "orcamento-ORC-N-v1-sintetico.csv",
		path + "/versions/1/reports/analytic?format=csv":        "orcamento-ORC-N-v1-analitico.csv",
		path + "/versions/1/reports/abc?format=csv-excel":       "orcamento-ORC-N-v1-curva-abc.csv",
		path + "/versions/1/reports/synthetic.xlsx":             "orcamento-ORC-N-v1-sintetico.xlsx",
		path + "/versions/1/reports/analytic.pdf":               "orcamento-ORC-N-v1-analitico.pdf",
		path + "/reports/synthetic.pdf":                         "orcamento-ORC-N-sintetico.pdf",
		path + "/versions/1/compare/1?format=csv":               "orcamento-ORC-N-versoes-1-1.csv",
		path + "/versions/1/reports/synthetic?format=csv-excel": "orcamento-ORC-N-v1-sintetico.csv",
	} {
		r := h.Do("GET", p, tok, "")
		if r.Status != 200 || !strings.HasSuffix(r.Header.Get("Content-Disposition"), "filename="+want) {
			t.Errorf("GET %s: %d, Content-Disposition %q, want the file %s", p, r.Status, r.Header.Get("Content-Disposition"), want)
		}
	}
	plain := h.Do("GET", path+"/reports/synthetic?format=csv", tok, "")
	excel := h.Do("GET", path+"/reports/synthetic?format=csv-excel", tok, "")
	if !strings.Contains(string(plain.Body), ";89306;") || !strings.Contains(string(excel.Body), `;"=""89306""";`) ||
		!strings.Contains(string(excel.Body), `"=""1.1""";`) || excel.Header.Get("Content-Type") != plain.Header.Get("Content-Type") {
		t.Errorf("CSV\n%s\nfor a spreadsheet\n%s", plain.Body, excel.Body)
	}
	for _, p := range []string{path + "/reports/synthetic?format=excel", path + "/versions/1/compare/1?format=xlsx"} {
		errorsOf(t, h.Do("GET", p, tok, ""), 400)
	}
}
