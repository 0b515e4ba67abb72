package reports_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/xuri/excelize/v2"
)

// The workbooks as a client opens and prints them, read back: frozen
// headings, an autofilter over the table, A4 landscape one page wide with
// the headings on every page and "Página n de N", widths by content,
// number formats with the places of each figure, the helper column hidden,
// no English word of the domain's enumerations, the company's profile in
// the header, its logo, and the signature block.

// layoutProfile is a company's full profile, with a logo.
func layoutProfile(t *testing.T) *domain.CompanyProfile {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 300, 100))
	for x := 0; x < 300; x++ {
		img.Set(x, x/3, color.RGBA{0x1f, 0x4e, 0x79, 0xff})
	}
	var logo bytes.Buffer
	if err := png.Encode(&logo, img); err != nil {
		t.Fatal(err)
	}
	return &domain.CompanyProfile{LegalName: "Construtora Alfa Engenharia Ltda.", CNPJ: "11222333000181",
		Address: "Rua dos Inconfidentes, 1190, Belo Horizonte/MG", EngineerName: "Maria Helena Duarte",
		EngineerRegistry: "CREA-MG 123456/D", Logo: logo.Bytes(), LogoType: "image/png"}
}

// layoutSynthetic is docSynthetic with quantities of 3 places and its
// supply line priced by SICRO with 4 places (the figures are not
// recomputed: the test reads formats, not values).
func layoutSynthetic() *domain.SyntheticReport {
	r := docSynthetic(0)
	r.Budget.ART = "MG20260012345"
	r.Budget.IssueDate = "2026-09-15"
	r.Rows[1].Quantity = dec("120.125")
	r.Rows[1].Description = "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 9X19X19 CM (ESPESSURA 9 CM) E ARGAMASSA DE ASSENTAMENTO COM PREPARO EM BETONEIRA. AF_12/2021"
	r.Rows[3].Bank = "SICRO3"
	r.Rows[3].UnitPrice = dec("2.62") // 4 places shown all the same
	return r
}

// xlsxPart is the text of a part of a workbook's zip.
func xlsxPart(t *testing.T, body []byte, name string) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range z.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("no part %s", name)
	return ""
}

// numFmtOf is the custom number format of a cell ("" for none).
func numFmtOf(t *testing.T, x *excelize.File, sh, cell string) string {
	t.Helper()
	id, err := x.GetCellStyle(sh, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := x.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.CustomNumFmt == nil {
		return ""
	}
	return *st.CustomNumFmt
}

var autoFilterRef = regexp.MustCompile(`<autoFilter ref="\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)"`)

// checkPrintLayout checks a table's sheet: the rows down to the headings
// frozen, the autofilter from the headings to the table's last row (A to
// M), A4 landscape fitted to one page wide, the headings repeated on every
// page, the page footer numbering the pages and the header naming the
// budget, sane margins, and every heading word no wider than its column.
func checkPrintLayout(t *testing.T, name string, x *excelize.File, body []byte, sh string, heading, last int) {
	t.Helper()
	p, err := x.GetPanes(sh)
	if err != nil || !p.Freeze || p.YSplit != heading || p.XSplit != 0 || p.TopLeftCell != fmt.Sprintf("A%d", heading+1) {
		t.Errorf("%s: panes %+v (%v), want the rows down to %d frozen", name, p, err, heading)
	}
	m := autoFilterRef.FindStringSubmatch(xlsxPart(t, body, "xl/worksheets/sheet1.xml"))
	if m == nil || m[1] != "A" || m[2] != fmt.Sprint(heading) || m[3] != "M" || m[4] != fmt.Sprint(last) {
		t.Errorf("%s: autofilter %q, want A%d:M%d", name, m, heading, last)
	}
	pl, err := x.GetPageLayout(sh)
	if err != nil || pl.Size == nil || *pl.Size != 9 || pl.Orientation == nil || *pl.Orientation != "landscape" ||
		pl.FitToWidth == nil || *pl.FitToWidth != 1 || pl.FitToHeight == nil || *pl.FitToHeight != 0 {
		t.Errorf("%s: page layout %+v (%v), want A4 (9) landscape, 1 page wide, any number tall", name, pl, err)
	}
	if pr, err := x.GetSheetProps(sh); err != nil || pr.FitToPage == nil || !*pr.FitToPage {
		t.Errorf("%s: fitToPage not set (%v)", name, err)
	}
	titles := ""
	for _, d := range x.GetDefinedName() {
		if d.Name == "_xlnm.Print_Titles" && d.Scope == sh {
			titles = d.RefersTo
		}
	}
	if want := fmt.Sprintf("'%s'!$%d:$%d", sh, heading, heading); titles != want {
		t.Errorf("%s: print titles %q, want %q", name, titles, want)
	}
	hf, err := x.GetHeaderFooter(sh)
	if err != nil || hf == nil || !strings.Contains(hf.OddFooter, "Página &P de &N") || !strings.Contains(hf.OddHeader, "ORC-001") {
		t.Errorf("%s: header/footer %+v (%v)", name, hf, err)
	}
	mg, err := x.GetPageMargins(sh)
	for _, v := range []*float64{mg.Left, mg.Right, mg.Top, mg.Bottom} {
		if err != nil || v == nil || *v < 0.25 || *v > 1 {
			t.Errorf("%s: margins %+v (%v), want between 0.25 and 1 inch", name, mg, err)
			break
		}
	}
	// Each heading wraps between words: its longest word fits its column
	// (a bold character counted as wide as a digit and a tenth, plus one
	// of padding); a heading longer than its column makes its row at
	// least two lines tall.
	rows, _ := x.GetRows(sh)
	tall := false
	for i, h := range rows[heading-1] {
		col, _ := excelize.ColumnNumberToName(i + 1)
		w, _ := x.GetColWidth(sh, col)
		for _, word := range strings.Fields(h) {
			if need := float64(utf8.RuneCountInString(word))*1.1 + 1; need > w {
				t.Errorf("%s: heading %q of column %s: %q needs %.1f, the column is %.1f wide", name, h, col, word, need, w)
			}
		}
		tall = tall || float64(utf8.RuneCountInString(h)) > w
	}
	if ht, _ := x.GetRowHeight(sh, heading); tall && ht < 30 {
		t.Errorf("%s: the headings wrap but their row is %.1f tall", name, ht)
	}
}

// englishWord matches the domain's enumeration values a document must
// never show (the API's words).
var englishWord = regexp.MustCompile(`\b(labor|equipment|services|inside|below|above|single_source|confirmed|unconfirmed|stage|composition|resource|unit_price|final_total|truncate|round|buildings|supply)\b`)

// checkPortuguese scans every cell of every sheet for an English word of
// the domain's enumerations or a bare TCU component code, and returns all
// the cells' text.
func checkPortuguese(t *testing.T, name string, x *excelize.File) string {
	t.Helper()
	var all strings.Builder
	for _, sh := range x.GetSheetList() {
		rows, err := x.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				all.WriteString(v + "\n")
				if englishWord.MatchString(v) {
					t.Errorf("%s: %s row %d column %d says %q", name, sh, r+1, c+1, v)
				}
				switch v {
				case "ac", "sg", "r", "df", "l", "bdi":
					t.Errorf("%s: %s row %d column %d is the code %q", name, sh, r+1, c+1, v)
				}
			}
		}
	}
	return all.String()
}

func TestXLSXSyntheticLayout(t *testing.T) {
	r := layoutSynthetic()
	var buf bytes.Buffer
	doc := reports.Document{Company: "Construtora Alfa", Profile: layoutProfile(t)}
	if err := reports.SyntheticXLSX(&buf, r, doc); err != nil {
		t.Fatal(err)
	}
	const sh = "Sintético"
	x, rows := openXLSX(t, buf.Bytes(), sh)
	// Rows 9 to 12: stage, line, stage, supply line.
	checkPrintLayout(t, "synthetic", x, buf.Bytes(), sh, 8, 12)

	// The description column is wide; the long description's row is at
	// least two lines tall.
	if w, _ := x.GetColWidth(sh, "F"); w < 30 {
		t.Errorf("description column %.1f wide, want at least 30", w)
	}
	if w, _ := x.GetColWidth(sh, "F"); float64(utf8.RuneCountInString(r.Rows[1].Description)) > 2*w {
		if h, _ := x.GetRowHeight(sh, 10); h < 30 {
			t.Errorf("row 10 holds a description of %d characters in a column %.1f wide, and is %.1f tall", utf8.RuneCountInString(r.Rows[1].Description), w, h)
		}
	} else {
		t.Fatalf("the test's description is too short for its column (%.1f)", w)
	}

	// The helper column N is hidden, A to M shown.
	for c := 'A'; c <= 'N'; c++ {
		vis, err := x.GetColVisible(sh, string(c))
		if err != nil || vis != (c != 'N') {
			t.Errorf("column %c visible %v (%v)", c, vis, err)
		}
	}

	// Number formats: amounts #,##0.00; quantities with the budget's
	// places (3); unit prices 2 places, 4 for the SICRO line.
	footer := footerCell(t, rows, 5, "Total sem BDI", "K")
	for cell, want := range map[string]string{
		"H10": "#,##0.000", "H12": "#,##0.000", "I10": "#,##0.00", "I12": "#,##0.0000", "J10": "#,##0.00", "J12": "#,##0.00",
		"K10": "#,##0.00", "L10": "#,##0.00", "M10": "#,##0.00", "K9": "#,##0.00", "L9": "#,##0.00", "K11": "#,##0.00",
		footer: "#,##0.00", "K15": "#,##0.00", "K16": "#,##0.00", "C5": "#,##0.00", "C6": "#,##0.00",
	} {
		if got := numFmtOf(t, x, sh, cell); got != want {
			t.Errorf("%s: number format %q, want %q", cell, got, want)
		}
	}

	// Stage rows are bold and shaded; lines are not.
	for _, c := range []struct {
		cell  string
		stage bool
	}{{"A9", true}, {"F9", true}, {"K9", true}, {"D9", true}, {"A10", false}, {"F10", false}, {"F11", true}} {
		id, _ := x.GetCellStyle(sh, c.cell)
		st, _ := x.GetStyle(id)
		bold := st.Font != nil && st.Font.Bold
		shaded := len(st.Fill.Color) > 0
		if bold != c.stage || shaded != c.stage {
			t.Errorf("%s: bold %v shaded %v, want %v", c.cell, bold, shaded, c.stage)
		}
	}

	// The profile in the header (column H, rows 2 to 7) and the
	// signature block under the footer.
	var header []string
	for n := 2; n <= 7; n++ {
		v, _ := x.GetCellValue(sh, fmt.Sprintf("H%d", n))
		header = append(header, v)
	}
	want := []string{"Construtora Alfa Engenharia Ltda.", "CNPJ 11.222.333/0001-81", "Rua dos Inconfidentes, 1190, Belo Horizonte/MG",
		"Responsável técnico: Maria Helena Duarte — CREA-MG 123456/D", "ART/RRT nº MG20260012345", "Emissão: 15/09/2026"}
	if strings.Join(header, "|") != strings.Join(want, "|") {
		t.Errorf("profile lines %q, want %q", header, want)
	}
	var below []string
	for _, row := range rows[16:] {
		if len(row) > 5 && row[5] != "" {
			below = append(below, row[5])
		}
	}
	sig := strings.Join(below, "|")
	for _, w := range []string{"___|Maria Helena Duarte|CREA-MG 123456/D|ART/RRT nº MG20260012345|Construtora Alfa Engenharia Ltda. · CNPJ 11.222.333/0001-81", "Local e data: ", ", 15/09/2026"} {
		if !strings.Contains(sig, w) {
			t.Errorf("signature block %q lacks %q", sig, w)
		}
	}

	// The logo, in row 1, which is tall enough for it.
	cells, err := x.GetPictureCells(sh)
	if err != nil || len(cells) != 1 || !strings.HasSuffix(cells[0], "1") {
		t.Fatalf("picture cells %v (%v), want one in row 1", cells, err)
	}
	pics, err := x.GetPictures(sh, cells[0])
	if err != nil || len(pics) != 1 || !bytes.Equal(pics[0].File, doc.Profile.Logo) {
		t.Errorf("the logo is not the profile's (%v)", err)
	}
	if h, _ := x.GetRowHeight(sh, 1); h < 40 {
		t.Errorf("row 1 is %.1f tall under a logo", h)
	}
	checkPortuguese(t, "synthetic", x)
}

// Without a profile the header keeps the company's name alone and the
// signature block a line for the engineer; a SVG logo is left out.
func TestXLSXWithoutProfile(t *testing.T) {
	for _, p := range []*domain.CompanyProfile{nil, {LegalName: "Alfa Ltda.", Logo: []byte("<svg/>"), LogoType: "image/svg+xml"}} {
		var buf bytes.Buffer
		if err := reports.SyntheticXLSX(&buf, docSynthetic(0), reports.Document{Company: "Construtora Alfa", Profile: p}); err != nil {
			t.Fatal(err)
		}
		const sh = "Sintético"
		x, rows := openXLSX(t, buf.Bytes(), sh)
		h2, _ := x.GetCellValue(sh, "H2")
		h3, _ := x.GetCellValue(sh, "H3")
		if (p == nil && h2 != "") || (p != nil && h2 != "Alfa Ltda.") || h3 != "" {
			t.Errorf("profile %v: header lines %q %q", p != nil, h2, h3)
		}
		if cells, _ := x.GetPictureCells(sh); len(cells) != 0 {
			t.Errorf("profile %v: pictures in %v", p != nil, cells)
		}
		found := false
		for _, row := range rows {
			found = found || (len(row) > 5 && row[5] == "Responsável técnico")
		}
		if !found {
			t.Errorf("profile %v: no signature line for the engineer", p != nil)
		}
	}
}

func TestXLSXAnalyticLayout(t *testing.T) {
	r := docAnalytic(0)
	var buf bytes.Buffer
	if err := reports.AnalyticXLSX(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	const sh = "Analítico"
	x, rows := openXLSX(t, buf.Bytes(), sh)
	// Rows 9 to 15: stage, line and its 3 items, stage, supply line.
	checkPrintLayout(t, "analytic", x, buf.Bytes(), sh, 8, 15)
	if vis, _ := x.GetColVisible(sh, "N"); vis {
		t.Error("column N is shown")
	}
	// Items: the coefficient with its own places, prices and partials
	// with 2 (SINAPI); the direct cost's figures #,##0.00.
	for cell, want := range map[string]string{"H11": "#,##0.00", "I11": "#,##0.00", "K11": "#,##0.00", "H12": "#,##0.00", "H10": "#,##0.00"} {
		if got := numFmtOf(t, x, sh, cell); got != want {
			t.Errorf("%s: number format %q, want %q", cell, got, want)
		}
	}
	if got := numFmtOf(t, x, sh, footerCell(t, rows, 5, "Custo direto pelos insumos", "K")); got != "#,##0.00" {
		t.Errorf("the direct cost's total: number format %q", got)
	}
	all := checkPortuguese(t, "analytic", x)
	// The TCU check names its rows, statuses and sources in Portuguese.
	for _, w := range []string{reports.BDIComponentName("ac"), reports.BDIStatusName(domain.BDIInside), "confirmado"} {
		if !strings.Contains(all, w) {
			t.Errorf("the workbook lacks %q", w)
		}
	}
	bdi, err := x.GetPageLayout("BDI")
	if err != nil || bdi.Size == nil || *bdi.Size != 9 || bdi.FitToWidth == nil || *bdi.FitToWidth != 1 {
		t.Errorf("sheet BDI page layout %+v (%v)", bdi, err)
	}
}

func TestXLSXABCLayout(t *testing.T) {
	r := abcReport(t)
	r.Budget = docBudget()
	var buf bytes.Buffer
	if err := reports.ABCXLSX(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	const sh = "Curva ABC"
	x, rows := openXLSX(t, buf.Bytes(), sh)
	checkPrintLayout(t, "abc", x, buf.Bytes(), sh, 9, 9+len(r.Rows))
	// Quantities with the most places any has (at least 2, at most 4:
	// 0.17 and 190.9 give 2), unit prices with their own (12.345: 3),
	// totals and percents #,##0.00.
	for cell, want := range map[string]string{"H10": "#,##0.00", "I10": "#,##0.00", "J10": "#,##0.00", "K10": "#,##0.00", "L10": "#,##0.00"} {
		if got := numFmtOf(t, x, sh, cell); got != want {
			t.Errorf("%s: number format %q, want %q", cell, got, want)
		}
	}
	for i, row := range rows[9 : 9+len(r.Rows)] {
		if row[3] == "=CMD()" {
			if got := numFmtOf(t, x, sh, fmt.Sprintf("I%d", 10+i)); got != "#,##0.000" {
				t.Errorf("the own resource's 12.345: number format %q", got)
			}
		}
		if want := reports.CategoryName(r.Rows[i].Category); row[6] != want {
			t.Errorf("row %d type %q, want %q", 10+i, row[6], want)
		}
	}
	checkPortuguese(t, "abc", x)
}

// Every value of the domain's enumerations has a Portuguese name.
func TestLabels(t *testing.T) {
	for in, got := range map[string]string{
		"labor": reports.CategoryName(domain.CategoryLabor), "material": reports.CategoryName(domain.CategoryMaterial),
		"equipment": reports.CategoryName(domain.CategoryEquipment), "services": reports.CategoryName(domain.CategoryServices),
		"below": reports.BDIStatusName(domain.BDIBelow), "inside": reports.BDIStatusName(domain.BDIInside), "above": reports.BDIStatusName(domain.BDIAbove),
		"confirmed": reports.ConfidenceName(domain.ConfidenceConfirmed), "single_source": reports.ConfidenceName(domain.ConfidenceSingleSource),
		"unconfirmed": reports.ConfidenceName(domain.ConfidenceUnconfirmed),
		"ac":          reports.BDIComponentName("ac"), "sg": reports.BDIComponentName("sg"), "r": reports.BDIComponentName("r"),
		"df": reports.BDIComponentName("df"), "l": reports.BDIComponentName("l"), "bdi": reports.BDIComponentName("bdi"),
	} {
		if got == in || strings.EqualFold(got, in) && in != "material" || englishWord.MatchString(got) {
			t.Errorf("%s is named %q", in, got)
		}
	}
	if got := reports.CategoryName("other"); got != "other" {
		t.Errorf("an unknown category is named %q, want it as it is", got)
	}
	three := [3]domain.Confidence{domain.ConfidenceConfirmed, domain.ConfidenceSingleSource, domain.ConfidenceConfirmed}
	if got := reports.ConfidencesName(three); got != "confirmado / fonte única / confirmado" {
		t.Errorf("three sources: %q", got)
	}
	if got := reports.ConfidencesName([3]domain.Confidence{"confirmed", "confirmed", "confirmed"}); got != "confirmado" {
		t.Errorf("one source: %q", got)
	}
}

// A budget without rows and a curve without rows still give workbooks
// laid out the same, the autofilter on the headings alone.
func TestXLSXLayoutEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.SyntheticXLSX(&buf, &domain.SyntheticReport{Budget: docBudget()}, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	x, _ := openXLSX(t, buf.Bytes(), "Sintético")
	checkPrintLayout(t, "empty synthetic", x, buf.Bytes(), "Sintético", 8, 8)
	buf.Reset()
	if err := reports.ABCXLSX(&buf, &domain.ABCReport{Budget: docBudget(), Limits: domain.DefaultABCLimits()}, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	x, _ = openXLSX(t, buf.Bytes(), "Curva ABC")
	checkPrintLayout(t, "empty abc", x, buf.Bytes(), "Curva ABC", 9, 9)
}
