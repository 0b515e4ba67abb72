package reports_test

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var mg = domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}

// abcReport ranks a small curve: totals 500, 300, 120, 50, 20, 10 (1000).
func abcReport(t *testing.T) *domain.ABCReport {
	t.Helper()
	in := []domain.ABCInput{
		{Ref: mg, Code: "34586", Kind: domain.KindResource, Description: "BLOCO ESTRUTURAL CERAMICO", Unit: "UN", ResourceType: domain.TypeMaterial, Quantity: dec("190.9"), UnitPrice: dec("2.62"), Total: dec("500")},
		{Ref: mg, Code: "88309", Kind: domain.KindComposition, Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H", Quantity: dec("8.9"), UnitPrice: dec("33.62"), Total: dec("300")},
		{Ref: mg, Code: "87286", Kind: domain.KindComposition, Description: "ARGAMASSA TRAÇO 1:1:6 <mistura> & cia", Unit: "M3", Quantity: dec("0.17"), UnitPrice: dec("713.59"), Total: dec("120")},
		{Ref: domain.BankRef{Name: domain.BankMyBase}, Code: "=CMD()", Kind: domain.KindResource, Description: "-própria", Unit: "KG", ResourceType: domain.TypeMaterial, Quantity: dec("4.05"), UnitPrice: dec("12.345"), Total: dec("50")},
		{Ref: mg, Code: "34649", Kind: domain.KindResource, Description: "CANALETA", Unit: "UN", ResourceType: domain.TypeMaterial, Quantity: dec("5.75"), UnitPrice: dec("3.48"), Total: dec("20")},
		{Ref: mg, Code: "34788", Kind: domain.KindResource, Description: "MEIO BLOCO", Unit: "UN", ResourceType: domain.TypeMaterial, Quantity: dec("6.2"), UnitPrice: dec("1.61"), Total: dec("10")},
	}
	b := &domain.Budget{ID: "b1", Code: "ORC-2026/001 Édifício", Description: "Edifício residencial"}
	r := &domain.ABCReport{Budget: b, Limits: domain.DefaultABCLimits(), Rows: domain.RankABC(in, domain.DefaultABCLimits())}
	for _, row := range r.Rows {
		r.Total = r.Total.Add(row.Total)
	}
	return r
}

// readCSV checks the BOM and reads the records with ";".
func readCSV(t *testing.T, b []byte) [][]string {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		t.Fatalf("no UTF-8 byte order mark: %q", b[:min(10, len(b))])
	}
	if !bytes.Contains(b, []byte("\r\n")) {
		t.Error("lines do not end in CRLF")
	}
	r := csv.NewReader(bytes.NewReader(b[3:]))
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("not CSV with ';': %v", err)
	}
	return recs
}

func TestABCCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.ABCCSV(&buf, abcReport(t)); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, buf.Bytes())
	if len(recs) != 1+6+1 {
		t.Fatalf("%d records, want header + 6 rows + total", len(recs))
	}
	if got := strings.Join(recs[0], "|"); got != "Posição|Banco|Data-base|Código|Descrição|Unidade|Tipo|Quantidade|Preço unitário|Total|Percentual (%)|Percentual acumulado (%)|Classe" {
		t.Errorf("header %s", got)
	}
	first := recs[1]
	if first[0] != "1" || first[3] != "34586" || first[6] != "Material" || first[7] != "190,9" || first[8] != "2,62" || first[9] != "500,00" || first[10] != "50,00" || first[11] != "50,00" || first[12] != "A" {
		t.Errorf("first row %q", first)
	}
	if recs[2][6] != "Composição" || recs[2][12] != "B" {
		t.Errorf("second row %q: 88309 stays whole (Composição); the cumulative share before it is 50%%, so it is B", recs[2])
	}
	own := recs[4]
	if own[3] != "'=CMD()" || own[4] != "'-própria" || own[1] != "MYBASE" || own[2] != "" {
		t.Errorf("own row %q: text that a spreadsheet would run is quoted with an apostrophe", own)
	}
	if last := recs[len(recs)-1]; last[4] != "Total" || last[9] != "1000,00" || last[10] != "100,00" {
		t.Errorf("footer %q", last)
	}
}

func TestFilename(t *testing.T) {
	b := &domain.Budget{ID: "b1", Code: "ORC-2026/001 Édifício"}
	if got := reports.Filename(b, "curva-abc", "svg"); got != "orcamento-ORC-2026_001_Edificio-curva-abc.svg" {
		t.Errorf("Filename = %q", got)
	}
	if got := reports.Filename(&domain.Budget{ID: "b1", Code: "///"}, "sintetico", "csv"); got != "orcamento-b1-sintetico.csv" {
		t.Errorf("Filename of a code with nothing usable = %q", got)
	}
}

type svgElem struct {
	XMLName xml.Name
	Class   string    `xml:"class,attr"`
	Points  string    `xml:"points,attr"`
	Title   string    `xml:"title"`
	Text    string    `xml:",chardata"`
	Kids    []svgElem `xml:",any"`
}

// walk visits every element of the chart.
func walk(es []svgElem, fn func(svgElem)) {
	for _, e := range es {
		fn(e)
		walk(e.Kids, fn)
	}
}

func parseSVG(t *testing.T, b []byte) []svgElem {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var root struct {
		XMLName xml.Name  `xml:"svg"`
		Kids    []svgElem `xml:",any"`
	}
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("the chart is not well-formed XML: %v", err)
	}
	if root.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Errorf("root element %v, want svg in the SVG namespace", root.XMLName)
	}
	// Nothing after the root element but white space.
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after the root element: %v", err)
		}
		if cd, ok := tok.(xml.CharData); !ok || len(bytes.TrimSpace(cd)) > 0 {
			t.Fatalf("content after the root element: %v", tok)
		}
	}
	return root.Kids
}

// SVGParts counts the bars per class and reads the other parts of a chart.
type SVGParts struct {
	Bars     map[string]int
	Bands    []string
	Polyline string
	Texts    []string
	Titles   []string
}

func svgParts(t *testing.T, b []byte) SVGParts {
	t.Helper()
	parts := SVGParts{Bars: map[string]int{}}
	walk(parseSVG(t, b), func(e svgElem) {
		cls := strings.Fields(e.Class)
		switch {
		case len(cls) > 0 && cls[0] == "bar":
			parts.Bars[strings.TrimPrefix(cls[1], "bar-")]++
			parts.Titles = append(parts.Titles, e.Title)
		case len(cls) > 0 && cls[0] == "band":
			parts.Bands = append(parts.Bands, strings.TrimPrefix(cls[1], "band-"))
		case e.XMLName.Local == "polyline":
			parts.Polyline = e.Points
		case e.XMLName.Local == "text":
			parts.Texts = append(parts.Texts, e.Text)
		}
	})
	return parts
}

func TestABCSVG(t *testing.T) {
	var buf bytes.Buffer
	if err := reports.ABCSVG(&buf, abcReport(t)); err != nil {
		t.Fatal(err)
	}
	if path := os.Getenv("COSTDB_SVG_OUT"); path != "" {
		_ = os.WriteFile(path, buf.Bytes(), 0o644)
	}
	p := svgParts(t, buf.Bytes())
	// 500 (A: 0 → 50%), 300 (B: 50 → 80%), then C.
	if p.Bars["A"] != 1 || p.Bars["B"] != 1 || p.Bars["C"] != 4 {
		t.Errorf("bars per class %v, want A 1, B 1, C 4", p.Bars)
	}
	if strings.Join(p.Bands, ",") != "A,B,C" {
		t.Errorf("bands %v", p.Bands)
	}
	if n := len(strings.Fields(p.Polyline)); n != 6 {
		t.Errorf("the cumulative line has %d points, want one per bar", n)
	}
	all := strings.Join(p.Texts, "\n")
	for _, want := range []string{"Custo do insumo (R$)", "Percentual acumulado (%)", "Insumos em ordem decrescente de custo (código)", "100%", "limite A: 50%", "limite B: 80%", "34586"} {
		if !strings.Contains(all, want) {
			t.Errorf("the chart has no text %q", want)
		}
	}
	if !strings.Contains(p.Titles[2], "ARGAMASSA TRAÇO 1:1:6 <mistura> & cia") {
		t.Errorf("third bar's title %q: the description, escaped in the XML, reads back whole", p.Titles[2])
	}
}

func TestABCSVGEmpty(t *testing.T) {
	r := &domain.ABCReport{Budget: &domain.Budget{Code: "V"}, Limits: domain.DefaultABCLimits()}
	var buf bytes.Buffer
	if err := reports.ABCSVG(&buf, r); err != nil {
		t.Fatal(err)
	}
	p := svgParts(t, buf.Bytes())
	if len(p.Bars) != 0 || len(p.Bands) != 0 {
		t.Errorf("an empty curve has bars %v, bands %v", p.Bars, p.Bands)
	}
}

// TestABCSVGMany draws a curve of 3000 resources: the chart stays within
// its maximum width and has every bar.
func TestABCSVGMany(t *testing.T) {
	in := make([]domain.ABCInput, 3000)
	for i := range in {
		in[i] = domain.ABCInput{Ref: mg, Code: "R" + decimal.NewFromInt(int64(i)).String(), Kind: domain.KindResource,
			Quantity: decimal.NewFromInt(1), UnitPrice: decimal.NewFromInt(int64(i + 1)), Total: decimal.NewFromInt(int64(i + 1))}
	}
	r := &domain.ABCReport{Budget: &domain.Budget{Code: "BIG"}, Limits: domain.DefaultABCLimits(), Rows: domain.RankABC(in, domain.DefaultABCLimits())}
	for _, row := range r.Rows {
		r.Total = r.Total.Add(row.Total)
	}
	var buf bytes.Buffer
	if err := reports.ABCSVG(&buf, r); err != nil {
		t.Fatal(err)
	}
	p := svgParts(t, buf.Bytes())
	if n := p.Bars["A"] + p.Bars["B"] + p.Bars["C"]; n != 3000 {
		t.Errorf("%d bars, want 3000", n)
	}
}

func TestSyntheticCSV(t *testing.T) {
	b := &domain.Budget{Code: "X", BDI: dec("25"), BDIMode: domain.BDIOnUnitPrice}
	rule := b.BDIRule()
	line := rule.Line(dec("113.33"), dec("120.5"))
	r := &domain.SyntheticReport{Budget: b, Rows: []domain.SyntheticRow{
		{NodeID: "n1", Number: "1", Depth: 1, Kind: domain.NodeStage, Description: "Alvenaria", LineFigures: domain.LineFigures{Total: line.Total, TotalWithBDI: line.TotalWithBDI}, Weight: dec("100")},
		{NodeID: "n2", Number: "1.1", Depth: 2, Kind: domain.NodeComposition, Bank: "SINAPI", Month: "08/2026", Code: "89306", Unit: "M2", Quantity: dec("120.5"), Description: "ALVENARIA; \"ESTRUTURAL\"", LineFigures: line, Weight: dec("100")},
	}, BudgetTotals: rule.Totals(line.Total, line.TotalWithBDI)}
	var buf bytes.Buffer
	if err := reports.SyntheticCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, buf.Bytes())
	if len(recs) != 1+2+3 {
		t.Fatalf("%d records, want header + 2 rows + 3 footer rows", len(recs))
	}
	// 113.33 × 120.5 = 13656.265 → 13656.26; 113.33 × 1.25 = 141.6625 → 141.66; × 120.5 = 17070.03.
	want := []string{"1.1", "Composição", "SINAPI", "08/2026", "89306", "ALVENARIA; \"ESTRUTURAL\"", "M2", "120,5", "113,33", "141,66", "13656,26", "17070,03", "100,00"}
	if got := recs[2]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("line row\n got %q\nwant %q", got, want)
	}
	if recs[1][1] != "Etapa" || recs[1][2] != "" || recs[1][10] != "13656,26" {
		t.Errorf("stage row %q", recs[1])
	}
	foot := recs[3:]
	if foot[0][5] != "Total sem BDI" || foot[0][10] != "13656,26" || foot[1][5] != "BDI (25%)" || foot[1][10] != "3413,77" || foot[2][5] != "Total com BDI" || foot[2][10] != "17070,03" {
		t.Errorf("footer %q", foot)
	}
}
