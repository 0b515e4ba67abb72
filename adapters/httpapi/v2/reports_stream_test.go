package v2

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// odd are descriptions encoding/json escapes: quotes, backslashes, control
// characters, HTML (left as is), the line separators, invalid UTF-8.
var odd = []string{"ALVENARIA \"A\" \\ 1/2", "tab\tnew\nline\r\b\f\x01", "<b>&amp;</b>", "sep\u2028par\u2029", "bad \xff\xfe utf8", "AÇO CA-50 Ø 10,0 MM", ""}

func streamBudget() *domain.Budget {
	return &domain.Budget{ID: "b-1", Code: "OB\"1", Description: "Escola <nova>", Client: "Prefeitura", State: "GO",
		BDI: dec("25.5"), BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate, WorkType: "construcao_edificios"}
}

func syntheticRows() []domain.SyntheticRow {
	rows := []domain.SyntheticRow{
		{NodeID: "n1", Number: "1", Depth: 1, Kind: domain.NodeStage, Description: odd[0],
			LineFigures: domain.LineFigures{Total: dec("1234.5"), TotalWithBDI: dec("1549.30")}, Weight: dec("99.99")},
		{NodeID: "n2", Number: "1.1", Depth: 2, Kind: domain.NodeComposition, Bank: "SINAPI", Month: "01/2025", Code: "87471",
			Unit: "m2", Quantity: dec("120.123456789012"), Description: odd[1],
			LineFigures: domain.LineFigures{UnitPrice: dec("10.2"), UnitPriceWithBDI: dec("12.8010"), Total: dec("1225"), TotalWithBDI: dec("1537.66")},
			Weight:      dec("0.01"), Supply: true},
		{NodeID: "n3", Number: "1.2", Depth: 2, Kind: domain.NodeResource, Bank: "MYBASE", Code: "R-1", Unit: "kg",
			Quantity: dec("3"), Description: odd[2], Missing: true},
		{NodeID: "n4", Number: "2", Depth: 1, Kind: domain.NodeStage, Description: odd[3]},
		{NodeID: "n5", Number: "2.1", Depth: 2, Kind: domain.NodeResource, Bank: "SICRO3", Month: "07/2024", Code: "M0001",
			Unit: "t", Quantity: dec("0.0001"), Description: odd[4],
			LineFigures: domain.LineFigures{UnitPrice: dec("999999999999.9999"), UnitPriceWithBDI: dec("1"), Total: dec("-0.5"), TotalWithBDI: dec("0")}},
		{NodeID: "n6", Number: "2.2", Depth: 2, Kind: domain.NodeComposition, Bank: "MYBASE", Code: "C\"7", Unit: odd[5],
			Quantity: dec("1"), Description: odd[5]},
	}
	return rows
}

func streamMissing() []domain.BudgetMissing {
	return []domain.BudgetMissing{{NodeID: "n3", Number: "1.2", MissingPrice: domain.MissingPrice{Bank: "MYBASE", Code: "R-1", Kind: domain.KindResource, Reason: "gone <really>"}}}
}

// compare renders a report both ways and wants the same bytes and headers.
func compare(t *testing.T, name string, legacy, streamed func(*httptest.ResponseRecorder)) {
	t.Helper()
	a, b := httptest.NewRecorder(), httptest.NewRecorder()
	legacy(a)
	streamed(b)
	if a.Code != b.Code || a.Header().Get("Content-Type") != b.Header().Get("Content-Type") {
		t.Errorf("%s: status %d %q, want %d %q", name, b.Code, b.Header().Get("Content-Type"), a.Code, a.Header().Get("Content-Type"))
	}
	if !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
		t.Errorf("%s: streamed body differs\n got %s\nwant %s", name, b.Body.Bytes(), a.Body.Bytes())
	}
}

// TestStreamedReportsAsBefore: the streamed documents of the three reports
// are byte for byte what the reflection-rendered documents were, with
// every kind of row, null, escape and number, incomplete or not, empty or
// not, and a 409 the same way when a figure is out of bounds.
func TestStreamedReportsAsBefore(t *testing.T) {
	h := &handlers{}
	req := httptest.NewRequest("GET", "/api/public/v2/budgets/b-1/reports/synthetic?format=json&x=%3C%26%3E", nil)
	// The streamed side as the service answers it: the use case refuses a
	// report with a figure out of bounds (domain.ErrFiguresOut, checked by
	// the report's FiguresOut), the handler writes what it gets.
	streamed := func(rep interface{ FiguresOut() bool }, write func(w *httptest.ResponseRecorder)) func(w *httptest.ResponseRecorder) {
		return func(w *httptest.ResponseRecorder) {
			if rep.FiguresOut() {
				err := domain.ErrFiguresOut().(*domain.Error) // as writeError writes a conflict
				writeErrors(w, []errorObject{{Status: "409", Code: err.Code, Title: titles[err.Code], Detail: err.Message}})
				return
			}
			write(w)
		}
	}
	for _, c := range []struct {
		name    string
		rows    []domain.SyntheticRow
		missing []domain.BudgetMissing
		total   string
	}{
		{"empty", nil, nil, "0"},
		{"rows", syntheticRows(), nil, "1234.5"},
		{"incomplete", syntheticRows(), streamMissing(), "1234.5"},
		{"out of bounds", syntheticRows(), nil, "1000000000000000"},
		{"row out of bounds", append(syntheticRows(), domain.SyntheticRow{NodeID: "n9", Kind: domain.NodeResource, Quantity: dec("1e15")}), nil, "1"},
	} {
		b := streamBudget()
		if c.name == "incomplete" {
			b.BDIMode, b.WorkType, b.SupplyBDI = domain.BDIOnFinalTotal, "", dec("12.5")
		}
		tot := domain.BudgetTotals{Total: dec(c.total), BDIValue: dec("0.1"), TotalWithBDI: dec(c.total).Add(dec("0.1"))}
		syn := &domain.SyntheticReport{Budget: b, Rows: c.rows, BudgetTotals: tot, Missing: c.missing}
		compare(t, "synthetic "+c.name,
			func(w *httptest.ResponseRecorder) { h.legacySynthetic(w, req, syn) },
			streamed(syn, func(w *httptest.ResponseRecorder) { h.writeSynthetic(w, req, syn) }))

		an := &domain.AnalyticReport{Budget: b, BudgetTotals: tot, Missing: c.missing,
			Summary: domain.CostSummary{Labor: dec("1.5"), Material: dec("2"), Equipment: dec("0.001"), Services: dec("3.14159")}}
		shared := analyticItems()
		for i, r := range c.rows {
			ar := domain.AnalyticRow{SyntheticRow: r}
			if r.Kind.IsLine() {
				ar.UnitSummary = domain.CostSummary{Labor: dec("1"), Material: dec("2.5"), Services: dec("0.005")}
				if i%2 == 1 {
					ar.Items = shared // shared subtree, written twice
				}
			}
			an.Rows = append(an.Rows, ar)
		}
		compare(t, "analytic "+c.name,
			func(w *httptest.ResponseRecorder) { h.legacyAnalytic(w, req, an) },
			streamed(an, func(w *httptest.ResponseRecorder) { h.writeAnalytic(w, req, an) }))

		abc := &domain.ABCReport{Budget: b, Limits: domain.DefaultABCLimits(), Total: dec(c.total),
			Summary: domain.CostSummary{Labor: dec("10")}}
		for i, r := range c.rows {
			if !r.Kind.IsLine() {
				continue
			}
			row := domain.ABCRow{ABCInput: domain.ABCInput{Ref: domain.BankRef{Name: r.Bank, Month: r.Month}, Code: r.Code,
				Kind: domain.ItemKind(r.Kind), Idle: i == 4, Description: r.Description, Unit: r.Unit, ResourceType: i,
				Category: domain.CategoryMaterial, Quantity: r.Quantity, UnitPrice: r.UnitPrice, Total: r.Total, Missing: r.Missing},
				Position: len(abc.Rows) + 1, Percent: r.Weight, CumulativePercent: dec("100"), Class: domain.ClassB}
			abc.Rows = append(abc.Rows, row)
			if r.Missing {
				abc.Missing = append(abc.Missing, domain.MissingPrice{Bank: r.Bank, Code: r.Code, Kind: domain.KindResource, Reason: odd[2]})
			}
		}
		compare(t, "abc "+c.name,
			func(w *httptest.ResponseRecorder) { h.legacyABC(w, req, abc) },
			streamed(abc, func(w *httptest.ResponseRecorder) { h.writeABC(w, req, abc) }))
	}
}

func analyticItems() []domain.AnalyticItem {
	leaf := []domain.AnalyticItem{
		{Kind: domain.KindResource, Bank: "SINAPI", Month: "01/2025", Code: "00001", Description: odd[0], Unit: "H",
			ResourceType: 3, Coefficient: dec("0.123456789012"), UnitPrice: dec("20.5"), Partial: dec("2.53")},
		{Kind: domain.KindResource, Bank: "SINAPI", Month: "01/2025", Code: "00002", Description: odd[4], Unit: "KG",
			ResourceType: 4, Coefficient: dec("2"), Missing: true, Reason: "no price"},
	}
	return []domain.AnalyticItem{
		{Kind: domain.KindComposition, Bank: "MYBASE", Code: "C-2", Description: odd[1], Unit: "m3", Section: "A",
			Coefficient: dec("1"), UnitPrice: dec("12.3456"), Partial: dec("12.34"), Items: leaf},
		{Kind: domain.KindComposition, Bank: "SINAPI", Month: "01/2025", Code: "88316", Description: odd[3], Unit: "H",
			Coefficient: dec("0.5"), UnitPrice: dec("30"), Partial: dec("15"), Items: leaf},
		{Kind: domain.KindResource, Bank: "MYBASE", Code: "R-9", Description: odd[6], Unit: "un", ResourceType: 0,
			Coefficient: dec("1e-3"), UnitPrice: dec("1000"), Partial: dec("1")},
	}
}
