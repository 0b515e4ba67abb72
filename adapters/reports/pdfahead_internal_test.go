package reports

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"
)

// aheadDoc writes a document of n pages of text with the pages deflated
// ahead by ahead goroutines (0: each in turn) to w.
func aheadDoc(w *failingAfter, n, ahead int) error {
	pw, err := newPDFWriter(w, 595, 842, "Orçamento", "costdb", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return err
	}
	pw.deflateAhead = ahead
	for p := range n {
		for l := range 60 {
			pw.text(pw.fonts[l%2], 9, 40, float64(800-12*l), fmt.Sprintf("%d.%d ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS %d × %d", p, l, p*l, p+l))
		}
		pw.line(0.5, 40, 40, 555, 40)
		if err := pw.endPage(); err != nil {
			return err
		}
	}
	return pw.finish(func(page, pages int) {
		pw.text(pw.fonts[0], 8, 40, 20, fmt.Sprintf("Página %d de %d", page, pages))
	})
}

// failingAfter is a buffer that refuses writes once it holds limit bytes
// (0: never).
type failingAfter struct {
	bytes.Buffer
	limit int
}

var errClientLeft = errors.New("the client left")

func (f *failingAfter) Write(p []byte) (int, error) {
	if f.limit > 0 && f.Len()+len(p) > f.limit {
		return 0, errClientLeft
	}
	return f.Buffer.Write(p)
}

// TestPagesDeflatedAhead: a document whose pages are deflated ahead, by
// goroutines of their own, is byte for byte the document deflated page
// after page, with every window of pages in flight; and a writer that
// fails mid-way stops it with its error.
func TestPagesDeflatedAhead(t *testing.T) {
	var want failingAfter
	if err := aheadDoc(&want, 40, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(want.Bytes(), []byte("%%EOF\n")) || bytes.Count(want.Bytes(), []byte("/FlateDecode")) < 40 {
		t.Fatalf("the document deflated in turn is not whole (%d bytes)", want.Len())
	}
	for _, ahead := range []int{1, 2, 4, 16, 64} {
		var got failingAfter
		if err := aheadDoc(&got, 40, ahead); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d pages ahead: %d bytes, not the %d of the pages deflated in turn", ahead, got.Len(), want.Len())
		}
	}
	for _, ahead := range []int{0, 4} {
		cut := failingAfter{limit: want.Len() / 2}
		if err := aheadDoc(&cut, 40, ahead); !errors.Is(err, errClientLeft) {
			t.Errorf("%d pages ahead, the writer failing mid-way: %v, want its error", ahead, err)
		}
	}
}
