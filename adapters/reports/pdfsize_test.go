package reports_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
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

// heapSampler notes the highest heap object bytes above a baseline while
// something runs: start collects and takes the baseline, then samples
// every 200µs; stop samples once more and returns the peak's rise.
type heapSampler struct {
	base, peak uint64
	mu         sync.Mutex
	done       chan struct{}
	wg         sync.WaitGroup
}

func (s *heapSampler) note() {
	v := heapObjects()
	s.mu.Lock()
	s.peak = max(s.peak, v)
	s.mu.Unlock()
}

func (s *heapSampler) start() {
	runtime.GC()
	s.base, s.peak = heapObjects(), 0
	s.done = make(chan struct{})
	s.wg.Go(func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				return
			case <-t.C:
				s.note()
			}
		}
	})
}

func (s *heapSampler) stop() uint64 {
	s.note()
	close(s.done)
	s.wg.Wait()
	if s.peak < s.base {
		return 0
	}
	return s.peak - s.base
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
// rounds' heap peaks above the heap before the round (heapSampler); the
// collection before each round is left out of the time.
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
				var hs heapSampler
				for b.Loop() {
					b.StopTimer()
					hs.start()
					b.StartTimer()
					err := c.write()
					b.StopTimer()
					peaks = append(peaks, float64(hs.stop())/(1<<20))
					b.StartTimer()
					if err != nil {
						b.Fatal(err)
					}
				}
				slices.Sort(peaks)
				b.ReportMetric(peaks[len(peaks)/2], "peak-MB")
			})
		}
	}
}

// pageCounter counts the bytes written to it and the page objects among
// them ("/Type /Page /Parent", which may straddle two writes).
type pageCounter struct {
	n     int64
	pages int
	tail  []byte
}

var pageMark = []byte("/Type /Page /Parent")

func (c *pageCounter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	buf := append(c.tail, p...)
	c.pages += bytes.Count(buf, pageMark)
	// Keep what could start a mark, but no whole mark (counted already).
	keep := min(len(buf), len(pageMark)-1)
	c.tail = append(c.tail[:0], buf[len(buf)-keep:]...)
	return len(p), nil
}

// TestPDFHeapBounded: the synthetic and analytic PDFs of streamed reports
// (their rows walked again as they are written, as the HTTP answers do) of
// budgets of 20,000 lines, and 100,000 unless -short, keep the heap's
// growth while they are written under pdfHeapBound, whatever the budget's
// size; and every row is written (the pages a table of that many rows
// takes). The heap is sampled through runtime/metrics (heapSampler), the
// collector set to GOGC=10 for the test so that the sample is the live
// heap and not the garbage the budget's own size allows before a
// collection.
func TestPDFHeapBounded(t *testing.T) {
	const pdfHeapBound = 16 << 20
	sizes := []int{20000}
	if !testing.Short() {
		sizes = append(sizes, 100000)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	// The fonts are parsed once per process, not per document.
	if err := reports.SyntheticPDF(io.Discard, docSynthetic(0), reports.Document{}); err != nil {
		t.Fatal(err)
	}
	const perPage = 31  // rows of one line on an A4 landscape page
	const perPage3 = 12 // rows of three lines
	for _, n := range sizes {
		b := bigBudget(n)
		syn, err := domain.NewBudgetPricer(bigWorld{}).SyntheticStream(b, b.Walk)
		if err != nil {
			t.Fatal(err)
		}
		an, err := domain.NewBudgetPricer(bigWorld{}).AnalyticStream(b, b.Walk)
		if err != nil {
			t.Fatal(err)
		}
		anRows := 7 // the totals and the direct cost by category
		if err := an.Each(func(r *domain.AnalyticRow) error { anRows += 1 + countItems(r.Items); return nil }); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name  string
			rows  int
			write func(io.Writer) error
		}{
			{"synthetic", syn.Len() + 3, func(w io.Writer) error {
				return reports.SyntheticPDF(w, syn, reports.Document{Company: "Construtora Alfa"})
			}},
			{"analytic", anRows, func(w io.Writer) error {
				return reports.AnalyticPDF(w, an, reports.Document{Company: "Construtora Alfa"})
			}},
		} {
			var out pageCounter
			var hs heapSampler
			hs.start()
			err := c.write(&out)
			grew := hs.stop()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, %d lines: %d rows, %d pages, %.1f MB written, heap grew by %.2f MB", c.name, n, c.rows, out.pages,
				float64(out.n)/(1<<20), float64(grew)/(1<<20))
			// Descriptions wrap (bigDesc over 3 lines), so a page holds from
			// perPage rows of one line down to perPage3 rows of three.
			if least, most := (c.rows+perPage-1)/perPage, (c.rows+perPage3-1)/perPage3+1; out.pages < least || out.pages > most {
				t.Errorf("%s, %d lines: %d pages, want %d to %d for %d rows", c.name, n, out.pages, least, most, c.rows)
			}
			if grew > pdfHeapBound {
				t.Errorf("%s, %d lines: the heap grew by %.1f MB while the PDF was written, over the bound of %d MB",
					c.name, n, float64(grew)/(1<<20), pdfHeapBound>>20)
			}
		}
		runtime.KeepAlive(b)
	}
}

// countItems is the number of rows items take in the analytic table, at any depth.
func countItems(its []domain.AnalyticItem) int {
	n := len(its)
	for i := range its {
		n += countItems(its[i].Items)
	}
	return n
}

// failingWriter takes limit bytes, then fails every write, counting them.
type failingWriter struct {
	limit, n int
	failed   int
}

var errGone = errors.New("the client went away")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		w.failed++
		return 0, errGone
	}
	w.n += len(p)
	return len(p), nil
}

// A PDF whose reader goes away (its writes fail) stops when the page being
// made is done (the walk of the report stops with the error it returns)
// and writes nothing more.
func TestPDFStopsWhenTheWriterFails(t *testing.T) {
	b := bigBudget(2000)
	an, err := domain.NewBudgetPricer(bigWorld{}).AnalyticStream(b, b.Walk)
	if err != nil {
		t.Fatal(err)
	}
	w := &failingWriter{limit: 200 << 10}
	err = reports.AnalyticPDF(w, an, reports.Document{Company: "Construtora Alfa"})
	if !errors.Is(err, errGone) {
		t.Fatalf("AnalyticPDF gave %v, want the writer's error", err)
	}
	if w.failed != 1 {
		t.Errorf("%d writes failed, want 1: the writer went on after the first failure", w.failed)
	}
}
