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

// pdfPages reads a PDF back (a parser, not the writer) and returns the
// text of each page; it fails the test when the file is not a PDF or has no
// page.
func pdfPages(t *testing.T, body []byte) []string {
	t.Helper()
	rd, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a PDF: %v", err)
	}
	if rd.NumPage() < 1 {
		t.Fatalf("%d pages", rd.NumPage())
	}
	out := make([]string, rd.NumPage())
	for i := range out {
		if out[i], err = rd.Page(i + 1).GetPlainText(nil); err != nil {
			t.Fatalf("page %d: %v", i+1, err)
		}
	}
	return out
}

// The synthetic report as a workbook: every footer figure is a formula
// whose cached value is the API's total; the supply line applies the
// differentiated BDI; the BDI sheet has the rates of the components sent.
// The workbook's own rules (each line's formulas, the rate's formula from
// its parts) are tested on the renderer (adapters/reports).
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
	// Line 2.1 (row 13), the supply line, on the differentiated BDI cell.
	for _, c := range []struct{ cell, prefix string }{{"J13", "TRUNC(I13*(1+$C$6/100),2)"}} {
		fm, _ := x.GetCellFormula(sh, c.cell)
		v, _ := x.GetCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		calc, _ := x.CalcCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		if fm != c.prefix || d(calc).StringFixed(2) != d(v).StringFixed(2) {
			t.Errorf("%s: formula %q, cached %s, recomputed %s", c.cell, fm, v, calc)
		}
	}
	// The BDI sheet: the rates of the components sent.
	bdiRows, _ := x.GetRows("BDI")
	found := false
	for i, row := range bdiRows {
		if len(row) > 2 && strings.HasPrefix(row[0], "BDI (%) =") {
			cell := fmt.Sprintf("C%d", i+1)
			if v, _ := x.GetCellValue("BDI", cell, excelize.Options{RawCellValue: true}); v == "22.23" || v == "15.28" {
				found = true
			} else {
				t.Errorf("BDI rate cell %s: %q", cell, v)
			}
		}
	}
	if !found {
		t.Errorf("no BDI rate in %v", bdiRows)
	}
}

// The PDF of a frozen version: valid (read back by a PDF parser), with the
// company, the budget and the version's hash on every page, and the total.
// The page numbers and the layout are tested on the renderer
// (adapters/reports).
func TestSyntheticPDF(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	v := attrs(t, expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201))
	hash := str(v["hash"])
	r := h.Do("GET", budgets+"/"+f.id+"/versions/1/reports/synthetic.pdf", tok, "", "Accept", "application/pdf")
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("pdf: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	pages := pdfPages(t, r.Body)
	n := len(pages)
	var all strings.Builder
	for i := 1; i <= n; i++ {
		txt := pages[i-1]
		all.WriteString(txt)
		for _, want := range []string{"Construtora Alfa", "ORC-001", hash, "SINAPI MG 08/2026"} {
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

// The analytic report and the ABC curve as workbooks and PDFs, of the
// budget and of a frozen version: the workbook's cached totals are the JSON
// report's, by the formulas the sheet documents; the PDF is valid, shows
// the JSON report's totals and, for a version, its hash on every page.
func TestAnalyticABCDocuments(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	expect(t, h.Do("PATCH", budgets+"/"+f.id+"/bdi", tok,
		`{"work_type":"buildings","bdi_components":{"ac":4,"s":0.8,"r":1.27,"df":1.23,"l":7.4,"taxes":5.65},"supply_bdi":12.5,"supply_lines":["n5"]}`), 200)
	v := attrs(t, expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201))
	hash := str(v["hash"])
	const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	// footerCell finds the row whose column col (0-based) is label and
	// returns the cell of column fig on it.
	footerCell := func(t *testing.T, rows [][]string, col int, label, fig string) string {
		t.Helper()
		for i, row := range rows {
			if len(row) > col && row[col] == label {
				return fmt.Sprintf("%s%d", fig, i+1)
			}
		}
		t.Fatalf("no row %q", label)
		return ""
	}
	for _, base := range []string{budgets + "/" + f.id, budgets + "/" + f.id + "/versions/1"} {
		for _, rep := range []string{"analytic", "abc"} {
			t.Run(base+"/"+rep, func(t *testing.T) {
				meta, _ := expect(t, h.Do("GET", base+"/reports/"+rep, tok, ""), 200)["meta"].(obj)
				r := h.Do("GET", base+"/reports/"+rep+".xlsx", tok, "", "Accept", xlsx)
				if r.Status != 200 || r.Header.Get("Content-Type") != xlsx {
					t.Fatalf("xlsx: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
				}
				x, err := excelize.OpenReader(bytes.NewReader(r.Body))
				if err != nil {
					t.Fatal(err)
				}
				sh := map[string]string{"analytic": "Analítico", "abc": "Curva ABC"}[rep]
				rows, err := x.GetRows(sh)
				if err != nil {
					t.Fatal(err)
				}
				check := func(cell, want, formulaPrefix string) {
					t.Helper()
					v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
					fm, _ := x.GetCellFormula(sh, cell)
					if v == "" || d(v).StringFixed(2) != want || !strings.HasPrefix(fm, formulaPrefix) {
						t.Errorf("%s: cached %q formula %q; want %s from %s…", cell, v, fm, want, formulaPrefix)
					}
				}
				var totals []string
				if rep == "analytic" {
					check(footerCell(t, rows, 5, "Total sem BDI", "K"), num(t, meta["total"]), "SUMIF(")
					check(footerCell(t, rows, 5, "Total com BDI", "K"), num(t, meta["total_with_bdi"]), "SUMIF(")
					summary, _ := meta["summary"].(obj)
					check(footerCell(t, rows, 5, "Custo direto pelos insumos", "K"), num(t, summary["total"]), "SUM(")
					// Items follow their line: more rows than the synthetic
					// report's, none of them flagged in column N.
					if n := len(rows); n < 9+int(d(num(t, meta["rows"])).IntPart())+1 {
						t.Errorf("%d rows: no items under the lines", n)
					}
					totals = []string{num(t, meta["total"]), num(t, meta["total_with_bdi"])}
				} else {
					check(footerCell(t, rows, 4, "Total", "J"), num(t, meta["total"]), "SUM(")
					// The last ranked row's cumulative percent is 100.00 by
					// its formula.
					n := 9 + int(d(num(t, meta["rows"])).IntPart())
					check(fmt.Sprintf("L%d", n), "100.00", "IF(")
					classes, _ := meta["classes"].(obj)
					a, _ := classes["A"].(obj)
					check(footerCell(t, rows, 4, fmt.Sprintf("Classe A (%s itens)", a["count"]), "J"), num(t, a["total"]), "SUMIF(")
					totals = []string{num(t, meta["total"])}
				}
				if bdi, _ := x.GetRows("BDI"); len(bdi) == 0 {
					t.Errorf("no BDI sheet")
				}

				r = h.Do("GET", base+"/reports/"+rep+".pdf", tok, "", "Accept", "application/pdf")
				if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
					t.Fatalf("pdf: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
				}
				pages := pdfPages(t, r.Body)
				var all strings.Builder
				for i, txt := range pages {
					all.WriteString(txt)
					want := []string{"Construtora Alfa", "ORC-001"}
					if strings.Contains(base, "/versions/") {
						want = append(want, hash)
					} else if strings.Contains(txt, hash) {
						t.Errorf("page %d of the live budget shows the version's hash", i)
					}
					for _, w := range want {
						if !strings.Contains(txt, w) {
							t.Errorf("page %d lacks %q:\n%s", i, w, txt)
						}
					}
				}
				for _, tot := range totals {
					if !strings.Contains(all.String(), brlText(tot)) {
						t.Errorf("the PDF lacks the total %s", brlText(tot))
					}
				}
			})
		}
	}
	// abcLimits is checked as on the JSON report.
	if r := h.Do("GET", budgets+"/"+f.id+"/reports/abc.xlsx?abcLimits=90,10", tok, "", "Accept", xlsx); r.Status != 400 {
		t.Errorf("bad abcLimits: %d %s", r.Status, r.Body)
	}
	// Another company's budget is 404.
	if r := h.Do("GET", budgets+"/"+f.id+"/reports/analytic.pdf", f.other.Token, "", "Accept", "application/pdf"); r.Status != 404 {
		t.Errorf("another company's budget: %d", r.Status)
	}
}

// TestDocumentsCarryProfile: the company profile, the budget's ART and
// issue date reach the documents served over HTTP: the PDF's every page and
// the workbook's header name the company, its CNPJ, the engineer and the
// ART; a version's documents keep the ART and date frozen with it, and
// carry the version in their file name.
func TestDocumentsCarryProfile(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	expect(t, h.Do("PATCH", profile, tok, `{"legal_name":"Alfa Engenharia Ltda","cnpj":"11222333000181",`+
		`"address":"Rua da Bahia, 1000, Belo Horizonte/MG","engineer_name":"Ana Souza","engineer_registry":"CREA-MG 123456/D"}`), 200)
	path := budgets + "/" + f.id
	expect(t, h.Do("PATCH", path, tok, `{"art":"MG20260001111","issue_date":"2026-11-02"}`), 200)
	expect(t, h.Do("POST", path+"/versions", tok, ""), 201)
	expect(t, h.Do("PATCH", path, tok, `{"art":"MG20260002222","issue_date":"2026-11-28"}`), 200)

	for _, c := range []struct{ prefix, art, date, name string }{
		{path, "MG20260002222", "28/11/2026", "sintetico.pdf"},
		{path + "/versions/1", "MG20260001111", "02/11/2026", "-v1-sintetico.pdf"},
	} {
		want := []string{"Alfa Engenharia Ltda", "11.222.333/0001-81", "Ana Souza", "CREA-MG 123456/D", c.art, c.date}
		r := h.Do("GET", c.prefix+"/reports/synthetic.pdf", tok, "", "Accept", "application/pdf")
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), c.name) {
			t.Fatalf("%s pdf: %d %s %s", c.prefix, r.Status, r.Header.Get("Content-Disposition"), r.Body)
		}
		for i, page := range pdfPages(t, r.Body) {
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("%s pdf page %d lacks %q", c.prefix, i+1, w)
				}
			}
		}
		r = h.Do("GET", c.prefix+"/reports/synthetic.xlsx", tok, "", "Accept", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		if r.Status != 200 {
			t.Fatalf("%s xlsx: %d %s", c.prefix, r.Status, r.Body)
		}
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := x.GetRows("Sintético")
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, row := range rows {
			all.WriteString(strings.Join(row, "\t") + "\n")
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s xlsx lacks %q", c.prefix, w)
			}
		}
	}
}
