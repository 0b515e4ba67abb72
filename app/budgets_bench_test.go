package app_test

import (
	"fmt"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// benchSizes are the budget sizes of the report benchmarks: the cost per
// line (ns/line) must stay flat as the number of lines grows.
var benchSizes = []int{1000, 5000, 10000}

type benchWorld struct {
	f   *fixture
	ids map[int]string // budget id by number of lines
}

var bench *benchWorld

// benchBudget returns a service over the sample banks holding, in company
// A, an own base nested three deep and a budget of n lines over it. It is
// built once per process and size, through the application's own calls:
//
//	30 own resources (materials and labour)
//	L3-00…L3-09: 5 own resources and the SINAPI composition 89306 (with structure)
//	L2-00…L2-09: 3 L3 compositions and 2 own resources
//	L1-00…L1-19: 2 L2 compositions, 1 own resource and SINAPI resource 34586
//	budget: n lines, L1-(i mod 20), in stages of 50 lines
func benchBudget(b *testing.B, n int) (*fixture, string) {
	b.Helper()
	if bench == nil {
		f := newSampleFixture(b)
		bench = &benchWorld{f: f, ids: map[int]string{}}
		// The fixture's store closes when this (sub-)benchmark ends: the
		// next one builds the world again.
		b.Cleanup(func() { bench = nil })
		svc, p := f.svc, f.a
		for i := 0; i < 30; i++ {
			typ := domain.TypeMaterial
			if i%3 == 0 {
				typ = domain.TypeLabor
			}
			price := decimal.New(int64(137+i*91), -2)
			if _, err := svc.CreateResource(ctx, p, app.ResourceInput{Code: fmt.Sprintf("R-%02d", i), Description: "Recurso", Type: typ, Unit: "UN",
				Locals: map[string]domain.PriceLine{"MG": {PND: price, PD: price, PNDI: price, PDI: price}}}); err != nil {
				b.Fatal(err)
			}
		}
		level := func(prefix string, count int, items func(i int) []app.ItemInput) {
			for i := 0; i < count; i++ {
				c, err := svc.CreateComposition(ctx, p, app.CompositionInput{Code: fmt.Sprintf("%s-%02d", prefix, i), Description: "Composição", Unit: "M2", State: "MG"})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := svc.AddBanks(ctx, p, c.ID, []app.BankInput{mgInput}); err != nil {
					b.Fatal(err)
				}
				if _, err := svc.AddItems(ctx, p, c.ID, items(i)); err != nil {
					b.Fatal(err)
				}
			}
		}
		own := func(code string, q string) app.ItemInput {
			return app.ItemInput{Bank: "MYBASE", Code: code, Quantity: dec(q)}
		}
		level("L3", 10, func(i int) []app.ItemInput {
			items := []app.ItemInput{{Bank: "SINAPI", Code: "89306", Quantity: dec("0.0125")}}
			for j := 0; j < 5; j++ {
				items = append(items, own(fmt.Sprintf("R-%02d", (i*5+j)%30), "0.1375"))
			}
			return items
		})
		level("L2", 10, func(i int) []app.ItemInput {
			return []app.ItemInput{
				own(fmt.Sprintf("L3-%02d", i), "1.05"), own(fmt.Sprintf("L3-%02d", (i+3)%10), "0.35"), own(fmt.Sprintf("L3-%02d", (i+7)%10), "2.2"),
				own(fmt.Sprintf("R-%02d", i), "0.5"), own(fmt.Sprintf("R-%02d", i+10), "1.25"),
			}
		})
		level("L1", 20, func(i int) []app.ItemInput {
			return []app.ItemInput{
				own(fmt.Sprintf("L2-%02d", i%10), "1.5"), own(fmt.Sprintf("L2-%02d", (i+5)%10), "0.75"),
				own(fmt.Sprintf("R-%02d", i+10), "3"), {Bank: "SINAPI", Code: "34586", Quantity: dec("12.5")},
			}
		})
	}
	if id, ok := bench.ids[n]; ok {
		return bench.f, id
	}
	in := app.BudgetInput{Code: fmt.Sprintf("BENCH-%d", n), Description: "Benchmark", State: "MG", BDI: dec("25"), Banks: []app.BankInput{mgInput}}
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			in.Items = append(in.Items, app.NodeInput{Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d", i/50+1)})
		}
		st := &in.Items[len(in.Items)-1]
		st.Items = append(st.Items, app.NodeInput{Kind: domain.NodeComposition, Code: fmt.Sprintf("L1-%02d", i%20),
			Quantity: decimal.New(int64(i%97+1)*25, -2)})
	}
	pb, err := bench.f.svc.CreateBudget(ctx, bench.f.a, in)
	if err != nil {
		b.Fatal(err)
	}
	bench.ids[n] = pb.ID
	return bench.f, pb.ID
}

// runReport benchmarks one report over budgets of every size.
func runReport(b *testing.B, report func(f *fixture, id string) error) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			f, id := benchBudget(b, n)
			if err := report(f, id); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := report(f, id); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
		})
	}
}

func BenchmarkSyntheticReport(b *testing.B) {
	runReport(b, func(f *fixture, id string) error {
		_, err := f.svc.SyntheticReport(ctx, f.a, id)
		return err
	})
}

func BenchmarkABCReport(b *testing.B) {
	runReport(b, func(f *fixture, id string) error {
		_, err := f.svc.ABCReport(ctx, f.a, id, domain.ABCLimits{})
		return err
	})
}

func BenchmarkAnalyticReport(b *testing.B) {
	runReport(b, func(f *fixture, id string) error {
		_, err := f.svc.AnalyticReport(ctx, f.a, id)
		return err
	})
}
