package v2_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/xuri/excelize/v2"
)

const xlsxMedia = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// longBudgetBody is a budget of n lines of the sample edition in stages of
// 100.
func longBudgetBody(n int) string {
	var b strings.Builder
	b.WriteString(`{"code":"ORC-LONGO","description":"Obra longa","location":"MG","desonerado":false,"bdi":25,` +
		`"bdi_mode":"unit_price","rounding":"truncate","banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[`)
	lines := []string{`"kind":"composition","bank":"SINAPI","code":"89306"`, `"kind":"resource","bank":"SINAPI","code":"34586"`,
		`"kind":"composition","bank":"SINAPI","code":"89478"`}
	for i := 0; i < n; i++ {
		switch {
		case i%100 == 0 && i > 0:
			b.WriteString(`]},{"kind":"stage","description":"Etapa","items":[`)
		case i == 0:
			b.WriteString(`{"kind":"stage","description":"Etapa","items":[`)
		default:
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{%s,"quantity":%d.5}`, lines[i%len(lines)], i%50+1)
	}
	b.WriteString("]}]}")
	return b.String()
}

// A server writing as many documents as --max-exports lets it answers
// another request for one 503 with Retry-After, in the JSON:API error
// shape, once its wait is over; a slot given back serves it again.
func TestDocumentsLimitedPerServer(t *testing.T) {
	h := apitest.New(t, func(e *httpapi.Env) {
		e.Exports = httpapi.NewExportLimit(1)
		e.Exports.Wait = 0
	})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	id := str(data(t, create(t, h, budgets, u.Token, sampleBudgetBody))["id"])
	release, ok := h.Env.Exports.Acquire(context.Background())
	if !ok {
		t.Fatal("no slot")
	}
	for _, doc := range []struct{ path, accept string }{{"synthetic.xlsx", xlsxMedia}, {"analytic.pdf", "application/pdf"}, {"abc.xlsx", xlsxMedia}} {
		r := h.Do("GET", budgets+"/"+id+"/reports/"+doc.path, u.Token, "", "Accept", doc.accept)
		errs := errorsOf(t, r, http.StatusServiceUnavailable)
		if r.Header.Get("Retry-After") != fmt.Sprint(httpapi.ExportRetryAfter) || errs[0].Status != "503" || errs[0].Code != "unavailable" {
			t.Errorf("%s while busy: Retry-After %q, %+v", doc.path, r.Header.Get("Retry-After"), errs)
		}
	}
	// The JSON and CSV reports are not limited.
	expect(t, h.Do("GET", budgets+"/"+id+"/reports/analytic", u.Token, ""), 200)
	release()
	r := h.Do("GET", budgets+"/"+id+"/reports/synthetic.xlsx", u.Token, "", "Accept", xlsxMedia)
	if r.Status != 200 {
		t.Fatalf("a slot given back: %d %s", r.Status, r.Body)
	}
	if _, err := excelize.OpenReader(bytes.NewReader(r.Body)); err != nil {
		t.Errorf("the document after the wait: %v", err)
	}
}

// goneCtx is a request's context whose client goes away (Err turns
// context.Canceled) once Err has been asked after times times; it counts
// how often it was asked, which is how often the export looked whether to
// go on.
type goneCtx struct {
	context.Context
	mu           sync.Mutex
	asked, after int
	done         chan struct{}
}

func (c *goneCtx) Done() <-chan struct{} { return c.done }

func (c *goneCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked++
	if c.after > 0 && c.asked > c.after {
		return context.Canceled
	}
	return nil
}

// A client that goes away in the middle of an export stops its work: the
// export looks at the request's context as it walks the budget and writes
// the rows (every 256 nodes or rows), and once the client is gone it asks
// no more, answers nothing more and logs the request as the client's
// (499).
func TestDocumentStopsWhenTheClientGoesAway(t *testing.T) {
	var logs bytes.Buffer
	var logMu sync.Mutex
	h := apitest.New(t, func(e *httpapi.Env) {
		e.Log = slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &logMu}, nil))
		e.NoResponseCache = true // every request computes its answer
	})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	body := `{"data":{"type":"budgets","attributes":` + longBudgetBody(3000) + `}}`
	id := str(data(t, create(t, h, budgets, u.Token, body))["id"])
	handler := server.Handler(h.Env)
	export := func(path, accept string, after int) (*httptest.ResponseRecorder, int) {
		ctx := &goneCtx{Context: context.Background(), after: after, done: make(chan struct{})}
		req := httptest.NewRequest("GET", "/api/public/v2/budgets/"+id+"/reports/"+path, nil).WithContext(ctx)
		req.Header.Set("Authorization", "Bearer "+u.Token)
		req.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		return rec, ctx.asked
	}
	for _, doc := range []struct{ path, accept string }{{"synthetic.xlsx", xlsxMedia}, {"analytic.xlsx", xlsxMedia}, {"synthetic.pdf", "application/pdf"}, {"analytic.pdf", "application/pdf"}} {
		// The whole export: it looks at the context all along.
		rec, whole := export(doc.path, doc.accept, 0)
		if rec.Code != 200 || rec.Body.Len() == 0 {
			t.Fatalf("%s: %d", doc.path, rec.Code)
		}
		if whole < 2*3000/256 {
			t.Fatalf("%s: the context was looked at %d times over a budget of 3,000 lines", doc.path, whole)
		}
		// The client goes away while the first pass walks the budget, and
		// while the rows are written.
		for _, at := range []int{whole / 3, 2 * whole / 3} {
			logMu.Lock()
			logs.Reset()
			logMu.Unlock()
			rec, asked := export(doc.path, doc.accept, at)
			// (A workbook sends nothing in its first pass, which measures
			// the rows; in its second its rows go into the zip as they are
			// written, the first ones held in the zip's buffers. A PDF
			// sends its pages as they are made.)
			if strings.HasSuffix(doc.path, ".xlsx") && (rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "") {
				t.Errorf("%s: the client gone, the answer still has %d bytes (%s)", doc.path, rec.Body.Len(), rec.Header().Get("Content-Type"))
			}
			if asked > at+3 {
				t.Errorf("%s: the context was looked at %d times after the client left at %d (the whole export: %d)", doc.path, asked, at, whole)
			}
			logMu.Lock()
			if !strings.Contains(logs.String(), "status=499") || !strings.Contains(logs.String(), "context canceled") {
				t.Errorf("%s: logged %q", doc.path, logs.String())
			}
			logMu.Unlock()
		}
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
