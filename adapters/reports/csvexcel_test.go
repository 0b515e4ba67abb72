package reports_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// excelReport is a synthetic report whose item number, code, data-base and
// unit a pt-BR spreadsheet would read as numbers or dates.
func excelReport() *domain.SyntheticReport {
	b := &domain.Budget{Code: "X", BDI: dec("25"), BDIMode: domain.BDIOnUnitPrice}
	rule := b.BDIRule()
	line := rule.Line(dec("113.33"), dec("120.5"))
	own := rule.Line(dec("2.5"), dec("10"))
	return &domain.SyntheticReport{Budget: b, Rows: []domain.SyntheticRow{
		{NodeID: "n1", Number: "2", Depth: 1, Kind: domain.NodeStage, Description: "Alvenaria", LineFigures: domain.LineFigures{Total: line.Total, TotalWithBDI: line.TotalWithBDI}, Weight: dec("100")},
		{NodeID: "n2", Number: "2.100", Depth: 2, Kind: domain.NodeResource, Bank: "SINAPI", Month: "08/2026", Code: "0909620", Unit: "1/2", Quantity: dec("120.5"), Description: "CIMENTO; \"CP II\"", LineFigures: line, Weight: dec("99")},
		{NodeID: "n3", Number: "2.101", Depth: 2, Kind: domain.NodeResource, Bank: "MYBASE", Code: `=A"1`, Unit: "KG", Quantity: dec("10"), Description: "-própria", LineFigures: own, Weight: dec("1")},
	}, BudgetTotals: rule.Totals(line.Total.Add(own.Total), line.TotalWithBDI.Add(own.TotalWithBDI))}
}

// The CSV for a spreadsheet (ForSpreadsheet) writes the item number, code,
// data-base and unit of each row as the text formula ="…" (quotes doubled,
// so that a code the company typed stays inert text), and every other cell
// as the default file does; the default file writes them as they are.
func TestCSVForSpreadsheet(t *testing.T) {
	var plain, excel bytes.Buffer
	if err := reports.SyntheticCSV(&plain, excelReport()); err != nil {
		t.Fatal(err)
	}
	if err := reports.SyntheticCSV(&excel, excelReport(), reports.ForSpreadsheet); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte(`="`)) {
		t.Errorf("the default CSV has a text formula:\n%s", plain.Bytes())
	}
	p, x := readCSV(t, plain.Bytes()), readCSV(t, excel.Bytes())
	if len(p) != len(x) {
		t.Fatalf("%d records, the default has %d", len(x), len(p))
	}
	want := map[string][]string{ // record: columns Item, Data-base, Código, Unidade
		"stage": {`="2"`, "", "", ""},
		"2.100": {`="2.100"`, `="08/2026"`, `="0909620"`, `="1/2"`},
		"2.101": {`="2.101"`, "", `="=A""1"`, `="KG"`},
	}
	for i, name := range []string{"stage", "2.100", "2.101"} {
		rec := x[i+1]
		got := []string{rec[0], rec[3], rec[4], rec[6]}
		if strings.Join(got, "|") != strings.Join(want[name], "|") {
			t.Errorf("row %s: %q, want %q", name, got, want[name])
		}
	}
	if x[2][4] != `="0909620"` || p[2][4] != "0909620" || p[3][4] != `'=A"1` || p[2][0] != "2.100" {
		t.Errorf("code cells: spreadsheet %q, default %q %q", x[2][4], p[2][4], p[3][4])
	}
	// Every other cell is the default's: descriptions (free text, guarded
	// by an apostrophe as in the default), figures, the footer.
	textCols := map[int]bool{0: true, 3: true, 4: true, 6: true}
	for i := range p {
		for j := range p[i] {
			if i > 0 && textCols[j] && x[i][j] != p[i][j] {
				continue // checked above
			}
			if x[i][j] != p[i][j] {
				t.Errorf("record %d column %d: %q, the default has %q", i, j, x[i][j], p[i][j])
			}
		}
	}
	if x[3][5] != "'-própria" || x[2][5] != `CIMENTO; "CP II"` {
		t.Errorf("descriptions %q %q", x[2][5], x[3][5])
	}
}

// The footer's BDI names every rate it applied: the supply BDI when lines
// of the tree take it, and the final total.
func TestBDILabelNamesSupply(t *testing.T) {
	b := &domain.Budget{BDI: dec("22.23"), SupplyBDI: dec("14.02"), BDIMode: domain.BDIOnUnitPrice,
		Items: []domain.BudgetNode{{ID: "n1", Kind: domain.NodeResource, Bank: "SINAPI", Code: "1", Quantity: dec("1")}}}
	for _, tc := range []struct {
		supply []string
		mode   domain.BDIMode
		want   string
	}{
		{nil, domain.BDIOnUnitPrice, "BDI (22,23%)"},
		{[]string{"n9"}, domain.BDIOnUnitPrice, "BDI (22,23%)"}, // no longer in the tree
		{[]string{"n1"}, domain.BDIOnUnitPrice, "BDI (22,23%; fornecimento 14,02%)"},
		{nil, domain.BDIOnFinalTotal, "BDI (22,23% sobre o total)"},
		{[]string{"n1"}, domain.BDIOnFinalTotal, "BDI (22,23%; fornecimento 14,02%; sobre o total)"},
	} {
		b.SupplyNodes, b.BDIMode = tc.supply, tc.mode
		if got := reports.BDILabel(b); got != tc.want {
			t.Errorf("supply %v %s: %q, want %q", tc.supply, tc.mode, got, tc.want)
		}
	}
}

// A comparison's CSV lists the line added and the line removed, says so in
// Alteração, and writes the residual (the BDI on the final total, in no
// line) as its own row, so that the column Diferença total of the lines and
// the residual adds up to the total's.
func TestPriceDiffCSVAddsUp(t *testing.T) {
	line := func(id, number, code, total string) domain.SyntheticRow {
		r := domain.SyntheticRow{NodeID: id, Number: number, Depth: 1, Kind: domain.NodeResource, Bank: "SICRO3", Code: code, Quantity: dec("1")}
		r.UnitPrice, r.Total, r.TotalWithBDI = dec(total), dec(total), dec(total)
		return r
	}
	b := &domain.Budget{BDI: dec("20"), BDIMode: domain.BDIOnFinalTotal}
	before := &domain.SyntheticReport{Budget: b, Rows: []domain.SyntheticRow{line("n1", "1", "0909620", "100"), line("n2", "2", "E9069", "50")},
		BudgetTotals: domain.BudgetTotals{Total: dec("150"), BDIValue: dec("30"), TotalWithBDI: dec("180")}}
	after := &domain.SyntheticReport{Budget: b, Rows: []domain.SyntheticRow{line("n1", "1", "0909620", "110"), line("n3", "2", "E9069", "1825.2")},
		BudgetTotals: domain.BudgetTotals{Total: dec("1935.2"), BDIValue: dec("387.04"), TotalWithBDI: dec("2322.24")}}
	var buf bytes.Buffer
	if err := reports.PriceDiffCSV(&buf, domain.ComparePrices(before, after)); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, buf.Bytes())
	if h := recs[0]; h[17] != "Quantidade depois" || h[18] != "Alteração" {
		t.Errorf("header %q", h)
	}
	var got []string
	sum := dec("0")
	for _, r := range recs[1:] {
		if r[3] == "Total com BDI" {
			if r[14] != "2142,24" || !sum.Equal(dec("2142.24")) {
				t.Errorf("total row %q; the rows above add up to %s", r, sum)
			}
			continue
		}
		got = append(got, r[0]+" "+r[3]+" "+r[14]+" "+r[16]+" "+r[18])
		sum = sum.Add(dec(strings.Replace(r[14], ",", ".", 1)))
	}
	want := []string{"2  1825,20  incluída", "2  -50,00  excluída", "1  10,00  alterada", " Fora das linhas: BDI sobre o total 357,04  "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows\n got %q\nwant %q", got, want)
	}
}
