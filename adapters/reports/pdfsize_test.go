package reports_test

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The PDF documents of large budgets: their time (benchmarks) and the heap
// they take while they are written, over the reports the HTTP answers use.

// bigWorld is the price source of bigBudget: the SINAPI MG 08/2026 edition
// with five resources and three compositions (one with a structure of
// eight items, one of them a composition with its own structure), and an
// own resource and an own composition.
type bigWorld struct{}

const bigDesc = "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 9X19X19 CM (ESPESSURA 9 CM) E ARGAMASSA DE ASSENTAMENTO COM PREPARO EM BETONEIRA"

func (bigWorld) OwnResource(code string) (*domain.Resource, error) {
	if code != "OR1" {
		return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s", code)
	}
	return &domain.Resource{Code: "OR1", Description: "Argamassa própria, traço 1:2:8", Unit: "M3", Type: domain.TypeMaterial,
		Locals: map[string]domain.PriceLine{"MG": {PND: dec("412.37"), PD: dec("409.11")}}}, nil
}

func (bigWorld) OwnComposition(code, state string) (*domain.Composition, error) {
	if code != "OC1" || state != "MG" {
		return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s", code)
	}
	return &domain.Composition{ID: "id-OC1", Code: "OC1", Description: "Reboco de argamassa própria, espessura 2 cm", Unit: "M2",
		State: "MG", Rounding: domain.Truncate2, Banks: []domain.BankRef{mg}, Items: []domain.Item{
			{Bank: domain.BankMyBase, Code: "OR1", Kind: domain.KindResource, Quantity: dec("0.0241")},
			{Bank: "SINAPI", Code: "88309", Kind: domain.KindComposition, Quantity: dec("0.61")},
			{Bank: "SINAPI", Code: "88316", Kind: domain.KindResource, Quantity: dec("0.305")},
		}}, nil
}

func (bigWorld) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	res := map[string]struct {
		desc, unit string
		typ        int
		price      string
	}{
		"34586": {"BLOCO CERÂMICO FURADO NA HORIZONTAL 9X19X19 CM", "UN", domain.TypeMaterial, "0.97"},
		"370":   {"AREIA MÉDIA - POSTO JAZIDA/FORNECEDOR (RETIRADO NA JAZIDA, SEM TRANSPORTE)", "M3", domain.TypeMaterial, "122.50"},
		"1379":  {"CIMENTO PORTLAND COMPOSTO CP II-32", "KG", domain.TypeMaterial, "0.78"},
		"4750":  {"PEDREIRO", "H", domain.TypeLabor, "25.10"},
		"88316": {"SERVENTE COM ENCARGOS COMPLEMENTARES", "H", domain.TypeLabor, "19.87"},
	}[code]
	if ref != mg || res.desc == "" {
		return nil, domain.Errorf(domain.ENOTFOUND, "no bank resource %s", code)
	}
	return &domain.BankResource{Code: code, Description: res.desc, Unit: res.unit, Type: res.typ,
		Prices: domain.PriceLine{PND: dec(res.price), PD: dec(res.price), PNDI: dec(res.price), PDI: dec(res.price)}}, nil
}

func (bigWorld) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if ref != mg {
		return nil, domain.Errorf(domain.ENOTFOUND, "no bank composition %s", code)
	}
	si := func(kind domain.ItemKind, code, coef string) domain.StructureItem {
		return domain.StructureItem{Kind: kind, Code: code, Coefficient: dec(coef)}
	}
	switch code {
	case "88309":
		return &domain.BankComposition{Code: code, Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H",
			Cost: domain.UnitPrice{PND: dec("33.62"), PD: dec("31.40")}, Items: []domain.StructureItem{
				si(domain.KindResource, "4750", "1"), si(domain.KindResource, "1379", "0.05")}}, nil
	case "87286":
		return &domain.BankComposition{Code: code, Description: "ARGAMASSA TRAÇO 1:1:6 (EM VOLUME DE CIMENTO, CAL E AREIA MÉDIA ÚMIDA)", Unit: "M3",
			Cost: domain.UnitPrice{PND: dec("713.59"), PD: dec("700.12")}, Items: []domain.StructureItem{
				si(domain.KindResource, "1379", "220"), si(domain.KindResource, "370", "1.1"), si(domain.KindResource, "88316", "8")}}, nil
	case "103324":
		return &domain.BankComposition{Code: code, Description: bigDesc, Unit: "M2",
			Cost: domain.UnitPrice{PND: dec("71.20"), PD: dec("69.90")}, Items: []domain.StructureItem{
				si(domain.KindResource, "34586", "27.5"), si(domain.KindComposition, "87286", "0.0082"),
				si(domain.KindComposition, "88309", "0.76"), si(domain.KindResource, "88316", "0.38"),
				si(domain.KindResource, "1379", "0.4"), si(domain.KindResource, "370", "0.002"),
				si(domain.KindResource, "4750", "0.05"), si(domain.KindResource, "34586", "0.5")}}, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no bank composition %s", code)
}

// bigBudget is a budget of n lines in stages of 100 over bigWorld: bank
// compositions (opened into up to eleven item rows in the analytic
// report), bank resources and an own composition, every fourth line
// supplied with the differentiated BDI.
func bigBudget(n int) *domain.Budget {
	b := docBudget()
	b.SupplyNodes = nil
	lines := []struct {
		kind       domain.NodeKind
		bank, code string
	}{{domain.NodeComposition, "SINAPI", "103324"}, {domain.NodeResource, "SINAPI", "34586"}, {domain.NodeComposition, "MYBASE", "OC1"},
		{domain.NodeComposition, "SINAPI", "87286"}, {domain.NodeResource, "SINAPI", "88316"}}
	var stage *domain.BudgetNode
	for i := range n {
		if i%100 == 0 {
			b.Items = append(b.Items, domain.BudgetNode{Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d — alvenaria e revestimentos", i/100+1)})
			stage = &b.Items[len(b.Items)-1]
		}
		l := lines[i%len(lines)]
		stage.Items = append(stage.Items, domain.BudgetNode{Kind: l.kind, Bank: l.bank, Code: l.code,
			Quantity: decimal.New(int64(i%9973*37+1), -int32(1+i%3))})
	}
	b.AssignIDs()
	k := 0
	_ = b.Walk(func(n *domain.BudgetNode, _ int) error {
		if n.Kind.IsLine() {
			if k%4 == 3 {
				b.SupplyNodes = append(b.SupplyNodes, n.ID)
			}
			k++
		}
		return nil
	})
	return b
}

// heapObjects is the heap's object bytes now (live and not yet swept).
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heapPeak runs fn and returns by how much the heap's object bytes rose
// above what they were before it (after a collection) at their highest,
// sampled every 200µs while fn runs and once at its end.
func heapPeak(fn func() error) (uint64, error) {
	runtime.GC()
	base := heapObjects()
	var peak uint64
	var mu sync.Mutex
	note := func() {
		v := heapObjects()
		mu.Lock()
		peak = max(peak, v)
		mu.Unlock()
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				note()
			}
		}
	})
	err := fn()
	note()
	close(done)
	wg.Wait()
	if peak < base {
		return 0, err
	}
	return peak - base, err
}

// bigReports are the synthetic and analytic reports of bigBudget(n) with
// their rows held (domain.BudgetPricer.Synthetic, Analytic).
func bigReports(tb testing.TB, n int) (*domain.SyntheticReport, *domain.AnalyticReport) {
	tb.Helper()
	b := bigBudget(n)
	syn, err := domain.NewBudgetPricer(bigWorld{}).Synthetic(b)
	if err != nil {
		tb.Fatal(err)
	}
	an, err := domain.NewBudgetPricer(bigWorld{}).Analytic(b)
	if err != nil {
		tb.Fatal(err)
	}
	return syn, an
}

// BenchmarkPDF: the synthetic and analytic PDFs of budgets of 5,000 and
// 100,000 lines, written to io.Discard; peak-MB is the median of the
// rounds' heap peaks above the heap before the round (heapPeak).
func BenchmarkPDF(b *testing.B) {
	for _, n := range []int{5000, 100000} {
		syn, an := bigReports(b, n)
		doc := reports.Document{Company: "Construtora Alfa"}
		for _, c := range []struct {
			name  string
			write func() error
		}{
			{"synthetic", func() error { return reports.SyntheticPDF(io.Discard, syn, doc) }},
			{"analytic", func() error { return reports.AnalyticPDF(io.Discard, an, doc) }},
		} {
			b.Run(fmt.Sprintf("%s_%d", c.name, n), func(b *testing.B) {
				var peaks []float64
				for b.Loop() {
					peak, err := heapPeak(c.write)
					if err != nil {
						b.Fatal(err)
					}
					peaks = append(peaks, float64(peak)/(1<<20))
				}
				slices.Sort(peaks)
				b.ReportMetric(peaks[len(peaks)/2], "peak-MB")
			})
		}
	}
}
