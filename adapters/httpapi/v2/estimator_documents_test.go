package v2_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
	"github.com/xuri/excelize/v2"
)

// brlText writes an API amount ("26817.46") as the PDF does ("26.817,46").
func brlText(s string) string {
	i, f, _ := strings.Cut(s, ".")
	var sb strings.Builder
	for k, c := range i {
		if k > 0 && (len(i)-k)%3 == 0 {
			sb.WriteByte('.')
		}
		sb.WriteRune(c)
	}
	return sb.String() + "," + f
}

// The synthetic report as a workbook: every footer figure is a formula
// whose cached value is the API's total and which excelize recomputes to
// the same value; lines apply the BDI by formula; the BDI sheet computes
// the rate from its components.
func TestSyntheticXLSX(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	expect(t, h.Do("PATCH", budgets+"/"+f.id+"/bdi", tok,
		`{"work_type":"buildings","bdi_components":{"ac":4,"s":0.8,"r":1.27,"df":1.23,"l":7.4,"taxes":5.65},"supply_bdi_components":{"ac":3.45,"s":0.48,"r":0.85,"df":0.85,"l":5.11,"taxes":3.65},"supply_lines":["n5"]}`), 200)
	a := attrs(t, expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200))

	r := h.Do("GET", budgets+"/"+f.id+"/reports/synthetic.xlsx", tok, "", "Accept", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/vnd.openxmlformats") {
		t.Fatalf("xlsx: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	const sh = "Sintético"
	rows, err := x.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	check := func(cell, wantValue, formulaPrefix string) {
		t.Helper()
		// The cached value is the API's figure. (excelize's own formula
		// engine is not used to recompute sums: its TRUNC leaves some
		// products such as 155.85 × 33.25 = 5182.0125 untruncated.)
		v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
		fm, _ := x.GetCellFormula(sh, cell)
		if d(v).StringFixed(2) != wantValue || !strings.HasPrefix(fm, formulaPrefix) {
			t.Errorf("%s: cached %q formula %q; want %s from %s…", cell, v, fm, wantValue, formulaPrefix)
		}
	}
	var totalRow int
	for i, row := range rows {
		if len(row) > 5 && row[5] == "Total sem BDI" {
			totalRow = i + 1
		}
	}
	if totalRow == 0 {
		t.Fatalf("no footer in %v", rows)
	}
	check(fmt.Sprintf("K%d", totalRow), num(t, a["total"]), "SUMIF(")
	check(fmt.Sprintf("K%d", totalRow+1), num(t, a["bdi_value"]), "K")
	check(fmt.Sprintf("K%d", totalRow+2), num(t, a["total_with_bdi"]), "SUMIF(")
	// Line 1.1 (row 10): unit price with BDI by formula on the BDI cell;
	// line 2.1 (the supply line) on the differentiated BDI cell.
	for _, c := range []struct{ cell, prefix string }{{"J10", "TRUNC(I10*(1+$C$5/100),2)"}, {"L10", "TRUNC(J10*H10,2)"}, {"J13", "TRUNC(I13*(1+$C$6/100),2)"}} {
		fm, _ := x.GetCellFormula(sh, c.cell)
		v, _ := x.GetCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		calc, _ := x.CalcCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		if fm != c.prefix || d(calc).StringFixed(2) != d(v).StringFixed(2) {
			t.Errorf("%s: formula %q, cached %s, recomputed %s", c.cell, fm, v, calc)
		}
	}
	// The BDI sheet: the rate from its components.
	bdiRows, _ := x.GetRows("BDI")
	found := false
	for i, row := range bdiRows {
		if len(row) > 2 && strings.HasPrefix(row[0], "BDI (%) =") {
			cell := fmt.Sprintf("C%d", i+1)
			fm, _ := x.GetCellFormula("BDI", cell)
			calc, _ := x.CalcCellValue("BDI", cell, excelize.Options{RawCellValue: true})
			if v, _ := x.GetCellValue("BDI", cell, excelize.Options{RawCellValue: true}); (v == "22.23" || v == "15.28") && strings.HasPrefix(fm, "ROUND(") && d(calc).Equal(d(v)) {
				found = true
			} else {
				t.Errorf("BDI rate cell %s: %q %q %q", cell, v, fm, calc)
			}
		}
	}
	if !found {
		t.Errorf("no BDI rate formula in %v", bdiRows)
	}
}

// The PDF of a frozen version: valid (read back by a PDF parser), with the
// company, the budget and the version's hash and page numbers on every
// page, and the total.
func TestSyntheticPDF(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	v := attrs(t, expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201))
	hash := str(v["hash"])
	r := h.Do("GET", budgets+"/"+f.id+"/versions/1/reports/synthetic.pdf", tok, "", "Accept", "application/pdf")
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("pdf: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	rd, err := pdf.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatalf("not a PDF: %v", err)
	}
	n := rd.NumPage()
	if n < 1 {
		t.Fatalf("%d pages", n)
	}
	var all strings.Builder
	for i := 1; i <= n; i++ {
		txt, err := rd.Page(i).GetPlainText(nil)
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		all.WriteString(txt)
		for _, want := range []string{"Construtora Alfa", "ORC-001", hash, fmt.Sprintf("Página %d de %d", i, n), "SINAPI MG 08/2026"} {
			if !strings.Contains(txt, want) {
				t.Errorf("page %d lacks %q:\n%s", i, want, txt)
			}
		}
	}
	if !strings.Contains(all.String(), brlText(num(t, v["total_with_bdi"]))) {
		t.Errorf("the PDF lacks the total with BDI %s", brlText(num(t, v["total_with_bdi"])))
	}
	// The same version, asked again, is the same file.
	again := h.Do("GET", budgets+"/"+f.id+"/versions/1/reports/synthetic.pdf", tok, "", "Accept", "application/pdf")
	if !bytes.Equal(again.Body, r.Body) {
		t.Errorf("the version's PDF changed between two requests")
	}
}
