package domain_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"
)

// randomBudget builds a budget over the small world of these tests: stages
// nested up to four deep, lines of every kind the world knows (bank and own
// resources and compositions, nested own compositions), lines naming what
// does not exist or a bank the budget lacks, quantities of up to six places,
// a BDI with places, either mode and rounding, either regime, and supply
// lines.
func randomBudget(r *rand.Rand) *domain.Budget {
	b := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "ORC", State: "MG", Banks: []domain.BankRef{mg08},
		Desonerado: r.IntN(2) == 0, BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate,
		BDI: decimal.New(int64(r.IntN(40000)), -int32(r.IntN(4)))}
	if r.IntN(2) == 0 {
		b.BDIMode = domain.BDIOnFinalTotal
	}
	if r.IntN(2) == 0 {
		b.Rounding = domain.BudgetRound
	}
	if r.IntN(2) == 0 {
		b.SupplyBDI = decimal.New(int64(r.IntN(2000)), -2)
	}
	lines := []struct{ bank, code string }{
		{"SINAPI", "R1"}, {"SINAPI", "R2"}, {"SINAPI", "E1"}, {"SINAPI", "BC1"}, {"SINAPI", "BC2"},
		{"MYBASE", "OR1"}, {"MYBASE", "INNER"}, {"MYBASE", "MID"}, {"MYBASE", "OUTER"},
		{"SINAPI", "NOPE"}, {"MYBASE", "NOPE"}, {"SICRO3", "R1"},
	}
	var nodes func(depth int) []domain.BudgetNode
	nodes = func(depth int) []domain.BudgetNode {
		var out []domain.BudgetNode
		for range r.IntN(6) {
			if depth < 4 && r.IntN(3) == 0 {
				out = append(out, domain.BudgetNode{Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d", r.IntN(100)), Items: nodes(depth + 1)})
				continue
			}
			l := lines[r.IntN(len(lines))]
			kind := domain.NodeResource
			if l.code == "BC1" || l.code == "BC2" || l.code == "INNER" || l.code == "MID" || l.code == "OUTER" || r.IntN(5) == 0 {
				kind = domain.NodeComposition
			}
			q := decimal.New(int64(r.IntN(10_000_000)+1), -int32(r.IntN(7)))
			out = append(out, domain.BudgetNode{Kind: kind, Bank: l.bank, Code: l.code, Quantity: q})
		}
		return out
	}
	b.Items = nodes(1)
	b.AssignIDs()
	_ = b.Walk(func(n *domain.BudgetNode, _ int) error {
		if n.Kind.IsLine() && r.IntN(4) == 0 {
			b.SupplyNodes = append(b.SupplyNodes, n.ID)
		}
		return nil
	})
	return b
}

func streamedRows(t *testing.T, rep *domain.SyntheticReport) []domain.SyntheticRow {
	t.Helper()
	var rows []domain.SyntheticRow
	if err := rep.Each(func(r *domain.SyntheticRow) error { rows = append(rows, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(rows) != rep.Len() {
		t.Fatalf("Each gave %d rows, Len says %d", len(rows), rep.Len())
	}
	return rows
}

var decimalValues = cmp.Options{cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) }), cmpopts.EquateEmpty()}

// TestSyntheticStreamIsSynthetic: on a thousand random budgets, the
// streamed report has the rows, figures, footer, missing list and bounds
// verdict of the whole-tree oracle (WholeSynthetic).
func TestSyntheticStreamIsSynthetic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 7))
	streamed, rows, missing, supply := 0, 0, 0, 0
	for i := range 1000 {
		b := randomBudget(r)
		want, err := domain.NewBudgetPricer(worldSource()).WholeSynthetic(b)
		if err != nil {
			t.Fatal(err)
		}
		held, err := domain.NewBudgetPricer(worldSource()).Synthetic(b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Rows, held.Rows, decimalValues); diff != "" {
			t.Fatalf("budget %d: rows held differ (-whole +held):\n%s", i, diff)
		}
		header := *b
		header.Items = nil // the stream reads the tree through the walk only
		got, err := domain.NewBudgetPricer(worldSource()).SyntheticStream(&header, b.Walk)
		if err != nil {
			t.Fatalf("budget %d: %v", i, err)
		}
		streamed, rows, missing = streamed+1, rows+got.Len(), missing+len(got.Missing)
		for _, row := range want.Rows {
			if row.Supply {
				supply++
			}
		}
		if diff := cmp.Diff(want.Rows, streamedRows(t, got), decimalValues); diff != "" {
			t.Fatalf("budget %d: rows differ (-whole +streamed):\n%s", i, diff)
		}
		if diff := cmp.Diff(want.BudgetTotals, got.BudgetTotals, decimalValues); diff != "" {
			t.Fatalf("budget %d: totals differ:\n%s", i, diff)
		}
		if diff := cmp.Diff(want.Missing, got.Missing); diff != "" {
			t.Fatalf("budget %d: missing differ:\n%s", i, diff)
		}
		if want.FiguresOut() != got.FiguresOut() {
			t.Fatalf("budget %d: figures out %v whole, %v streamed", i, want.FiguresOut(), got.FiguresOut())
		}
		// A second pass gives the same rows.
		if diff := cmp.Diff(want.Rows, streamedRows(t, got), decimalValues); diff != "" {
			t.Fatalf("budget %d: second pass differs:\n%s", i, diff)
		}
	}
	// The budgets were not all empty: rows, missing lines and supply lines
	// were compared.
	if streamed != 1000 || rows < 5000 || missing < 500 || supply < 500 {
		t.Fatalf("streamed %d of 1000, %d rows, %d missing, %d supply lines", streamed, rows, missing, supply)
	}
	t.Logf("%d rows, %d missing, %d supply lines", rows, missing, supply)
}

// TestSyntheticStreamBounds: a line whose figures pass the bounds makes the
// streamed report out of bounds, as the whole one; a figure past the 64-bit
// path's 18 digits, and a negative one, are computed exactly (in decimal)
// and give the whole report's rows.
func TestSyntheticStreamBounds(t *testing.T) {
	line := func(q string) *domain.Budget {
		b := &domain.Budget{ID: "b1", State: "MG", Banks: []domain.BankRef{mg08}, BDIMode: domain.BDIOnUnitPrice,
			Rounding: domain.BudgetTruncate, BDI: dec("25"), Items: []domain.BudgetNode{
				{Kind: domain.NodeStage, Description: "E", Items: []domain.BudgetNode{
					{Kind: domain.NodeResource, Bank: "SINAPI", Code: "R1", Quantity: dec(q)}}}}}
		b.AssignIDs()
		return b
	}
	for _, c := range []struct {
		q   string
		out bool
		err error
	}{
		{"1.5", false, nil},
		{"79999999999999", false, nil},  // with BDI 12.50 × 79… = 999999999999987.5: in bounds
		{"80000000000000", true, nil},   // with BDI 10^15: out
		{"1000000000000000", true, nil}, // out, and still in the fast path (10^18 centavos fit in 64 bits)
		{"1000000000000000000000", true, nil},
		{"-1", false, nil},
		{"-123456789012.3456789", false, nil},
		{"123456789012345678901234.5", true, nil},
	} {
		b := line(c.q)
		want, err := domain.NewBudgetPricer(worldSource()).WholeSynthetic(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := domain.NewBudgetPricer(worldSource()).SyntheticStream(b, b.Walk)
		if !errors.Is(err, c.err) {
			t.Fatalf("quantity %s: err %v, want %v", c.q, err, c.err)
		}
		if err != nil {
			continue
		}
		if want.FiguresOut() != c.out || got.FiguresOut() != c.out {
			t.Fatalf("quantity %s: out %v whole, %v streamed, want %v", c.q, want.FiguresOut(), got.FiguresOut(), c.out)
		}
		if diff := cmp.Diff(want.Rows, streamedRows(t, got), decimalValues); diff != "" {
			t.Fatalf("quantity %s: rows differ:\n%s", c.q, diff)
		}
		if diff := cmp.Diff(want.BudgetTotals, got.BudgetTotals, decimalValues); diff != "" {
			t.Fatalf("quantity %s: totals differ:\n%s", c.q, diff)
		}
	}
}

// TestCentsFormatting: AppendCents of Cents writes what StringFixed(2)
// writes, for every decimal with at most 2 places (trailing zeros aside),
// and Cents refuses every other; AppendFixed2 writes what StringFixed(2)
// writes for every decimal (a comma for the point).
func TestCentsFormatting(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	refused := 0
	for range 200_000 {
		m := r.Int64N(1 << uint(r.IntN(63)))
		if r.IntN(3) == 0 {
			m = -m
		}
		d := decimal.New(m, int32(r.IntN(24)-20))
		if got, want := string(domain.AppendFixed2(nil, d, ',')), strings.Replace(d.StringFixed(2), ".", ",", 1); got != want {
			t.Fatalf("%s: AppendFixed2 %q, StringFixed(2) %q", d, got, want)
		}
		c, ok := domain.Cents(d)
		twoPlaces := d.Equal(d.Truncate(2))
		if !ok {
			refused++
			if twoPlaces && d.NumDigits() <= 18 && d.Abs().LessThan(decimal.New(1, 15)) {
				t.Fatalf("%s: refused, but it has 2 places and fits", d)
			}
			continue
		}
		if !twoPlaces {
			t.Fatalf("%s: Cents %d, but it has more than 2 places", d, c)
		}
		if got, want := string(domain.AppendCents(nil, c, '.')), d.StringFixed(2); got != want {
			t.Fatalf("%s: %q, StringFixed(2) %q", d, got, want)
		}
	}
	if refused == 0 || refused > 190_000 {
		t.Fatalf("%d of 200000 refused: the draw does not test both sides", refused)
	}
}

// TestAppendScaled: AppendScaled writes what StringFixed(places) writes of
// the coefficient at that exponent, for 0 to 20 places and both signs.
func TestAppendScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	for range 100_000 {
		v := r.Int64N(1 << uint(r.IntN(63)))
		if r.IntN(3) == 0 {
			v = -v
		}
		places := r.IntN(21)
		if got, want := string(domain.AppendScaled(nil, v, places, '.')), decimal.New(v, -int32(places)).StringFixed(int32(places)); got != want {
			t.Fatalf("%d at %d places: %q, StringFixed %q", v, places, got, want)
		}
	}
}

// TestAnalyticAndABCStreams: on random budgets, the streamed analytic
// report has the rows (items and unit summaries included), footer,
// summary, missing list and bounds verdict of the whole-tree oracle,
// and the ABC curve of a walk is the curve of the tree.
func TestAnalyticAndABCStreams(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	rows := 0
	for i := range 500 {
		b := randomBudget(r)
		want, err := domain.NewBudgetPricer(worldSource()).WholeAnalytic(b)
		if err != nil {
			t.Fatal(err)
		}
		held, err := domain.NewBudgetPricer(worldSource()).Analytic(b)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Rows, held.Rows, decimalValues); diff != "" {
			t.Fatalf("budget %d: rows held differ (-whole +held):\n%s", i, diff)
		}
		header := *b
		header.Items = nil
		got, err := domain.NewBudgetPricer(worldSource()).AnalyticStream(&header, b.Walk)
		if err != nil {
			t.Fatalf("budget %d: %v", i, err)
		}
		var gotRows []domain.AnalyticRow
		if err := got.Each(func(x *domain.AnalyticRow) error { gotRows = append(gotRows, *x); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(gotRows) != got.Len() {
			t.Fatalf("budget %d: Each gave %d rows, Len %d", i, len(gotRows), got.Len())
		}
		rows += len(gotRows)
		if diff := cmp.Diff(want.Rows, gotRows, decimalValues); diff != "" {
			t.Fatalf("budget %d: rows differ (-whole +streamed):\n%s", i, diff)
		}
		if diff := cmp.Diff(want.BudgetTotals, got.BudgetTotals, decimalValues); diff != "" {
			t.Fatalf("budget %d: totals differ:\n%s", i, diff)
		}
		if diff := cmp.Diff(want.Summary, got.Summary, decimalValues); diff != "" {
			t.Fatalf("budget %d: summary differs:\n%s", i, diff)
		}
		if diff := cmp.Diff(want.Missing, got.Missing); diff != "" {
			t.Fatalf("budget %d: missing differ:\n%s", i, diff)
		}
		if want.FiguresOut() != got.FiguresOut() {
			t.Fatalf("budget %d: figures out %v whole, %v streamed", i, want.FiguresOut(), got.FiguresOut())
		}
		wantABC, err := domain.NewBudgetPricer(worldSource()).ABC(b, domain.ABCLimits{})
		if err != nil {
			t.Fatal(err)
		}
		gotABC, err := domain.NewBudgetPricer(worldSource()).ABCWalk(&header, b.Walk, domain.ABCLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantABC.Rows, gotABC.Rows, decimalValues); diff != "" {
			t.Fatalf("budget %d: ABC rows differ:\n%s", i, diff)
		}
	}
	if rows < 2000 {
		t.Fatalf("only %d rows compared", rows)
	}
}
