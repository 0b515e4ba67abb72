package v2_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The schedule of the sample budget (SINAPI MG 08/2026; stages n1
// Alvenaria and n4 Materiais): written, read, its table computed again
// here from the synthetic report's stage totals with BDI (each cell the
// accumulated value cut by truncation at its end less at its start), as
// JSON:API, CSV and SVG; edits that break it make it stale and its table
// 409; bad input 422 naming every field; another company's budget 404.
func TestSchedule(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	path := budgets + "/" + f.id + "/schedule"
	errorsOf(t, h.Do("GET", path, tok, ""), 404) // none yet
	body := `{"data":{"type":"schedules","id":"` + f.id + `","attributes":{"start":"09/2026","periods":3,
		"rows":[{"node_id":"n1","shares":[33.33,33.33,33.34]},{"node_id":"n4","shares":[0,50,50]}]}}}`
	doc := expect(t, h.Do("PUT", path, tok, body), 200)
	a := data(t, doc)["attributes"].(obj)
	if a["stale"] != false || num(t, a["periods"]) != "3" || a["start"] != "09/2026" || a["period_days"] != nil {
		t.Errorf("schedule %v", a)
	}
	expect(t, h.Do("GET", path, tok, ""), 200)

	syn := expect(t, h.Do("GET", budgets+"/"+f.id+"/reports/synthetic", tok, ""), 200)
	stage := map[string]decimal.Decimal{}
	for _, row := range syn["data"].([]any) {
		o := row.(obj)
		at := o["attributes"].(obj)
		if at["kind"] == "stage" {
			stage[at["number"].(string)] = d(num(t, at["total_with_bdi"]))
		}
	}
	total := d(num(t, syn["meta"].(obj)["total_with_bdi"]))
	cut := func(x decimal.Decimal) decimal.Decimal { return x.Truncate(2) }
	p := func(s string) decimal.Decimal { return decimal.RequireFromString(s).Shift(-2) }
	// Each cell: the row's accumulated value cut at the period's end, less
	// the same at its start.
	acc1, acc2 := cut(stage["1"].Mul(p("33.33"))), cut(stage["1"].Mul(p("66.66")))
	half := cut(stage["2"].Mul(p("50")))
	wantRows := [][]decimal.Decimal{
		{acc1, acc2.Sub(acc1), stage["1"].Sub(acc2)},
		{decimal.Zero, half, stage["2"].Sub(half)},
	}
	tab := expect(t, h.Do("GET", path+"/table", tok, ""), 200)
	rows := rowsOf(t, tab, "schedule-rows")
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	periodSum := make([]decimal.Decimal, 3)
	for i, r := range rows {
		cells := r["cells"].([]any)
		for k := range cells {
			got := d(num(t, cells[k]))
			if !got.Equal(wantRows[i][k]) {
				t.Errorf("row %d period %d: %s, want %s", i, k, got, wantRows[i][k])
			}
			periodSum[k] = periodSum[k].Add(got)
		}
	}
	meta := tab["meta"].(obj)
	if got := d(num(t, meta["total"])); !got.Equal(total) {
		t.Errorf("table total %s, the budget's %s", got, total)
	}
	acc := decimal.Zero
	for k, per := range meta["periods"].([]any) {
		pm := per.(obj)
		acc = acc.Add(periodSum[k])
		wantPct := acc.Shift(2).DivRound(total, 2)
		if !d(num(t, pm["total"])).Equal(periodSum[k]) || !d(num(t, pm["accumulated"])).Equal(acc) || !d(num(t, pm["accumulated_percent"])).Equal(wantPct) {
			t.Errorf("period %d: %v, want total %s accumulated %s (%s%%)", k, pm, periodSum[k], acc, wantPct)
		}
	}
	if lbl := meta["periods"].([]any)[2].(obj)["label"]; lbl != "11/2026" {
		t.Errorf("third period %v", lbl)
	}

	recs := csvOf(t, h.Do("GET", path+"/table?format=csv", tok, ""), "orcamento-ORC-001-cronograma.csv")
	if recs[0][4] != "% 09/2026" || recs[len(recs)-1][2] != "Percentual acumulado (%)" || recs[len(recs)-1][8] != "100,00" {
		t.Errorf("CSV header %v, last row %v", recs[0], recs[len(recs)-1])
	}
	// The workbook's cached figures are the table's; the PDF carries its totals.
	xr := h.Do("GET", path+"/table.xlsx", tok, "", "Accept", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	dump("schedule.xlsx", xr.Body)
	if xr.Status != 200 {
		t.Fatalf("XLSX %d %s", xr.Status, xr.Body)
	}
	xf, err := excelize.OpenReader(bytes.NewReader(xr.Body))
	if err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		cell := string(rune('E'+k)) + "10"
		if v, _ := xf.GetCellValue("Cronograma", cell, excelize.Options{RawCellValue: true}); !d(v).Equal(wantRows[0][k]) {
			t.Errorf("XLSX %s caches %s, the API's cell %s", cell, v, wantRows[0][k])
		}
	}
	pr := h.Do("GET", path+"/table.pdf", tok, "", "Accept", "application/pdf")
	if text := strings.Join(pdfPages(t, pr.Body), "\n"); pr.Status != 200 || !strings.Contains(text, brlText(total.StringFixed(2))) {
		t.Errorf("PDF %d without the total %s", pr.Status, brlText(total.StringFixed(2)))
	}
	svg := h.Do("GET", path+"/s-curve.svg", tok, "", "Accept", "image/svg+xml")
	if svg.Status != 200 || strings.Count(string(svg.Body), `class="bar"`) != 3 || !strings.Contains(string(svg.Body), `class="s-curve"`) {
		t.Errorf("SVG %d:\n%.300s", svg.Status, svg.Body)
	}

	// A frozen version's table; then an edit that leaves a line in no row:
	// the schedule is stale, its table 409, the version's still fine.
	expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201)
	expect(t, h.Do("POST", budgets+"/"+f.id+"/nodes", tok, `{"kind":"resource","bank":"SINAPI","code":"34586","quantity":1}`), 201)
	a = data(t, expect(t, h.Do("GET", path, tok, ""), 200))["attributes"].(obj)
	if a["stale"] != true || !strings.Contains(strings.Join(strs(a["problems"]), ";"), "lines in no row") {
		t.Errorf("after adding a top-level line: %v", a)
	}
	stale := h.Do("GET", path+"/table", tok, "")
	errorsOf(t, stale, 409)
	if !strings.Contains(string(stale.Body), "lines in no row") {
		t.Errorf("stale table: %s", stale.Body)
	}
	expect(t, h.Do("GET", budgets+"/"+f.id+"/versions/1/schedule/table", tok, ""), 200)

	// Bad input: every error at once, nothing written.
	bad := `{"data":{"type":"schedules","id":"` + f.id + `","attributes":{"start":"2026-09","periods":2,
		"rows":[{"node_id":"n1","shares":[50,49.99]},{"node_id":"n4","shares":[50.005,49.995]}]}}}`
	errs := errorsOf(t, h.Do("PUT", path, tok, bad), 422)
	var ptrs []string
	for _, e := range errs {
		ptrs = append(ptrs, e.Pointer)
	}
	for _, want := range []string{"/data/attributes/start", "/data/attributes/rows/0/shares"} {
		if !strings.Contains(strings.Join(ptrs, " "), want) {
			t.Errorf("errors %v lack %s", ptrs, want)
		}
	}
	if a := data(t, expect(t, h.Do("GET", path, tok, ""), 200))["attributes"].(obj); a["start"] != "09/2026" {
		t.Errorf("a refused schedule was written: %v", a)
	}
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
	errorsOf(t, h.Do("PUT", path, f.other.Token, body), 404)
	if r := h.Do("DELETE", path, tok, ""); r.Status != 204 {
		t.Errorf("DELETE: %d %s", r.Status, r.Body)
	}
	errorsOf(t, h.Do("GET", path, tok, ""), 404)
	// Deleting the budget deletes its schedule (the line added above in
	// a row of its own now).
	expect(t, h.Do("PUT", path, tok, strings.Replace(body, `{"node_id":"n4"`, `{"node_id":"n6","shares":[100,0,0]},{"node_id":"n4"`, 1)), 200)
	if r := h.Do("DELETE", budgets+"/"+f.id, tok, ""); r.Status != 204 {
		t.Fatalf("DELETE budget: %d", r.Status)
	}
	errorsOf(t, h.Do("GET", path, tok, ""), 404)
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
