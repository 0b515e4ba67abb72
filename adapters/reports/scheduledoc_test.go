package reports_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// docScheduleTable is the schedule of docSynthetic(0) over three months:
// stage 1 (16691.66) at 33.33 / 33.33 / 33.34 and stage 2 (3020.00) at
// 0 / 12.5 / 87.5, truncated:
//
//	1: accumulated trunc(5563.330278) = 5563.33, trunc(11126.660556) =
//	   11126.66, 16691.66: cells 5563.33, 5563.33, 5565.00
//	2: 0, trunc(377.5) = 377.50, 3020.00: cells 0, 377.50, 2642.50
func docScheduleTable(t *testing.T) *domain.ScheduleTable {
	t.Helper()
	syn := docSynthetic(0)
	syn.Budget.Items = []domain.BudgetNode{
		{ID: "n1", Kind: domain.NodeStage, Description: "Alvenaria", Items: []domain.BudgetNode{{ID: "n2-0", Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89306", Quantity: dec("120.5")}}},
		{ID: "n3", Kind: domain.NodeStage, Description: "Fornecimento", Items: []domain.BudgetNode{{ID: "n4", Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("1000")}}},
	}
	s := &domain.Schedule{BudgetID: "b1", Start: "09/2026", Periods: 3, Rows: []domain.ScheduleRow{
		{NodeID: "n1", Shares: []decimal.Decimal{dec("33.33"), dec("33.33"), dec("33.34")}},
		{NodeID: "n3", Shares: []decimal.Decimal{dec("0"), dec("12.5"), dec("87.5")}},
	}}
	tab, err := domain.NewScheduleTable(s, syn)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// The schedule's workbook: every figure a formula whose cached value is the
// table's (which the HTTP tests compare with the API's), the worked figures
// above, the header of the budget documents.
func TestScheduleXLSX(t *testing.T) {
	tab := docScheduleTable(t)
	var buf bytes.Buffer
	if err := reports.ScheduleXLSX(&buf, tab, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("SCHEDULE_XLSX_OUT"); out != "" {
		_ = os.WriteFile(out, buf.Bytes(), 0o644)
	}
	x, rows := openXLSX(t, buf.Bytes(), "Cronograma")
	check := cellCheck(t, x, "Cronograma")
	if rows[0][0] != "Cronograma físico-financeiro — ORC-001 — Casa térrea" || rows[8][4] != "09/2026" || rows[8][6] != "11/2026" {
		t.Errorf("header %q, headings %q", rows[0], rows[8])
	}
	// Rows 10/11 stage 1 (R$, %), 12/13 stage 2, then the footer.
	want := [][]string{{"5563.33", "5563.33", "5565.00"}, {"0.00", "377.50", "2642.50"}}
	prefix := [][]string{
		{"TRUNC($D10*SUM(E11:E11)/100,2)", "TRUNC($D10*SUM(E11:F11)/100,2)-TRUNC($D10*SUM(E11:E11)/100,2)", "TRUNC($D10*SUM(E11:G11)/100,2)-TRUNC($D10*SUM(E11:F11)/100,2)"},
		{"TRUNC($D12*SUM(E13:E13)/100,2)", "TRUNC($D12*SUM(E13:F13)/100,2)-TRUNC($D12*SUM(E13:E13)/100,2)", "TRUNC($D12*SUM(E13:G13)/100,2)-TRUNC($D12*SUM(E13:F13)/100,2)"}}
	for r := range want {
		for c := range want[r] {
			cell := fmt.Sprintf("%c%d", 'E'+c, 10+2*r)
			check(cell, tab.Rows[r].Cells[c], prefix[r][c])
			if tab.Rows[r].Cells[c].StringFixed(2) != want[r][c] {
				t.Errorf("table cell %d,%d = %s, want %s", r, c, tab.Rows[r].Cells[c], want[r][c])
			}
		}
	}
	for c, p := range tab.Periods {
		col := string(rune('E' + c))
		check(fmt.Sprintf("%s14", col), p.Total, `SUMIF($C$10:$C$13,"R$",`+col)
		check(fmt.Sprintf("%s15", col), p.Percent, "IF($D$14=0,0,ROUND("+col+"14*100")
		check(fmt.Sprintf("%s16", col), p.Accumulated, "")
		check(fmt.Sprintf("%s17", col), p.AccumulatedPercent, "IF($D$14=0,0,ROUND("+col+"16*100")
	}
	check("D14", tab.Total, `SUMIF($C$10:$C$13,"R$",D`)
	check("D11", dec("100"), "SUM(E11:G11)")
	if v, _ := x.GetCellValue("Cronograma", "G17", excelize.Options{RawCellValue: true}); v != "100" {
		t.Errorf("last accumulated percent %q", v)
	}
}

// The schedule's PDF: one page for three periods, the worked figures as
// Brazilians read them, the page number; a 20-month schedule is laid out in
// blocks of periods.
func TestSchedulePDF(t *testing.T) {
	tab := docScheduleTable(t)
	var buf bytes.Buffer
	if err := reports.SchedulePDF(&buf, tab, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("SCHEDULE_PDF_OUT"); out != "" {
		_ = os.WriteFile(out, buf.Bytes(), 0o644)
	}
	pages := pdfPages(t, buf.Bytes())
	text := strings.Join(pages, "\n")
	if len(pages) != 1 {
		t.Errorf("%d pages", len(pages))
	}
	for _, s := range []string{"Cronograma físico-financeiro", "5.563,33", "5.565,00", "2.642,50", "19.711,66", "100,00", "09/2026", "Página 1 de 1"} {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF has no %q", s)
		}
	}

	// 20 months: blocks of periods 1–8, 9–16, 17–20, each opened by its labels.
	syn := docSynthetic(0)
	syn.Budget.Items = tab.Budget.Items
	long := make([]decimal.Decimal, 20)
	for i := range long {
		long[i] = dec("5")
	}
	s := &domain.Schedule{BudgetID: "b1", Start: "09/2026", Periods: 20, Rows: []domain.ScheduleRow{{NodeID: "n1", Shares: long}, {NodeID: "n3", Shares: long}}}
	lt, err := domain.NewScheduleTable(s, syn)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := reports.SchedulePDF(&buf, lt, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("SCHEDULE_PDF_OUT"); out != "" {
		_ = os.WriteFile(out+".long.pdf", buf.Bytes(), 0o644)
	}
	text = strings.Join(pdfPages(t, buf.Bytes()), "\n")
	for _, s := range []string{"Períodos 1 a 8", "Períodos 17 a 20", "04/2028", "19.711,66"} {
		if !strings.Contains(text, s) {
			t.Errorf("the long PDF has no %q", s)
		}
	}
}
