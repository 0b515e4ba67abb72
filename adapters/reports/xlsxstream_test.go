package reports_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The workbooks written row by row (excelize's stream writer) from the
// report's Each: a streamed report (its rows never held) gives the same
// workbook as the report with its rows; each stage's subtotal sums exactly
// its block; cached values of formulas are numbers; the workbook asks to
// be recalculated when opened.

// streamWorld is the price source of streamBudget: two SINAPI MG resources
// and a composition whose published structure holds one of them and a
// composition of its own structure.
type streamWorld struct{}

func (streamWorld) OwnResource(code string) (*domain.Resource, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s", code)
}

func (streamWorld) OwnComposition(code, _ string) (*domain.Composition, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s", code)
}

func (streamWorld) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	price := map[string]string{"34586": "0.97", "4750": "25.10"}[code]
	if ref != mg || price == "" {
		return nil, domain.Errorf(domain.ENOTFOUND, "no bank resource %s", code)
	}
	typ := domain.TypeMaterial
	if code == "4750" {
		typ = domain.TypeLabor
	}
	p := dec(price)
	return &domain.BankResource{Code: code, Description: "INSUMO " + code, Unit: "UN", Type: typ,
		Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p}}, nil
}

func (streamWorld) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if ref != mg {
		return nil, domain.Errorf(domain.ENOTFOUND, "no bank composition %s", code)
	}
	switch code {
	case "88309":
		return &domain.BankComposition{Code: code, Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H",
			Cost:  domain.UnitPrice{PND: dec("33.62"), PD: dec("31.40")},
			Items: []domain.StructureItem{{Kind: domain.KindResource, Code: "4750", Coefficient: dec("1")}}}, nil
	case "103324":
		return &domain.BankComposition{Code: code, Description: "ALVENARIA DE VEDAÇÃO", Unit: "M2",
			Cost: domain.UnitPrice{PND: dec("71.20"), PD: dec("69.90")}, Items: []domain.StructureItem{
				{Kind: domain.KindResource, Code: "34586", Coefficient: dec("27.5")},
				{Kind: domain.KindComposition, Code: "88309", Coefficient: dec("0.76")}}}, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no bank composition %s", code)
}

// streamBudget is docBudget's header over a tree of stages three deep,
// an empty stage and a line the edition lacks (priced at zero), with lines
// at every depth.
func streamBudget() *domain.Budget {
	b := docBudget()
	b.SupplyNodes = nil
	line := func(kind domain.NodeKind, code, qty string) domain.BudgetNode {
		return domain.BudgetNode{Kind: kind, Bank: "SINAPI", Code: code, Quantity: dec(qty)}
	}
	stage := func(desc string, items ...domain.BudgetNode) domain.BudgetNode {
		return domain.BudgetNode{Kind: domain.NodeStage, Description: desc, Items: items}
	}
	b.Items = []domain.BudgetNode{
		stage("Fundação",
			line(domain.NodeComposition, "103324", "12.5"),
			stage("Sapatas",
				line(domain.NodeResource, "34586", "1000"),
				stage("Vazia"),
				stage("Blocos", line(domain.NodeComposition, "103324", "3.25"), line(domain.NodeResource, "99999", "2"))),
			line(domain.NodeComposition, "88309", "40")),
		stage("Alvenaria", line(domain.NodeComposition, "103324", "120.5")),
		line(domain.NodeResource, "4750", "8"),
	}
	b.AssignIDs()
	var ids []string
	_ = b.Walk(func(n *domain.BudgetNode, _ int) error {
		if n.Kind == domain.NodeResource {
			ids = append(ids, n.ID)
		}
		return nil
	})
	b.SupplyNodes = ids[:1]
	return b
}

// cells reads every cell of a workbook: value, formula, style and type.
func cells(t *testing.T, body []byte) map[string]string {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	out := map[string]string{}
	for _, sh := range x.GetSheetList() {
		rows, err := x.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for r := range rows {
			for c := 1; c <= 14; c++ {
				cell, _ := excelize.CoordinatesToCellName(c, r+1)
				v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
				fm, _ := x.GetCellFormula(sh, cell)
				st, _ := x.GetCellStyle(sh, cell)
				typ, _ := x.GetCellType(sh, cell)
				if v != "" || fm != "" || st != 0 {
					out[sh+"!"+cell] = fmt.Sprintf("%q %q %d %d", v, fm, st, typ)
				}
			}
		}
	}
	return out
}

// A streamed report's workbook is the workbook of the same report with its
// rows held, cell for cell.
func TestXLSXStreamedIsWhole(t *testing.T) {
	b := streamBudget()
	doc := reports.Document{Company: "Construtora Alfa"}
	render := func(stream bool, analytic bool) []byte {
		bp := domain.NewBudgetPricer(streamWorld{})
		var buf bytes.Buffer
		var err error
		switch {
		case analytic && stream:
			var r *domain.AnalyticReport
			if r, err = bp.AnalyticStream(b, b.Walk); err == nil {
				err = reports.AnalyticXLSX(&buf, r, doc)
			}
		case analytic:
			var r *domain.AnalyticReport
			if r, err = bp.Analytic(b); err == nil {
				err = reports.AnalyticXLSX(&buf, r, doc)
			}
		case stream:
			var r *domain.SyntheticReport
			if r, err = bp.SyntheticStream(b, b.Walk); err == nil {
				err = reports.SyntheticXLSX(&buf, r, doc)
			}
		default:
			var r *domain.SyntheticReport
			if r, err = bp.Synthetic(b); err == nil {
				err = reports.SyntheticXLSX(&buf, r, doc)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, analytic := range []bool{false, true} {
		whole, streamed := cells(t, render(false, analytic)), cells(t, render(true, analytic))
		if len(whole) < 100 {
			t.Fatalf("analytic %v: %d cells", analytic, len(whole))
		}
		for k, v := range whole {
			if streamed[k] != v {
				t.Errorf("analytic %v: %s is %s streamed, %s whole", analytic, k, streamed[k], v)
			}
		}
		if len(streamed) != len(whole) {
			t.Errorf("analytic %v: %d cells streamed, %d whole", analytic, len(streamed), len(whole))
		}
	}
}

var sumifRange = regexp.MustCompile(`^SUMIF\(N(\d+):N(\d+),">0",K(\d+):K(\d+)\)$`)

// Every stage's subtotal (K) is a SUMIF over exactly the rows of its block:
// recomputed from the cells it names (lines flagged in N, items not), it
// is the report's figure; the rows after its range are outside the stage.
func TestXLSXStageBlocks(t *testing.T) {
	b := streamBudget()
	for _, analytic := range []bool{false, true} {
		bp := domain.NewBudgetPricer(streamWorld{})
		var buf bytes.Buffer
		var want []decimal.Decimal // the stages' totals, in order
		sh := "Sintético"
		if analytic {
			sh = "Analítico"
			r, err := bp.AnalyticStream(b, b.Walk)
			if err != nil {
				t.Fatal(err)
			}
			_ = r.Each(func(row *domain.AnalyticRow) error {
				if !row.Kind.IsLine() {
					want = append(want, row.Total)
				}
				return nil
			})
			if err := reports.AnalyticXLSX(&buf, r, reports.Document{}); err != nil {
				t.Fatal(err)
			}
		} else {
			r, err := bp.SyntheticStream(b, b.Walk)
			if err != nil {
				t.Fatal(err)
			}
			_ = r.Each(func(row *domain.SyntheticRow) error {
				if !row.Kind.IsLine() {
					want = append(want, row.Total)
				}
				return nil
			})
			if err := reports.SyntheticXLSX(&buf, r, reports.Document{}); err != nil {
				t.Fatal(err)
			}
		}
		x, rows := openXLSX(t, buf.Bytes(), sh)
		raw := func(cell string) string {
			v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
			return v
		}
		var got []decimal.Decimal
		for i, row := range rows {
			n := i + 1
			if n < 9 || len(row) < 2 || row[1] != reports.KindName(string(domain.NodeStage)) {
				continue
			}
			fm, _ := x.GetCellFormula(sh, fmt.Sprintf("K%d", n))
			m := sumifRange.FindStringSubmatch(fm)
			if m == nil || m[1] != m[3] || m[2] != m[4] || m[1] != strconv.Itoa(n+1) {
				t.Fatalf("analytic %v: stage row %d: formula %q", analytic, n, fm)
			}
			end, _ := strconv.Atoi(m[2])
			sum := decimal.Zero
			for k := n + 1; k <= end; k++ {
				if f := raw(fmt.Sprintf("N%d", k)); f != "" && f != "0" {
					sum = sum.Add(dec(raw(fmt.Sprintf("K%d", k))))
				}
			}
			cached := dec(raw(fmt.Sprintf("K%d", n)))
			if !sum.Equal(cached) {
				t.Errorf("analytic %v: stage row %d sums %s over %d:%d, caches %s", analytic, n, sum, n+1, end, cached)
			}
			got = append(got, cached)
		}
		if len(got) != len(want) {
			t.Fatalf("analytic %v: %d stage rows, want %d", analytic, len(got), len(want))
		}
		for i := range want {
			if !got[i].Equal(want[i]) {
				t.Errorf("analytic %v: stage %d caches %s, want %s", analytic, i+1, got[i], want[i])
			}
		}
	}
}

// Cached values are numbers: no cell holding a formula is typed as text
// (t="str"), and every one reads back as a number; the workbook asks for a
// full recalculation when it is opened.
func TestXLSXCachedValuesAreNumbers(t *testing.T) {
	abc := abcReport(t)
	abc.Budget = docBudget()
	doc := reports.Document{Company: "Construtora Alfa"}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"synthetic": func(w *bytes.Buffer) error { return reports.SyntheticXLSX(w, docSynthetic(2), doc) },
		"analytic":  func(w *bytes.Buffer) error { return reports.AnalyticXLSX(w, docAnalytic(2), doc) },
		"abc":       func(w *bytes.Buffer) error { return reports.ABCXLSX(w, abc, doc) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		x, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		formulas := 0
		for _, sh := range x.GetSheetList() {
			rows, _ := x.GetRows(sh)
			for r := range rows {
				for c := 1; c <= 14; c++ {
					cell, _ := excelize.CoordinatesToCellName(c, r+1)
					fm, _ := x.GetCellFormula(sh, cell)
					if fm == "" {
						continue
					}
					formulas++
					typ, _ := x.GetCellType(sh, cell)
					v, _ := x.GetCellValue(sh, cell, excelize.Options{RawCellValue: true})
					if _, err := strconv.ParseFloat(v, 64); err != nil || (typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber) {
						t.Errorf("%s %s!%s: formula %q caches %q of type %v, want a number", name, sh, cell, fm, v, typ)
					}
				}
			}
		}
		if formulas < 5 {
			t.Errorf("%s: %d formulas", name, formulas)
		}
		calc, err := x.GetCalcProps()
		if err != nil || calc.FullCalcOnLoad == nil || !*calc.FullCalcOnLoad {
			t.Errorf("%s: calcPr %+v (%v), want fullCalcOnLoad", name, calc, err)
		}
		x.Close()
	}
}
