package reports_test

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// timedWriter counts the bytes written to it and notes when the first
// one came.
type timedWriter struct {
	n        int64
	first    time.Time
	firstCPU time.Duration // the process's CPU time then
}

func (w *timedWriter) Write(p []byte) (int, error) {
	if w.n == 0 && len(p) > 0 {
		w.first, w.firstCPU = time.Now(), cpuTime()
	}
	w.n += int64(len(p))
	return len(p), nil
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStreamedDocuments: the synthetic and analytic XLSX and PDF of a
// streamed 5,000-line budget (COSTDB_DOC_LINES=50000: of 50,000) (bigBudget: its rows priced again by each
// pass, as the HTTP answers are), written to a writer that drops them.
// first-ms is the median time to the first byte written (first-cpu-ms
// the process's CPU time until then), MB the
// document's size, cpu-ms the process's CPU time per document (on a
// shared machine, steadier than the wall time).
func BenchmarkStreamedDocuments(b *testing.B) {
	bud := bigBudget(benchLines())
	p := domain.NewBudgetPricer(bigWorld{})
	doc := reports.Document{Company: "Construtora Alfa"}
	for _, c := range []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"synthetic_xlsx", func(w io.Writer) error {
			r, err := p.SyntheticStream(bud, bud.Walk)
			if err != nil {
				return err
			}
			return reports.SyntheticXLSX(w, r, doc)
		}},
		{"synthetic_pdf", func(w io.Writer) error {
			r, err := p.SyntheticStream(bud, bud.Walk)
			if err != nil {
				return err
			}
			return reports.SyntheticPDF(w, r, doc)
		}},
		{"analytic_xlsx", func(w io.Writer) error {
			r, err := p.AnalyticStream(bud, bud.Walk)
			if err != nil {
				return err
			}
			return reports.AnalyticXLSX(w, r, doc)
		}},
		{"analytic_pdf", func(w io.Writer) error {
			r, err := p.AnalyticStream(bud, bud.Walk)
			if err != nil {
				return err
			}
			return reports.AnalyticPDF(w, r, doc)
		}},
	} {
		b.Run(fmt.Sprintf("%s_%d", c.name, benchLines()), func(b *testing.B) {
			var firsts, firstCPUs []float64
			var size int64
			cpu := cpuTime()
			for b.Loop() {
				w := &timedWriter{}
				start, startCPU := time.Now(), cpuTime()
				if err := c.write(w); err != nil {
					b.Fatal(err)
				}
				firsts = append(firsts, float64(w.first.Sub(start))/float64(time.Millisecond))
				firstCPUs = append(firstCPUs, float64(w.firstCPU-startCPU)/float64(time.Millisecond))
				size = w.n
			}
			cpu = cpuTime() - cpu
			slices.Sort(firsts)
			slices.Sort(firstCPUs)
			b.ReportMetric(firsts[len(firsts)/2], "first-ms")
			b.ReportMetric(firstCPUs[len(firstCPUs)/2], "first-cpu-ms")
			b.ReportMetric(float64(size)/1e6, "MB")
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(time.Millisecond), "cpu-ms")
		})
	}
}

// benchLines is the budget's lines: 5,000, or COSTDB_DOC_LINES.
func benchLines() int {
	if v, _ := strconv.Atoi(os.Getenv("COSTDB_DOC_LINES")); v > 0 {
		return v
	}
	return 5000
}
