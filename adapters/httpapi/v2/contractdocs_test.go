package v2_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// TestContractDocuments: the boletim and the accumulated statement as
// XLSX and PDF. Every formula cell of the workbooks caches the figure the
// JSON answer gives (each line's quantities and values, the stages'
// subtotals, the totals, retention, readjustment and net), the formulas
// are the documented ones, and the PDFs carry the contract and the totals.
func TestContractDocuments(t *testing.T) {
	h := apitest.New(t)
	u, other := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")
	tok := u.Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	ids := map[string]string{}
	for _, l := range lines {
		ids[str(l["number"])] = str(l["id"])
	}
	// INCC from the base month 08/2026 to its first anniversary: the
	// second measurement, ending in 09/2027, is readjusted.
	expect(t, h.Do("PUT", "/api/public/v2/indexes/INCC", tok, `{"points":[{"month":"08/2026","value":1000},{"month":"08/2027","value":1057.321}]}`), 200)
	for n, m := range []struct{ end, q string }{
		{"2026-09-30", fmt.Sprintf(`{%q:40,%q:3}`, ids["1.1"], ids["2.1"])},
		{"2027-09-30", fmt.Sprintf(`{%q:20.5,%q:2.5,%q:1}`, ids["1.1"], ids["1.2"], ids["2.1"])},
	} {
		expect(t, h.Do("POST", cpath+"/measurements", tok, fmt.Sprintf(`{"period_start":"2026-09-01","period_end":%q,"quantities":%s}`, m.end, m.q)), 201)
		for _, step := range []string{"submit", "approve"} {
			expect(t, h.Do("POST", fmt.Sprintf("%s/measurements/%d/%s", cpath, n+1, step), tok, ""), 200)
		}
	}
	bol := attrs(t, expect(t, h.Do("GET", cpath+"/measurements/2/boletim", tok, ""), 200))
	if bol["readjustment"] == nil {
		t.Fatalf("boletim 2 not readjusted: %v", bol["readjustment_note"])
	}
	// Independently: 09/2027 is 13 months after the base 08/2026, so I is
	// the anniversary 08/2027's: factor trunc(1057.321 / 1000 − 1, 4) =
	// 0.0573, readjustment round(period total × 0.0573, 2), net = total −
	// trunc(5% of it) + readjustment.
	pt := d(num(t, bol["period_total"]))
	wantRj := pt.Mul(d("0.0573")).Round(2)
	wantNet := pt.Sub(pt.Mul(d("0.05")).Truncate(2)).Add(wantRj)
	if got := d(num(t, bol["readjustment"])); !got.Equal(wantRj) || num(t, bol["readjustment_factor"]) != "0.0573" || !d(num(t, bol["net"])).Equal(wantNet) {
		t.Errorf("boletim 2: readjustment %v factor %v net %v; want %s, 0.0573, %s", bol["readjustment"], bol["readjustment_factor"], bol["net"], wantRj, wantNet)
	}

	bpath := cpath + "/measurements/2/boletim"
	errorsOf(t, h.Do("GET", bpath+".xlsx", tok, "", "Accept", "application/json"), 406)
	expect(t, h.Do("GET", bpath+".xlsx", other.Token, "", "Accept", xlsxMedia), 404)
	r := h.Do("GET", bpath+".xlsx", tok, "", "Accept", xlsxMedia)
	if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "orcamento-ORC-CT-v1-boletim-2.xlsx") {
		t.Fatalf("boletim XLSX %d %q %.200s", r.Status, r.Header.Get("Content-Disposition"), r.Body)
	}
	dump("boletim.xlsx", r.Body)
	x, err := excelize.OpenReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	const sh = "Boletim"
	rows, _ := x.GetRows(sh)
	rowOf := func(col int, text string) int {
		for i, row := range rows {
			if len(row) > col && strings.HasPrefix(row[col], text) {
				return i + 1
			}
		}
		t.Fatalf("no row with %q in column %d", text, col)
		return 0
	}
	cached := func(cell string) decimal.Decimal {
		v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
		if v == "" {
			return decimal.Zero
		}
		return d(v)
	}
	formula := func(cell string) string { fm, _ := x.GetCellFormula(sh, cell); return fm }
	want := func(cell string, value any) {
		t.Helper()
		if got, w := cached(cell), d(num(t, value)); !got.Equal(w) {
			t.Errorf("%s caches %s; the API's figure is %s (formula %q)", cell, got, w, formula(cell))
		}
	}
	cols := map[string]string{"contracted": "F", "previous": "G", "this_period": "H", "accumulated": "I", "balance": "J",
		"contracted_value": "K", "previous_value": "L", "this_value": "M", "accumulated_value": "N", "balance_value": "O"}
	for _, row := range bol["rows"].([]any) {
		row := row.(obj)
		n := rowOf(0, str(row["number"]))
		for k, col := range cols {
			want(fmt.Sprintf("%s%d", col, n), row[k])
		}
		for col, fm := range map[string]string{"I": fmt.Sprintf("G%d+H%d", n, n), "M": fmt.Sprintf("N%d-L%d", n, n),
			"N": fmt.Sprintf("TRUNC(E%d*I%d,2)", n, n), "O": fmt.Sprintf("K%d-N%d", n, n)} {
			if got := formula(fmt.Sprintf("%s%d", col, n)); got != fm {
				t.Errorf("%s%d: formula %q, want %q", col, n, got, fm)
			}
		}
	}
	for _, st := range bol["stages"].([]any) {
		st := st.(obj)
		n := rowOf(2, "Subtotal da etapa "+str(st["number"]))
		for _, k := range []string{"contracted_value", "previous_value", "this_value", "accumulated_value", "balance_value"} {
			want(fmt.Sprintf("%s%d", cols[k], n), st[k])
			if !strings.HasPrefix(formula(fmt.Sprintf("%s%d", cols[k], n)), "SUM(") {
				t.Errorf("subtotal %s: %q", cols[k], formula(fmt.Sprintf("%s%d", cols[k], n)))
			}
		}
	}
	tot := rowOf(2, "Total")
	for _, k := range []string{"contracted_value", "previous_value", "this_value", "accumulated_value", "balance_value"} {
		want(fmt.Sprintf("%s%d", cols[k], tot), bol["totals"].(obj)[k])
	}
	for label, k := range map[string]string{"Valor do período": "period_total", "Retenção": "retention", "Reajuste": "readjustment", "Valor líquido": "net"} {
		want(fmt.Sprintf("M%d", rowOf(2, label)), bol[k])
	}
	if fm := formula(fmt.Sprintf("M%d", rowOf(2, "Reajuste"))); !strings.HasPrefix(fm, "ROUND(M") || !strings.Contains(fm, "*0.0573,2)") {
		t.Errorf("readjustment formula %q", fm)
	}

	pr := h.Do("GET", bpath+".pdf", tok, "", "Accept", "application/pdf")
	dump("boletim.pdf", pr.Body)
	text := strings.Join(pdfPages(t, pr.Body), "\n")
	if pr.Status != 200 || !strings.Contains(text, "Boletim de medição nº 2") || !strings.Contains(text, "CT-012/2026") ||
		!strings.Contains(text, brlText(num(t, bol["net"]))) || !strings.Contains(text, "0.0573") {
		t.Errorf("boletim PDF %d:\n%.1500s", pr.Status, text)
	}

	// The statement.
	st := attrs(t, expect(t, h.Do("GET", cpath+"/statement", tok, ""), 200))
	r = h.Do("GET", cpath+"/statement.xlsx", tok, "", "Accept", xlsxMedia)
	if r.Status != 200 {
		t.Fatalf("statement XLSX %d %.200s", r.Status, r.Body)
	}
	dump("statement.xlsx", r.Body)
	if x, err = excelize.OpenReader(bytes.NewReader(r.Body)); err != nil {
		t.Fatal(err)
	}
	const ssh = "Medições"
	rows, _ = x.GetRows(ssh)
	cachedS := func(cell string) decimal.Decimal {
		v, _ := x.GetCellValue(ssh, cell, excelize.Options{RawCellValue: true})
		return d(v)
	}
	for _, row := range st["rows"].([]any) {
		row := row.(obj)
		n := 0
		for i, rr := range rows {
			if len(rr) > 0 && rr[0] == str(row["number"]) {
				n = i + 1
			}
		}
		values := row["values"].([]any)
		for k, v := range values {
			if got := cachedS(fmt.Sprintf("%c%d", 'G'+k, n)); !got.Equal(d(num(t, v))) {
				t.Errorf("line %s measurement %d: %s, want %v", row["number"], k+1, got, v)
			}
		}
		for col, k := range map[string]string{"F": "contracted_value", "I": "accumulated_value", "J": "balance_value"} {
			if got := cachedS(fmt.Sprintf("%s%d", col, n)); !got.Equal(d(num(t, row[k]))) {
				t.Errorf("line %s %s: %s, want %v", row["number"], k, got, row[k])
			}
		}
	}
	total := 0
	for i, rr := range rows {
		if len(rr) > 2 && rr[2] == "Total" {
			total = i + 1
		}
	}
	for k, v := range st["totals"].([]any) {
		if got := cachedS(fmt.Sprintf("%c%d", 'G'+k, total)); !got.Equal(d(num(t, v))) {
			t.Errorf("measurement %d total %s, want %v", k+1, got, v)
		}
		if got := cachedS(fmt.Sprintf("%c%d", 'G'+k, total+1)); !got.Equal(d(num(t, st["retentions"].([]any)[k]))) {
			t.Errorf("measurement %d retention %s", k+1, got)
		}
	}
	for col, k := range map[string]string{"F": "contracted", "I": "accumulated", "J": "balance"} {
		if got := cachedS(fmt.Sprintf("%s%d", col, total)); !got.Equal(d(num(t, st[k]))) {
			t.Errorf("statement %s: %s, want %v", k, got, st[k])
		}
	}
	pr = h.Do("GET", cpath+"/statement.pdf", tok, "", "Accept", "application/pdf")
	dump("statement.pdf", pr.Body)
	text = strings.Join(pdfPages(t, pr.Body), "\n")
	if pr.Status != 200 || !strings.Contains(text, "Medições acumuladas") || !strings.Contains(text, brlText(num(t, st["balance"]))) {
		t.Errorf("statement PDF %d:\n%.1500s", pr.Status, text)
	}

	// The readjustment statement: per approved measurement the boletin's
	// own readjustment (the first within the base year: factor 0).
	rj := attrs(t, expect(t, h.Do("GET", cpath+"/readjustment", tok, ""), 200))
	rrows := rj["rows"].([]any)
	if len(rrows) != 2 || !d(num(t, rrows[0].(obj)["factor"])).IsZero() || num(t, rrows[1].(obj)["factor"]) != "0.0573" ||
		!d(num(t, rrows[1].(obj)["amount"])).Equal(d(num(t, bol["readjustment"]))) || !d(num(t, rrows[1].(obj)["value"])).Equal(d(num(t, bol["period_total"]))) {
		t.Errorf("readjustment statement %v", rj)
	}
	cr := h.Do("GET", cpath+"/readjustment?format=csv", tok, "")
	if recs, err := csv.NewReader(bytes.NewReader(cr.Body)).ReadAll(); err != nil || len(recs) != 4 || recs[2][7] != "0.0573" || recs[3][0] != "total" {
		t.Errorf("readjustment CSV %v %q", err, recs)
	}
	r = h.Do("GET", cpath+"/readjustment.xlsx", tok, "", "Accept", xlsxMedia)
	dump("readjustment.xlsx", r.Body)
	if x, err = excelize.OpenReader(bytes.NewReader(r.Body)); err != nil {
		t.Fatal(err)
	}
	for i, rr := range rrows {
		cell := fmt.Sprintf("I%d", 12+i)
		v, _ := x.GetCellValue("Reajuste", cell, excelize.Options{RawCellValue: true})
		fm, _ := x.GetCellFormula("Reajuste", cell)
		if !d(v).Equal(d(num(t, rr.(obj)["amount"]))) || fm != fmt.Sprintf("ROUND(C%d*H%d,2)", 12+i, 12+i) {
			t.Errorf("readjustment %s: %s %q; want %v", cell, v, fm, rr.(obj)["amount"])
		}
	}
	if v, _ := x.GetCellValue("Reajuste", "I14", excelize.Options{RawCellValue: true}); !d(v).Equal(d(num(t, rj["total_amount"]))) {
		t.Errorf("readjustment total %s, want %v", v, rj["total_amount"])
	}
	pr = h.Do("GET", cpath+"/readjustment.pdf", tok, "", "Accept", "application/pdf")
	dump("readjustment.pdf", pr.Body)
	if text := strings.Join(pdfPages(t, pr.Body), "\n"); pr.Status != 200 || !strings.Contains(text, "Reajustamento") || !strings.Contains(text, brlText(num(t, rj["total_amount"]))) {
		t.Errorf("readjustment PDF %d:\n%.1000s", pr.Status, text)
	}
	// Without the company's series: 404 naming it.
	if r := h.Do("DELETE", "/api/public/v2/indexes/INCC", tok, ""); r.Status != 204 {
		t.Fatalf("delete INCC: %d", r.Status)
	}
	if r := h.Do("GET", cpath+"/readjustment", tok, ""); r.Status != 404 || !strings.Contains(string(r.Body), "no index INCC") {
		t.Errorf("without INCC: %d %s", r.Status, r.Body)
	}
}
