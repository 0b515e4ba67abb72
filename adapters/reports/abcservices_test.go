package reports_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// servicesReport is the ABC curve of the services of docSynthetic(2): the
// three lines of 89306 grouped (361.5 m², 3 × 16691.66 = 50074.98, A) and
// the supply line 34586 (3020.00, C), of 53094.98.
func servicesReport(t *testing.T) *domain.ABCReport {
	t.Helper()
	r, err := domain.ServicesABC(docSynthetic(2), domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 2 || r.Rows[0].Code != "89306" || !r.Rows[0].Total.Equal(dec("50074.98")) || !r.Total.Equal(dec("53094.98")) {
		t.Fatalf("curve %+v, total %s", r.Rows, r.Total)
	}
	return r
}

// Every writer of the ABC curve serves the services' with its own words:
// the totals are with BDI and the headings say so.
func TestABCServicesDocuments(t *testing.T) {
	r := servicesReport(t)

	var buf bytes.Buffer
	if err := reports.ABCCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, buf.Bytes())
	if h := recs[0]; h[8] != "Preço unitário c/ BDI" || h[9] != "Total c/ BDI" || h[6] != "Tipo" {
		t.Errorf("CSV header %q", h)
	}
	if row := recs[1]; !strings.Contains(row[3], "89306") || row[6] != "Composição" || row[7] != "361,5" || row[8] != "138,52" ||
		row[9] != "50074,98" || row[12] != "A" {
		t.Errorf("CSV first row %q", row)
	}
	if row := recs[2]; !strings.Contains(row[3], "34586") || row[6] != "Insumo" || row[9] != "3020,00" || row[12] != "C" {
		t.Errorf("CSV second row %q", row)
	}
	if !strings.Contains(buf.String(), "53094,98") {
		t.Errorf("CSV: no total with BDI 53094,98")
	}

	doc := reports.Document{Company: "Construtora Alfa"}
	buf.Reset()
	if err := reports.ABCXLSX(&buf, r, doc); err != nil {
		t.Fatal(err)
	}
	const sh = "Curva ABC serviços"
	x, rows := openXLSX(t, buf.Bytes(), sh)
	all := fmtRows(rows)
	for _, want := range []string{"Curva ABC de serviços", "Total c/ BDI", "Preço unitário c/ BDI"} {
		if !strings.Contains(all, want) {
			t.Errorf("XLSX lacks %q:\n%s", want, all)
		}
	}
	cellCheck(t, x, sh)(footerCell(t, rows, 4, "Total", "J"), r.Total, "SUM(")

	buf.Reset()
	if err := reports.ABCPDF(&buf, r, doc); err != nil {
		t.Fatal(err)
	}
	checkPDF(t, buf.Bytes(), nil, r.Total, r.Rows[0].Total)
	text := strings.Join(pdfPages(t, buf.Bytes()), "\n")
	for _, want := range []string{"Curva ABC de serviços", "Total c/ BDI", "Preço c/ BDI"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF lacks %q", want)
		}
	}

	buf.Reset()
	if err := reports.ABCSVG(&buf, r); err != nil {
		t.Fatal(err)
	}
	p := svgParts(t, buf.Bytes())
	texts := strings.Join(p.Texts, "\n")
	for _, want := range []string{"Curva ABC de serviços", "Total do serviço c/ BDI (R$)", "Serviços em ordem decrescente de total com BDI (código)", "2 serviços"} {
		if !strings.Contains(texts, want) {
			t.Errorf("SVG lacks %q:\n%s", want, texts)
		}
	}
	if strings.Contains(texts, "insumo") || p.Bars["A"] != 1 || p.Bars["C"] != 1 {
		t.Errorf("SVG bars %v, texts:\n%s", p.Bars, texts)
	}
	if reports.ABCFileStem(r) != "curva-abc-servicos" || reports.ABCFileStem(abcReport(t)) != "curva-abc" {
		t.Errorf("file stems %q", reports.ABCFileStem(r))
	}
}

// The resources' curve keeps its words.
func TestABCResourcesWords(t *testing.T) {
	r := abcReport(t)
	r.Budget = docBudget()
	var buf bytes.Buffer
	if err := reports.ABCPDF(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(pdfPages(t, buf.Bytes()), "\n")
	if !strings.Contains(text, "Curva ABC de insumos") || strings.Contains(text, "c/ BDI") || strings.Contains(text, "serviços (") {
		t.Errorf("resources' PDF:\n%s", text)
	}
}

func fmtRows(rows [][]string) string {
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString(strings.Join(r, "|"))
		sb.WriteByte('\n')
	}
	return sb.String()
}
