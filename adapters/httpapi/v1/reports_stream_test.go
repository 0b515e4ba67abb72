package v1

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// odd are descriptions encoding/json escapes: quotes, backslashes, control
// characters, HTML (left as is), the line separators, invalid UTF-8.
var odd = []string{"ALVENARIA \"A\" \\ 1/2", "tab\tnew\nline\r\b\f\x01", "<b>&amp;</b>", "sep\u2028par\u2029", "bad \xff\xfe utf8", "AÇO CA-50 Ø 10,0 MM", ""}

func streamRows() []domain.SyntheticRow {
	return []domain.SyntheticRow{
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
			LineFigures: domain.LineFigures{UnitPrice: dec("999999999999.9999"), UnitPriceWithBDI: dec("1"), Total: dec("-0.5")}},
		{NodeID: "n6", Number: "2.2", Depth: 2, Kind: domain.NodeComposition, Bank: "MYBASE", Code: "C\"7", Unit: odd[5],
			Quantity: dec("1"), Description: odd[5]},
	}
}

func streamItems() []domain.AnalyticItem {
	leaf := []domain.AnalyticItem{
		{Kind: domain.KindResource, Bank: "SINAPI", Month: "01/2025", Code: "00001", Description: odd[0], Unit: "H",
			ResourceType: 3, Coefficient: dec("0.123456789012"), UnitPrice: dec("20.5"), Partial: dec("2.53")},
		{Kind: domain.KindResource, Bank: "SINAPI", Month: "01/2025", Code: "00002", Description: odd[4], Unit: "KG",
			ResourceType: 4, Coefficient: dec("2.50"), Missing: true, Reason: "no price"},
	}
	return []domain.AnalyticItem{
		{Kind: domain.KindComposition, Bank: "MYBASE", Code: "C-2", Description: odd[1], Unit: "m3", Section: "A",
			Coefficient: dec("1"), UnitPrice: dec("12.3456"), Partial: dec("12.34"), Items: leaf},
		{Kind: domain.KindComposition, Bank: "SINAPI", Month: "01/2025", Code: "88316", Description: odd[3], Unit: "H",
			Coefficient: dec("0.5"), UnitPrice: dec("30"), Partial: dec("15"), Items: leaf},
		{Kind: domain.KindResource, Bank: "MYBASE", Code: "R-9", Description: odd[6], Unit: "un",
			Coefficient: dec("1e-3"), UnitPrice: dec("1000"), Partial: dec("1")},
	}
}

// TestStreamedReportsAsBefore: the streamed v1 reports are byte for byte
// what encoding/json wrote from the row structs, and the typed bounds
// check answers what the reflective one did.
func TestStreamedReportsAsBefore(t *testing.T) {
	missing := []domain.BudgetMissing{{NodeID: "n3", Number: "1.2", MissingPrice: domain.MissingPrice{Bank: "MYBASE", Code: "R-1", Kind: domain.KindResource, Reason: "gone <really>"}}}
	for _, c := range []struct {
		name    string
		rows    []domain.SyntheticRow
		missing []domain.BudgetMissing
		total   string
	}{
		{"empty", nil, nil, "0"},
		{"rows", streamRows(), nil, "1234.5"},
		{"incomplete", streamRows(), missing, "1234.5"},
		{"total out of bounds", streamRows(), nil, "-1000000000000000"},
		{"row out of bounds", append(streamRows(), domain.SyntheticRow{NodeID: "n9", Kind: domain.NodeStage, Weight: dec("1000000000000000.00")}), nil, "1"},
		{"row near the bounds", append(streamRows(), domain.SyntheticRow{NodeID: "n9", Kind: domain.NodeStage, Weight: dec("999999999999999.99")}), nil, "1"},
		{"item out of bounds", streamRows(), nil, "2"},
	} {
		b := &domain.Budget{ID: "b-1", BDI: dec("25"), BDIMode: domain.BDIOnUnitPrice}
		tot := domain.BudgetTotals{Total: dec(c.total), BDIValue: dec("0.1"), TotalWithBDI: dec("7")}
		syn := &domain.SyntheticReport{Budget: b, Rows: c.rows, BudgetTotals: tot, Missing: c.missing}
		an := &domain.AnalyticReport{Budget: b, BudgetTotals: tot, Missing: c.missing,
			Summary: domain.CostSummary{Labor: dec("1.5"), Material: dec("2"), Equipment: dec("0.001"), Services: dec("3.14159")}}
		shared := streamItems()
		if c.name == "item out of bounds" {
			shared[1].Items = append([]domain.AnalyticItem{{Kind: domain.KindResource, Partial: dec("1e15")}}, shared[1].Items...)
		}
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
		// The use cases' typed verdict (domain.ErrFiguresOut) says what the
		// reflective walk of the whole report says.
		problem := func(out bool) string {
			if out {
				return domain.ErrFiguresOut().Error()
			}
			return ""
		}
		for _, p := range []struct{ got, want string }{
			{problem(syn.FiguresOut()), httpapi.FiguresProblem(syn)},
			{problem(an.FiguresOut()), httpapi.FiguresProblem(an)},
		} {
			if p.got != p.want {
				t.Errorf("%s: figures problem %q, want %q", c.name, p.got, p.want)
			}
		}
		if out := strings.HasSuffix(c.name, "out of bounds"); out != (httpapi.FiguresProblem(an) != "") || (c.name != "item out of bounds" && out != (httpapi.FiguresProblem(syn) != "")) {
			t.Errorf("%s: the case does not test what it says", c.name)
		}
		if an.FiguresOut() {
			continue // 409, decided before writing (the use case's)
		}
		for _, r := range []struct {
			what             string
			legacy, streamed func(*httptest.ResponseRecorder)
		}{
			{"synthetic", func(w *httptest.ResponseRecorder) { legacySynthetic(w, syn) }, func(w *httptest.ResponseRecorder) { writeSynthetic(w, syn) }},
			{"analytic", func(w *httptest.ResponseRecorder) { legacyAnalytic(w, an) }, func(w *httptest.ResponseRecorder) { writeAnalytic(w, an) }},
		} {
			a, s := httptest.NewRecorder(), httptest.NewRecorder()
			r.legacy(a)
			r.streamed(s)
			if a.Code != 200 || s.Code != 200 || a.Header().Get("Content-Type") != s.Header().Get("Content-Type") {
				t.Errorf("%s %s: %d %q, want 200 %q", r.what, c.name, s.Code, s.Header().Get("Content-Type"), a.Header().Get("Content-Type"))
			}
			if !bytes.Equal(a.Body.Bytes(), s.Body.Bytes()) {
				t.Errorf("%s %s: streamed body differs\n got %s\nwant %s", r.what, c.name, s.Body.Bytes(), a.Body.Bytes())
			}
		}
	}
}
