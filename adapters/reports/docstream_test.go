package reports_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// The documents of streamed reports go to their reader as they are made:
// the first bytes leave while the table's rows are still being computed
// (not once the whole document is), and a reader that goes away stops the
// work. How far the rows are is counted through the report's Interrupt
// check, which its Each calls every domain.InterruptEvery rows of every
// pass.

// checks counts the report's checks.
type checks struct{ n int }

func (c *checks) check() error { c.n++; return nil }

// firstWrite records the checks made when the first byte was written, and
// keeps the document.
type firstWrite struct {
	checks *checks
	at     int // checks made at the first write; -1 before it
	buf    bytes.Buffer
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.at < 0 && len(p) > 0 {
		w.at = w.checks.n
	}
	return w.buf.Write(p)
}

// streamedReports are the synthetic and analytic reports of bigBudget(n),
// streamed (their rows computed again by each Each), their checks counted.
func streamedReports(t *testing.T, n int) (*domain.SyntheticReport, *domain.AnalyticReport, *checks) {
	t.Helper()
	b := bigBudget(n)
	p := domain.NewBudgetPricer(bigWorld{})
	syn, err := p.SyntheticStream(b, b.Walk)
	if err != nil {
		t.Fatal(err)
	}
	an, err := p.AnalyticStream(b, b.Walk)
	if err != nil {
		t.Fatal(err)
	}
	c := &checks{}
	syn.Interrupt(c.check)
	an.Interrupt(c.check)
	return syn, an, c
}

func TestDocumentsStartBeforeTheirRowsEnd(t *testing.T) {
	const lines = 6000
	doc := reports.Document{Company: "Construtora Alfa"}
	for _, c := range []struct {
		name  string
		write func(w io.Writer, syn *domain.SyntheticReport, an *domain.AnalyticReport) error
		// passes is how many times the document walks the rows (besides
		// the report's own first pass).
		passes int
	}{
		{"synthetic.xlsx", func(w io.Writer, syn *domain.SyntheticReport, _ *domain.AnalyticReport) error {
			return reports.SyntheticXLSX(w, syn, doc)
		}, 2},
		{"analytic.xlsx", func(w io.Writer, _ *domain.SyntheticReport, an *domain.AnalyticReport) error {
			return reports.AnalyticXLSX(w, an, doc)
		}, 2},
		{"synthetic.pdf", func(w io.Writer, syn *domain.SyntheticReport, _ *domain.AnalyticReport) error {
			return reports.SyntheticPDF(w, syn, doc)
		}, 1},
		{"analytic.pdf", func(w io.Writer, _ *domain.SyntheticReport, an *domain.AnalyticReport) error {
			return reports.AnalyticPDF(w, an, doc)
		}, 1},
	} {
		syn, an, cs := streamedReports(t, lines)
		// One pass over the rows (lines and stages) makes this many checks.
		pass := (syn.Len() + domain.InterruptEvery - 1) / domain.InterruptEvery
		w := &firstWrite{checks: cs, at: -1}
		if err := c.write(w, syn, an); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cs.n != c.passes*pass {
			t.Fatalf("%s: %d checks, want %d passes of %d", c.name, cs.n, c.passes, pass)
		}
		// The first byte leaves before the last pass is half done.
		if last := (c.passes - 1) * pass; w.at < 0 || w.at > last+pass/2 {
			t.Errorf("%s: the first byte was written after %d checks of %d (the last pass starts at %d)", c.name, w.at, cs.n, last)
		}
		// What was written is the whole document.
		if c.name[len(c.name)-4:] == "xlsx" {
			if _, err := zip.NewReader(bytes.NewReader(w.buf.Bytes()), int64(w.buf.Len())); err != nil {
				t.Errorf("%s: not a zip: %v", c.name, err)
			}
		} else if !bytes.HasSuffix(w.buf.Bytes(), []byte("%%EOF\n")) {
			t.Errorf("%s: the PDF does not end", c.name)
		}
	}
}

// A workbook whose reader goes away (its writes fail) while its rows are
// written stops with the writer's error, walking no more of the budget,
// and writes nothing more.
func TestXLSXStopsWhenTheWriterFails(t *testing.T) {
	syn, an, cs := streamedReports(t, 6000)
	pass := (syn.Len() + domain.InterruptEvery - 1) / domain.InterruptEvery
	w := &failingWriter{limit: 200 << 10}
	err := reports.AnalyticXLSX(w, an, reports.Document{Company: "Construtora Alfa"})
	if !errors.Is(err, errGone) {
		t.Fatalf("AnalyticXLSX gave %v, want the writer's error", err)
	}
	if w.failed != 1 {
		t.Errorf("%d writes failed, want 1: the writer went on after the first failure", w.failed)
	}
	if cs.n < pass || cs.n >= 2*pass {
		t.Errorf("the workbook made %d checks (a pass makes %d): it did not stop in its second pass when the writer failed", cs.n, pass)
	}
}
