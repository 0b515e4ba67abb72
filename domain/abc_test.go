package domain_test

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

func abcItem(code, total string) domain.ABCInput {
	return domain.ABCInput{Ref: domain.BankRef{Name: "SINAPI"}, Code: code, Kind: domain.KindResource, Total: dec(total)}
}

func limits(a, b string) domain.ABCLimits { return domain.ABCLimits{A: dec(a), B: dec(b)} }

// TestRankABCCrossingRule: the row that crosses a limit belongs to the
// upper class; a row that starts exactly on a limit does not cross it.
func TestRankABCCrossingRule(t *testing.T) {
	for _, tc := range []struct {
		name   string
		totals []string // in rank order; codes are a, b, c, …
		lim    domain.ABCLimits
		want   string // classes in rank order
	}{
		{"40 → 55 crosses A", []string{"40", "15", "25", "20"}, limits("50", "80"), "AABC"},
		{"one row past both limits", []string{"90", "6", "4"}, limits("50", "80"), "ACC"},
		{"ends exactly on A", []string{"30", "20", "30", "20"}, limits("50", "80"), "AABC"},
		{"B at 100: C only for what follows 100%", []string{"50", "50", "0"}, limits("50", "100"), "ABC"},
		{"one row", []string{"7"}, limits("50", "80"), "A"},
		{"all zero", []string{"0", "0"}, limits("50", "80"), "CC"},
		{"B may be empty", []string{"10", "10", "10", "10", "10", "10", "10", "10", "10", "10"}, limits("1", "2"), "ACCCCCCCCC"},
	} {
		var items []domain.ABCInput
		for i, tot := range tc.totals {
			items = append(items, abcItem(string(rune('a'+i)), tot))
		}
		var got string
		for _, r := range domain.RankABC(items, tc.lim) {
			got += string(r.Class)
		}
		if got != tc.want {
			t.Errorf("%s: classes %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestRankABCTiesAndRounding(t *testing.T) {
	items := []domain.ABCInput{abcItem("300", "1"), abcItem("100", "1"), abcItem("200", "1")}
	items[2].Ref.Name = "ORSE"
	items = append(items, domain.ABCInput{Ref: domain.BankRef{Name: "ORSE"}, Code: "100", Total: dec("1")})
	rows := domain.RankABC(items, domain.DefaultABCLimits())
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d %s %s %s %s", r.Position, r.Ref.Name, r.Code, r.Percent.StringFixed(2), r.CumulativePercent.StringFixed(2)))
	}
	// Equal totals: code, then bank. Cumulative 25, 50, 75, 100.
	want := []string{"1 ORSE 100 25.00 25.00", "2 SINAPI 100 25.00 50.00", "3 ORSE 200 25.00 75.00", "4 SINAPI 300 25.00 100.00"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ties (-want +got):\n%s", diff)
	}
	// Thirds: cumulative 33.33, 66.67, 100.00 (rounded from exact sums);
	// percents 33.33, 33.34, 33.33 add up to 100.00.
	rows = domain.RankABC([]domain.ABCInput{abcItem("a", "1"), abcItem("b", "1"), abcItem("c", "1")}, domain.DefaultABCLimits())
	got = nil
	for _, r := range rows {
		got = append(got, r.Percent.StringFixed(2)+" "+r.CumulativePercent.StringFixed(2))
	}
	if diff := cmp.Diff([]string{"33.33 33.33", "33.34 66.67", "33.33 100.00"}, got); diff != "" {
		t.Errorf("thirds (-want +got):\n%s", diff)
	}
	if rows := domain.RankABC(nil, domain.DefaultABCLimits()); len(rows) != 0 {
		t.Errorf("no items: %v", rows)
	}
}

func TestABCLimitsValidate(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		ok   bool
	}{
		{"50", "80", true}, {"0.01", "100", true}, {"79.99", "80", true},
		{"0", "80", false}, {"-1", "80", false}, {"80", "80", false}, {"90", "80", false}, {"50", "100.01", false},
	} {
		err := limits(tc.a, tc.b).Validate()
		if (err == nil) != tc.ok {
			t.Errorf("A=%s B=%s: err %v, want ok=%v", tc.a, tc.b, err, tc.ok)
		}
		if err != nil && !contains(fields(err), "abcLimits") {
			t.Errorf("A=%s B=%s: err %v names no abcLimits", tc.a, tc.b, err)
		}
	}
}

// TestRankABCProperties checks, over many random inputs, what must hold of
// every curve: rows in order, positions 1…n, percents and cumulative
// percents consistent and ending at exactly 100, classes partitioning the
// rows as A* B* C* by the crossing rule, and the same curve whatever the
// order of the input.
func TestRankABCProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(20260814))
	classRank := map[domain.ABCClass]int{domain.ClassA: 0, domain.ClassB: 1, domain.ClassC: 2}
	for iter := 0; iter < 1000; iter++ {
		n := rng.Intn(40)
		items := make([]domain.ABCInput, n)
		for i := range items {
			var total decimal.Decimal
			switch rng.Intn(4) {
			case 0: // a few repeated totals, to exercise ties
				total = decimal.NewFromInt(int64(rng.Intn(3) * 1000))
			default:
				total = decimal.New(rng.Int63n(100_000_000), -2)
			}
			items[i] = domain.ABCInput{
				Ref:  domain.BankRef{Name: []string{"SINAPI", "ORSE", "MYBASE"}[rng.Intn(3)]},
				Code: strconv.Itoa(rng.Intn(50)), Kind: domain.KindResource, Total: total,
			}
		}
		// Keys are unique, as Explode makes them: (bank, code) here.
		seen := map[string]bool{}
		uniq := items[:0]
		for _, it := range items {
			if k := it.Ref.Name + " " + it.Code; !seen[k] {
				seen[k] = true
				uniq = append(uniq, it)
			}
		}
		items = uniq
		a := 1 + rng.Intn(98)
		lim := domain.ABCLimits{A: decimal.NewFromInt(int64(a)), B: decimal.NewFromInt(int64(a + 1 + rng.Intn(100-a)))}
		if err := lim.Validate(); err != nil {
			t.Fatalf("test bug: limits %v: %v", lim, err)
		}
		rows := domain.RankABC(items, lim)

		if len(rows) != len(items) {
			t.Fatalf("iteration %d: %d rows for %d items", iter, len(rows), len(items))
		}
		grand := decimal.Zero
		for _, it := range items {
			grand = grand.Add(it.Total)
		}
		sumPct, sum := decimal.Zero, decimal.Zero
		for i, r := range rows {
			if r.Position != i+1 {
				t.Fatalf("iteration %d: row %d has position %d", iter, i, r.Position)
			}
			if i > 0 {
				p := rows[i-1]
				if p.Total.LessThan(r.Total) || (p.Total.Equal(r.Total) && p.Code > r.Code) {
					t.Fatalf("iteration %d: row %d (%s %s) after (%s %s)", iter, i, r.Code, r.Total, p.Code, p.Total)
				}
				if classRank[p.Class] > classRank[r.Class] {
					t.Fatalf("iteration %d: class %s after %s: classes must run A… B… C…", iter, r.Class, p.Class)
				}
				if r.CumulativePercent.LessThan(p.CumulativePercent) {
					t.Fatalf("iteration %d: cumulative percent falls at row %d", iter, i)
				}
			}
			if r.Percent.IsNegative() {
				t.Fatalf("iteration %d: negative percent at row %d", iter, i)
			}
			// The class by the crossing rule, on exact values.
			want := domain.ClassC
			switch {
			case grand.IsZero():
			case sum.Shift(2).LessThan(lim.A.Mul(grand)):
				want = domain.ClassA
			case sum.Shift(2).LessThan(lim.B.Mul(grand)):
				want = domain.ClassB
			}
			if r.Class != want {
				t.Fatalf("iteration %d: row %d class %s, want %s", iter, i, r.Class, want)
			}
			sum = sum.Add(r.Total)
			sumPct = sumPct.Add(r.Percent)
			if grand.IsPositive() {
				exact := r.Total.Shift(2).Div(grand)
				if r.Percent.Sub(exact).Abs().GreaterThanOrEqual(dec("0.01")) {
					t.Fatalf("iteration %d: row %d percent %s, exact %s", iter, i, r.Percent, exact)
				}
			}
			if !r.CumulativePercent.Equal(sumPct) {
				t.Fatalf("iteration %d: row %d cumulative %s ≠ sum of percents %s", iter, i, r.CumulativePercent, sumPct)
			}
		}
		if n := len(rows); n > 0 && grand.IsPositive() && !rows[n-1].CumulativePercent.Equal(dec("100")) {
			t.Fatalf("iteration %d: cumulative ends at %s, want 100", iter, rows[n-1].CumulativePercent)
		}
		if len(rows) > 0 && grand.IsPositive() && rows[0].Class != domain.ClassA {
			t.Fatalf("iteration %d: the first row is %s, want A", iter, rows[0].Class)
		}

		shuffled := append([]domain.ABCInput(nil), items...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if diff := cmp.Diff(rows, domain.RankABC(shuffled, lim), decEqual); diff != "" {
			t.Fatalf("iteration %d: shuffling the input changed the curve (-before +after):\n%s", iter, diff)
		}
	}
}

// Ranking five resources with the default limits, 50% and 80%. Steel
// (40% of the total) is A. Sand takes the cumulative share from 40% to 55%,
// crossing the 50% limit, so it is A too. Concrete (55% → 70%) is B, and so
// is labour, which crosses 80% (70% → 85%). Bricks, which start past 80%,
// are C. Equal totals rank by code.
func ExampleRankABC() {
	items := []domain.ABCInput{
		{Code: "0002", Description: "concreto", Total: domain.Dec("15000")},
		{Code: "0005", Description: "tijolo", Total: domain.Dec("15000")},
		{Code: "0003", Description: "aço", Total: domain.Dec("40000")},
		{Code: "0004", Description: "servente", Total: domain.Dec("15000")},
		{Code: "0001", Description: "areia", Total: domain.Dec("15000")},
	}
	for _, r := range domain.RankABC(items, domain.DefaultABCLimits()) {
		fmt.Printf("%d %s %-8s %6s %6s%% %6s%% %s\n", r.Position, r.Code, r.Description, r.Total,
			r.Percent.StringFixed(2), r.CumulativePercent.StringFixed(2), r.Class)
	}
	// Output:
	// 1 0003 aço       40000  40.00%  40.00% A
	// 2 0001 areia     15000  15.00%  55.00% A
	// 3 0002 concreto  15000  15.00%  70.00% B
	// 4 0004 servente  15000  15.00%  85.00% B
	// 5 0005 tijolo    15000  15.00% 100.00% C
}

func TestABCReportClasses(t *testing.T) {
	rows := domain.RankABC([]domain.ABCInput{
		{Code: "1", Total: domain.Dec("60")},
		{Code: "2", Total: domain.Dec("25")},
		{Code: "3", Total: domain.Dec("10")},
		{Code: "4", Total: domain.Dec("5")},
	}, domain.DefaultABCLimits())
	r := &domain.ABCReport{Rows: rows, Total: domain.Dec("100")}
	got := r.Classes()
	// 60 crosses 50%: A. 60→85 crosses 80%: B. The rest: C.
	want := []struct {
		class   domain.ABCClass
		count   int
		total   string
		percent string
	}{{domain.ClassA, 1, "60", "60"}, {domain.ClassB, 1, "25", "25"}, {domain.ClassC, 2, "15", "15"}}
	if len(got) != len(want) {
		t.Fatalf("got %d classes, want 3", len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Class != w.class || g.Count != w.count || !g.Total.Equal(domain.Dec(w.total)) || !g.Percent.Equal(domain.Dec(w.percent)) {
			t.Errorf("class %d = %+v, want %+v", i, g, w)
		}
	}
	empty := (&domain.ABCReport{}).Classes()
	if len(empty) != 3 || empty[0].Count != 0 || !empty[0].Percent.IsZero() {
		t.Errorf("classes of an empty curve = %+v", empty)
	}
}
