package reports_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/ledongthuc/pdf"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The client documents (XLSX, PDF) tested on the renderers themselves: a
// report built here, its figures written by hand (truncated, BDI on the
// unit price), is rendered and read back. The HTTP tests check that the
// handlers serve these documents for a budget and a version.

// docBudget is a budget of two stages: a composition line with the BDI of
// 22.23% (from its parts) and a supply line with the differentiated BDI
// of 15.28%.
func docBudget() *domain.Budget {
	return &domain.Budget{
		ID: "b1", Code: "ORC-001", Description: "Casa térrea", Client: "Prefeitura", State: "MG",
		Banks: []domain.BankRef{mg}, BDIMode: domain.BDIOnUnitPrice, WorkType: "buildings",
		BDI:            dec("22.23"),
		BDIParts:       &domain.BDIParts{AC: dec("4"), S: dec("0.8"), R: dec("1.27"), DF: dec("1.23"), L: dec("7.4"), Taxes: dec("5.65")},
		SupplyBDI:      dec("15.28"),
		SupplyBDIParts: &domain.BDIParts{AC: dec("3.45"), S: dec("0.48"), R: dec("0.85"), DF: dec("0.85"), L: dec("5.11"), Taxes: dec("3.65")},
		SupplyNodes:    []string{"n4"},
		UpdatedAt:      time.Date(2026, 8, 20, 12, 0, 0, 0, time.UTC),
	}
}

// docSynthetic is the synthetic report of docBudget, with extra copies of
// the composition line in the first stage (enough rows for a PDF of
// several pages when extra is large).
//
//	1.1 113.33 × 120.5: total trunc(13656.265) = 13656.26; with BDI
//	    trunc(113.33 × 1.2223) = 138.52, × 120.5 = 16691.66
//	2.1 2.62 × 1000 = 2620.00; with BDI trunc(2.62 × 1.1528) = 3.02, × 1000 = 3020.00
func docSynthetic(extra int) *domain.SyntheticReport {
	line := domain.LineFigures{UnitPrice: dec("113.33"), UnitPriceWithBDI: dec("138.52"), Total: dec("13656.26"), TotalWithBDI: dec("16691.66")}
	supply := domain.LineFigures{UnitPrice: dec("2.62"), UnitPriceWithBDI: dec("3.02"), Total: dec("2620.00"), TotalWithBDI: dec("3020.00")}
	n := decimal.NewFromInt(int64(1 + extra))
	stage1 := domain.LineFigures{Total: line.Total.Mul(n), TotalWithBDI: line.TotalWithBDI.Mul(n)}
	total, withBDI := stage1.Total.Add(supply.Total), stage1.TotalWithBDI.Add(supply.TotalWithBDI)
	weight := func(v decimal.Decimal) decimal.Decimal { return v.Shift(2).Div(total).Round(2) }
	rows := []domain.SyntheticRow{{NodeID: "n1", Number: "1", Depth: 1, Kind: domain.NodeStage, Description: "Alvenaria", LineFigures: stage1, Weight: weight(stage1.Total)}}
	for i := 0; i <= extra; i++ {
		rows = append(rows, domain.SyntheticRow{NodeID: fmt.Sprintf("n2-%d", i), Number: fmt.Sprintf("1.%d", i+1), Depth: 2, Kind: domain.NodeComposition,
			Bank: "SINAPI", Month: "08/2026", Code: "89306", Unit: "M2", Quantity: dec("120.5"), Description: "ALVENARIA DE VEDAÇÃO",
			LineFigures: line, Weight: weight(line.Total)})
	}
	rows = append(rows,
		domain.SyntheticRow{NodeID: "n3", Number: "2", Depth: 1, Kind: domain.NodeStage, Description: "Fornecimento", LineFigures: domain.LineFigures{Total: supply.Total, TotalWithBDI: supply.TotalWithBDI}, Weight: weight(supply.Total)},
		domain.SyntheticRow{NodeID: "n4", Number: "2.1", Depth: 2, Kind: domain.NodeResource, Bank: "SINAPI", Month: "08/2026", Code: "34586", Unit: "UN",
			Quantity: dec("1000"), Description: "BLOCO ESTRUTURAL CERAMICO", LineFigures: supply, Weight: weight(supply.Total), Supply: true})
	return &domain.SyntheticReport{Budget: docBudget(), Rows: rows,
		BudgetTotals: domain.BudgetTotals{Total: total, BDIValue: withBDI.Sub(total), TotalWithBDI: withBDI}}
}

// docAnalytic opens docSynthetic's composition lines: 43.5 blocks and 1.2
// hours of a mason (itself opened) per m².
func docAnalytic(extra int) *domain.AnalyticReport {
	syn := docSynthetic(extra)
	items := []domain.AnalyticItem{
		{Kind: domain.KindResource, Bank: "SINAPI", Month: "08/2026", Code: "34586", Description: "BLOCO ESTRUTURAL CERAMICO", Unit: "UN",
			ResourceType: domain.TypeMaterial, Coefficient: dec("43.5"), UnitPrice: dec("2.62"), Partial: dec("113.97")},
		{Kind: domain.KindComposition, Bank: "SINAPI", Month: "08/2026", Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H",
			Coefficient: dec("1.2"), UnitPrice: dec("33.62"), Partial: dec("40.34"), Items: []domain.AnalyticItem{
				{Kind: domain.KindResource, Bank: "SINAPI", Month: "08/2026", Code: "4750", Description: "PEDREIRO", Unit: "H",
					ResourceType: domain.TypeLabor, Coefficient: dec("1"), UnitPrice: dec("25.10"), Partial: dec("25.10")},
			}},
	}
	r := &domain.AnalyticReport{Budget: syn.Budget, BudgetTotals: syn.BudgetTotals,
		Summary: domain.CostSummary{Labor: dec("3000.15"), Material: dec("13276.11")}}
	for _, row := range syn.Rows {
		ar := domain.AnalyticRow{SyntheticRow: row}
		if row.Kind == domain.NodeComposition {
			ar.Items = items
		}
		r.Rows = append(r.Rows, ar)
	}
	return r
}

// docVersion is a frozen version of docBudget.
func docVersion() *domain.BudgetVersion {
	return &domain.BudgetVersion{BudgetID: "b1", Number: 1, FrozenAt: time.Date(2026, 8, 21, 9, 30, 0, 0, time.UTC),
		Hash: "3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1a2f"}
}

// brlText writes an amount as the PDF does ("26.817,46").
func brlText(d decimal.Decimal) string {
	i, f, _ := strings.Cut(d.StringFixed(2), ".")
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

// checkPDF checks a document's pages: every one names the company, the
// budget, the editions and its number of pages, and for a version its
// hash (which the live budget's pages never show); the whole text shows
// every figure of want. It returns the number of pages.
func checkPDF(t *testing.T, body []byte, version *domain.BudgetVersion, want ...decimal.Decimal) int {
	t.Helper()
	pages := pdfPages(t, body)
	hash := docVersion().Hash
	var all strings.Builder
	for i, txt := range pages {
		all.WriteString(txt)
		want := []string{"Construtora Alfa", "ORC-001", fmt.Sprintf("Página %d de %d", i+1, len(pages)), "SINAPI MG 08/2026"}
		if version != nil {
			want = append(want, hash)
		} else if strings.Contains(txt, hash) {
			t.Errorf("page %d of the live budget shows the version's hash", i+1)
		}
		for _, w := range want {
			if !strings.Contains(txt, w) {
				t.Errorf("page %d lacks %q:\n%s", i+1, w, txt)
			}
		}
	}
	for _, d := range want {
		if !strings.Contains(all.String(), brlText(d)) {
			t.Errorf("the PDF lacks the figure %s", brlText(d))
		}
	}
	return len(pages)
}

// openXLSX reads a workbook back and returns it with the rows of sheet sh.
func openXLSX(t *testing.T, body []byte, sh string) (*excelize.File, [][]string) {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	rows, err := x.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	return x, rows
}

// cellCheck returns a check that the cell of sheet sh caches want (to 2
// places) by a formula that starts with formulaPrefix. (excelize's own
// formula engine is not used to recompute sums: its TRUNC leaves some
// products such as 155.85 × 33.25 = 5182.0125 untruncated.)
func cellCheck(t *testing.T, x *excelize.File, sh string) func(cell string, want decimal.Decimal, formulaPrefix string) {
	return func(cell string, want decimal.Decimal, formulaPrefix string) {
		t.Helper()
		v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
		fm, _ := x.GetCellFormula(sh, cell)
		if v == "" || dec(v).StringFixed(2) != want.StringFixed(2) || !strings.HasPrefix(fm, formulaPrefix) {
			t.Errorf("%s: cached %q formula %q; want %s from %s…", cell, v, fm, want.StringFixed(2), formulaPrefix)
		}
	}
}

// footerCell finds the row whose column col (0-based) is label and returns
// the cell of column fig on it.
func footerCell(t *testing.T, rows [][]string, col int, label, fig string) string {
	t.Helper()
	for i, row := range rows {
		if len(row) > col && row[col] == label {
			return fmt.Sprintf("%s%d", fig, i+1)
		}
	}
	t.Fatalf("no row %q", label)
	return ""
}

// checkBDISheet checks sheet "BDI": each rate computed from its parts by a
// ROUND formula that recomputes the cached rate.
func checkBDISheet(t *testing.T, x *excelize.File) {
	t.Helper()
	bdiRows, err := x.GetRows("BDI")
	if err != nil || len(bdiRows) == 0 {
		t.Fatalf("no BDI sheet: %v", err)
	}
	var rates []string
	for i, row := range bdiRows {
		if len(row) > 2 && strings.HasPrefix(row[0], "BDI (%) =") {
			cell := fmt.Sprintf("C%d", i+1)
			fm, _ := x.GetCellFormula("BDI", cell)
			calc, _ := x.CalcCellValue("BDI", cell, excelize.Options{RawCellValue: true})
			v, _ := x.GetCellValue("BDI", cell, excelize.Options{RawCellValue: true})
			if (v == "22.23" || v == "15.28") && strings.HasPrefix(fm, "ROUND(") && dec(calc).Equal(dec(v)) {
				rates = append(rates, v)
			} else {
				t.Errorf("BDI rate cell %s: %q %q %q", cell, v, fm, calc)
			}
		}
	}
	if strings.Join(rates, " ") != "22.23 15.28" {
		t.Errorf("BDI rate formulas for %v, want the BDI's and the differentiated BDI's in %v", rates, bdiRows)
	}
}

// The synthetic report as a workbook: every footer figure is a formula
// whose cached value is the report's total; lines apply the BDI cell by
// formula (the supply line the differentiated BDI's), which excelize
// recomputes to the cached value; the BDI sheet computes the rate from its
// components.
func TestSyntheticXLSX(t *testing.T) {
	r := docSynthetic(0)
	var buf bytes.Buffer
	if err := reports.SyntheticXLSX(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	const sh = "Sintético"
	x, rows := openXLSX(t, buf.Bytes(), sh)
	check := cellCheck(t, x, sh)
	total := footerCell(t, rows, 5, "Total sem BDI", "K")
	if total != "K14" {
		t.Errorf("the footer starts at %s, want K14 (rows 9 to 12, a blank row)", total)
	}
	check("K14", r.Total, "SUMIF(")
	check("K15", r.BDIValue, "K")
	check("K16", r.TotalWithBDI, "SUMIF(")
	check("K9", r.Rows[0].Total, "SUMIF(") // the stage's subtotal
	// Line 1.1 (row 10): unit price with BDI by formula on the BDI cell;
	// line 2.1 (row 12, the supply line) on the differentiated BDI cell.
	for _, c := range []struct{ cell, formula string }{
		{"J10", "TRUNC(I10*(1+$C$5/100),2)"}, {"K10", "TRUNC(I10*H10,2)"}, {"L10", "TRUNC(J10*H10,2)"}, {"J12", "TRUNC(I12*(1+$C$6/100),2)"},
	} {
		fm, _ := x.GetCellFormula(sh, c.cell)
		v, _ := x.GetCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		calc, _ := x.CalcCellValue(sh, c.cell, excelize.Options{RawCellValue: true})
		if fm != c.formula || v == "" || dec(calc).StringFixed(2) != dec(v).StringFixed(2) {
			t.Errorf("%s: formula %q (want %q), cached %s, recomputed %s", c.cell, fm, c.formula, v, calc)
		}
	}
	if v, _ := x.GetCellValue(sh, "J12", excelize.Options{RawCellValue: true}); v != "3.02" {
		t.Errorf("J12 caches %q, want the supply line's 3.02", v)
	}
	for cell, want := range map[string]string{"C5": "22.23", "C6": "15.28", "A2": "Empresa: Construtora Alfa"} {
		if v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true}); v != want {
			t.Errorf("%s = %q, want %q", cell, v, want)
		}
	}
	checkBDISheet(t, x)
}

// The synthetic report as a PDF of several pages: valid (read back by a
// PDF parser), with the company, the budget, the editions, page numbers
// and, for a frozen version, its hash on every page, and the totals; one
// report and document give the same file twice.
func TestSyntheticPDF(t *testing.T) {
	r := docSynthetic(60)
	for _, v := range []*domain.BudgetVersion{nil, docVersion()} {
		doc := reports.Document{Company: "Construtora Alfa", Version: v}
		var buf, again bytes.Buffer
		if err := reports.SyntheticPDF(&buf, r, doc); err != nil {
			t.Fatal(err)
		}
		if n := checkPDF(t, buf.Bytes(), v, r.Total, r.BDIValue, r.TotalWithBDI); n < 2 {
			t.Errorf("%d page(s) for %d rows, want several", n, len(r.Rows))
		}
		if err := reports.SyntheticPDF(&again, r, doc); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Errorf("the same report gave two different PDFs (version %v)", v != nil)
		}
	}
}

// The analytic report as a workbook: the synthetic table's formulas, each
// composition line followed by its items, the direct cost by category
// summed by formula, the BDI sheet; and as a PDF with the totals and the
// direct cost.
func TestAnalyticDocuments(t *testing.T) {
	r := docAnalytic(0)
	for _, v := range []*domain.BudgetVersion{nil, docVersion()} {
		doc := reports.Document{Company: "Construtora Alfa", Version: v}
		var buf bytes.Buffer
		if err := reports.AnalyticXLSX(&buf, r, doc); err != nil {
			t.Fatal(err)
		}
		const sh = "Analítico"
		x, rows := openXLSX(t, buf.Bytes(), sh)
		check := cellCheck(t, x, sh)
		check(footerCell(t, rows, 5, "Total sem BDI", "K"), r.Total, "SUMIF(")
		check(footerCell(t, rows, 5, reports.BDILabel(r.Budget), "K"), r.BDIValue, "K")
		check(footerCell(t, rows, 5, "Total com BDI", "K"), r.TotalWithBDI, "SUMIF(")
		check(footerCell(t, rows, 5, "Custo direto pelos insumos", "K"), r.Summary.Total(), "SUM(")
		// Items follow their line (3 rows: the block, the mason's
		// composition and its resource), none flagged in column N.
		if got, want := len(rows), 9+len(r.Rows)+3; got < want {
			t.Errorf("%d rows, want at least %d: no items under the lines", got, want)
		}
		if a, b := rows[10], rows[12]; len(a) < 6 || !strings.Contains(a[5], "BLOCO") || len(b) < 6 || !strings.Contains(b[5], "PEDREIRO") {
			t.Errorf("rows 11 and 13 are not the line's items: %q %q", a, b)
		}
		for _, n := range []int{11, 12, 13} {
			if f, _ := x.GetCellValue(sh, fmt.Sprintf("N%d", n)); f != "" {
				t.Errorf("item row %d is flagged %q in column N", n, f)
			}
		}
		checkBDISheet(t, x)

		buf.Reset()
		if err := reports.AnalyticPDF(&buf, r, doc); err != nil {
			t.Fatal(err)
		}
		checkPDF(t, buf.Bytes(), v, r.Total, r.TotalWithBDI, r.Summary.Labor, r.Summary.Material)
	}
}

// The ABC curve as a workbook: the total a SUM of the rows, the last
// cumulative percent 100.00 by its formula, the classes' totals by SUMIF,
// a BDI sheet; and as a PDF with the total.
func TestABCDocuments(t *testing.T) {
	r := abcReport(t)
	r.Budget = docBudget()
	for _, v := range []*domain.BudgetVersion{nil, docVersion()} {
		doc := reports.Document{Company: "Construtora Alfa", Version: v}
		var buf bytes.Buffer
		if err := reports.ABCXLSX(&buf, r, doc); err != nil {
			t.Fatal(err)
		}
		const sh = "Curva ABC"
		x, rows := openXLSX(t, buf.Bytes(), sh)
		check := cellCheck(t, x, sh)
		check(footerCell(t, rows, 4, "Total", "J"), r.Total, "SUM(")
		check(fmt.Sprintf("L%d", 9+len(r.Rows)), dec("100"), "IF(")
		for _, c := range r.Classes() {
			check(footerCell(t, rows, 4, fmt.Sprintf("Classe %s (%d itens)", c.Class, c.Count), "J"), c.Total, "SUMIF(")
		}
		if bdi, _ := x.GetRows("BDI"); len(bdi) == 0 {
			t.Errorf("no BDI sheet")
		}

		buf.Reset()
		if err := reports.ABCPDF(&buf, r, doc); err != nil {
			t.Fatal(err)
		}
		checkPDF(t, buf.Bytes(), v, r.Total)
	}
}

// The analytic report as CSV: each row, the items of a composition line
// under it (the line's number, their level, coefficient and partial), then
// the three totals and the direct cost by category.
func TestAnalyticCSV(t *testing.T) {
	r := docAnalytic(0)
	r.Rows[1].UnitSummary = domain.CostSummary{Labor: dec("25.10"), Material: dec("113.97")}
	var buf bytes.Buffer
	if err := reports.AnalyticCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, buf.Bytes())
	// Header, 4 rows, 3 items under the composition line, 3 totals, 4 categories.
	if len(recs) != 1+4+3+3+4 {
		t.Fatalf("%d records: %q", len(recs), recs)
	}
	if h := recs[0]; h[0] != "Item" || h[1] != "Nível" || h[8] != "Quantidade / coeficiente" || h[11] != "Total / parcial" {
		t.Errorf("header %q", h)
	}
	if l := recs[2]; l[0] != "1.1" || l[1] != "0" || l[2] != "Composição" || l[5] != "89306" || l[8] != "120,5" || l[9] != "113,33" ||
		l[10] != "138,52" || l[11] != "13656,26" || l[12] != "16691,66" || l[13] != "25,10" || l[14] != "113,97" {
		t.Errorf("line 1.1 %q", l)
	}
	if it := recs[3]; it[0] != "1.1" || it[1] != "1" || it[5] != "34586" || it[8] != "43,5" || it[9] != "2,62" || it[11] != "113,97" {
		t.Errorf("first item of 1.1: %q", it)
	}
	if it := recs[5]; it[0] != "1.1" || it[1] != "2" || it[5] != "4750" || it[11] != "25,10" {
		t.Errorf("the mason's own item, a level down: %q", it)
	}
	foot := recs[8:]
	if foot[0][6] != "Total sem BDI" || foot[0][11] != money(r.Total) || foot[2][6] != "Total com BDI" || foot[2][11] != money(r.TotalWithBDI) {
		t.Errorf("totals %q", foot[:3])
	}
	if foot[3][6] != "Custo direto pelos insumos: mão de obra" || foot[3][11] != "3000,15" || foot[4][11] != "13276,11" {
		t.Errorf("categories %q", foot[3:])
	}
}

// money is a figure as the CSV writes it: decimal comma, 2 places.
func money(v decimal.Decimal) string { return strings.Replace(v.StringFixed(2), ".", ",", 1) }

// priceHistory is 89306 in two editions of SINAPI MG and a third without a
// price of the regime.
func priceHistory() *domain.PriceHistory {
	return &domain.PriceHistory{Bank: "SINAPI", State: "MG", Code: "89306", Kind: domain.KindComposition, Regime: domain.NaoDesonerado,
		Description: "ALVENARIA ESTRUTURAL", Unit: "M2", Points: []domain.PricePoint{
			{Month: "07/2026", Price: dec("110"), Priced: true}, {Month: "08/2026", Price: dec("113.33"), Priced: true}, {Month: "09/2026"},
		}}
}

// A price history as CSV: one row per edition, oldest first, the regime
// named; an edition without a price says so.
func TestPriceHistoryCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.PriceHistoryCSV(&buf, priceHistory()); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, buf.Bytes())
	if len(rows) != 4 || rows[1][6] != "07/2026" || rows[1][8] != "110,00" || rows[2][8] != "113,33" || rows[2][5] != "Não desonerado" ||
		rows[3][8] != "" || rows[3][9] != "sem preço no regime" {
		t.Errorf("CSV %q", rows)
	}
}

// A price history as a chart: valid SVG, titled with the item, one point
// per priced edition with its price, joined by one line, a hollow mark for
// the edition without a price.
func TestPriceHistorySVG(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.PriceHistorySVG(&buf, priceHistory()); err != nil {
		t.Fatal(err)
	}
	var svg struct {
		XMLName xml.Name
		Title   string `xml:"title"`
		Circles []struct {
			Class string `xml:"class,attr"`
			Title string `xml:"title"`
		} `xml:"circle"`
		Polyline []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &svg); err != nil {
		t.Fatalf("chart is not XML: %v", err)
	}
	var titles []string
	for _, c := range svg.Circles {
		titles = append(titles, c.Class+" "+c.Title)
	}
	want := "point 07/2026: R$ 110,00|point 08/2026: R$ 113,33|unpriced 09/2026: sem preço no regime"
	if got := strings.Join(titles, "|"); got != want || len(svg.Polyline) != 1 || len(strings.Fields(svg.Polyline[0].Points)) != 2 ||
		svg.XMLName.Space != "http://www.w3.org/2000/svg" || !strings.Contains(svg.Title, "SINAPI MG 89306") {
		t.Errorf("chart %+v\npoints %s\nwant   %s", svg, got, want)
	}
}

// A budget priced with the company's own labour charges says so in the
// header of its workbook and PDF, the percentage with every place it has;
// one without says nothing of them.
func TestLabourChargesInHeader(t *testing.T) {
	for _, tc := range []struct {
		charges decimal.NullDecimal
		want    string
	}{
		{decimal.NewNullDecimal(dec("71.25")), "Encargos sociais próprios: 71,25% (mão de obra repreçada)"},
		{decimal.NewNullDecimal(dec("68.125")), "Encargos sociais próprios: 68,125% (mão de obra repreçada)"},
		{decimal.NullDecimal{}, ""},
	} {
		r := docSynthetic(0)
		r.Budget.LabourCharges = tc.charges
		var xb, pb bytes.Buffer
		if err := reports.SyntheticXLSX(&xb, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
			t.Fatal(err)
		}
		x, _ := openXLSX(t, xb.Bytes(), "Sintético")
		a4, _ := x.GetCellValue("Sintético", "A4")
		if err := reports.SyntheticPDF(&pb, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(pdfPages(t, pb.Bytes()), "\n")
		if tc.want == "" {
			if strings.Contains(a4, "Encargos") || strings.Contains(text, "Encargos sociais próprios") {
				t.Errorf("a budget without own charges mentions them: %q", a4)
			}
			continue
		}
		if !strings.HasSuffix(a4, " · "+tc.want) || !strings.HasPrefix(a4, "Bancos: ") {
			t.Errorf("XLSX A4 = %q, want it to end with %q", a4, tc.want)
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("the PDF does not say %q:\n%s", tc.want, text)
		}
	}
}
