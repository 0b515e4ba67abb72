// Package bench holds costdb's Go benchmarks of the hot paths (issue 11),
// on the fixed data set of benchfix, through the whole HTTP handler in
// process (no network). The load script against a bare handler is
// ./bench/load; `task bench` runs both. CI runs these once
// (-benchtime=1x) so that they keep compiling.
package bench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/costdb/costdb/bench/benchfix"
)

var (
	once    sync.Once
	fix     *benchfix.Fixture
	budgets = map[int]string{}
	budMu   sync.Mutex
)

func fixture(testing.TB) *benchfix.Fixture {
	once.Do(func() { fix = benchfix.Setup(8) })
	return fix
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fix != nil {
		fix.Close()
	}
	os.Exit(code)
}

func get(b *testing.B, h http.Handler, path string, hdr ...string) {
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, w.Code, w.Body.String())
	}
}

// BenchmarkRead is R1: a 20-item composition (v2, v1) and a v2 page of 100
// resources, from the response cache and rendered.
func BenchmarkRead(b *testing.B) {
	f := fixture(b)
	auth := []string{"Authorization", "Bearer " + f.Token}
	v2 := append([]string{"Accept", "application/vnd.api+json"}, auth...)
	for _, t := range []struct {
		name, path string
		hdr        []string
	}{
		{"v2_composition", "/api/public/v2/my_database/compositions/" + f.CompID, v2},
		{"v1_composition", "/api/v1/base/mybase/compositions/" + f.CompID, auth},
		{"v2_list_100", "/api/public/v2/my_database/resources?page[size]=100", v2},
	} {
		for _, h := range []struct {
			name string
			h    http.Handler
		}{{"cached", f.H}, {"rendered", f.RenderH}} {
			b.Run(t.name+"/"+h.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					get(b, h.h, t.path, t.hdr...)
				}
			})
		}
	}
}

// BenchmarkAddItems is R2's request: add_items of one item, durable (each
// answered after its commit), one writer.
func BenchmarkAddItems(b *testing.B) {
	f := fixture(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, benchfix.ItemCodes[i%14].Code, i%1000+1)
		req := httptest.NewRequest("POST", "/api/public/v2/my_database/compositions/"+f.Comps[0]+"/add_items", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.H.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("add_items: %d %s", w.Code, w.Body.String())
		}
	}
}

// BenchmarkAddItemsParallel is R2's load in process: 8 writers, one per
// composition of the fixture, each add_items durable; group-committed, so
// time/op is the wall time per write and falls below one fsync.
func BenchmarkAddItemsParallel(b *testing.B) {
	f := fixture(b)
	b.ReportAllocs()
	b.SetParallelism((len(f.Comps) + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	var next atomic.Int64
	cpu0 := cpuTime(b)
	defer func() {
		// The process's CPU per write (server and requests): steadier
		// than time/op, which waits on the disk.
		b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	}()
	b.RunParallel(func(pb *testing.PB) {
		w := int(next.Add(1) - 1)
		path := "/api/public/v2/my_database/compositions/" + f.Comps[w%len(f.Comps)] + "/add_items"
		for i := 0; pb.Next(); i++ {
			body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, benchfix.ItemCodes[(w+i)%14].Code, i%1000+1)
			req := httptest.NewRequest("POST", path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+f.Token)
			rec := httptest.NewRecorder()
			f.H.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("add_items: %d %s", rec.Code, rec.Body.String())
				return
			}
		}
	})
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func budget(b testing.TB, f *benchfix.Fixture, lines int) string {
	budMu.Lock()
	defer budMu.Unlock()
	if id := budgets[lines]; id != "" {
		return id
	}
	st, _, body := benchfix.Do(f.URL+"/api/public/v2/budgets", "POST", f.Token, benchfix.BudgetBody(lines))
	if st != http.StatusCreated {
		b.Fatalf("create a budget of %d lines: %d %s", lines, st, body)
	}
	budgets[lines] = benchfix.IDOf(body)
	return budgets[lines]
}

// BenchmarkReport is R4 on a budget of 5,000 lines (the load script times
// 50,000): every report, JSON and CSV, rendered.
func BenchmarkReport(b *testing.B) {
	f := fixture(b)
	id := budget(b, f, 5000)
	for _, rep := range []string{"synthetic", "analytic", "abc"} {
		for _, format := range []string{"json", "csv"} {
			b.Run(rep+"_"+format, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					get(b, f.RenderH, "/api/public/v2/budgets/"+id+"/reports/"+rep+"?format="+format, "Authorization", "Bearer "+f.Token)
				}
			})
		}
	}
}

// firstByteWriter is a ResponseWriter that discards the body and notes
// when its first byte was written.
type firstByteWriter struct {
	header http.Header
	status int
	first  time.Time
}

func (w *firstByteWriter) Header() http.Header { return w.header }
func (w *firstByteWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *firstByteWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.first.IsZero() {
		w.first = time.Now()
	}
	return len(b), nil
}

// BenchmarkReportFirstByte is R4 at 50,000 lines in process: every report,
// JSON and CSV, its body discarded as it is written; first-ms is the median
// time to its first byte (the status is decided and the first row out),
// time/op the time to its end.
func BenchmarkReportFirstByte(b *testing.B) {
	f := fixture(b)
	id := budget(b, f, 50000)
	for _, rep := range []string{"synthetic", "analytic", "abc"} {
		for _, format := range []string{"json", "csv"} {
			b.Run(rep+"_"+format, func(b *testing.B) {
				b.ReportAllocs()
				var firsts []float64
				for b.Loop() {
					req := httptest.NewRequest("GET", "/api/public/v2/budgets/"+id+"/reports/"+rep+"?format="+format, nil)
					req.Header.Set("Authorization", "Bearer "+f.Token)
					w := &firstByteWriter{header: http.Header{}}
					start := time.Now()
					f.RenderH.ServeHTTP(w, req)
					if w.status != http.StatusOK {
						b.Fatalf("%s %s: %d", rep, format, w.status)
					}
					firsts = append(firsts, float64(w.first.Sub(start).Microseconds())/1000)
				}
				sort.Float64s(firsts)
				b.ReportMetric(firsts[len(firsts)/2], "first-ms")
			})
		}
	}
}

// BenchmarkInvalidLines is a budget create whose every line is invalid
// twice (a quantity that is not a number, which the decoder finds, and a
// code the edition does not hold, which the use case finds): 10,000 and
// 100,000 lines, answered 422 with the first 100 errors (issue 22: the
// 100,000-line request took 153 s of CPU before the merge of the two
// kinds of errors was made linear).
func BenchmarkInvalidLines(b *testing.B) {
	f := fixture(b)
	for _, n := range []int{10000, 100000} {
		var sb strings.Builder
		sb.WriteString(`{"code":"BAD","description":"x","location":"MG","banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"kind":"composition","bank":"SINAPI","code":"Z%d","quantity":"x"}`, i)
		}
		sb.WriteString(`]}`)
		body := sb.String()
		b.Run(fmt.Sprintf("lines_%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/public/v2/budgets", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+f.Token)
				w := httptest.NewRecorder()
				f.H.ServeHTTP(w, req)
				if w.Code != http.StatusUnprocessableEntity {
					b.Fatalf("%d invalid lines: %d %.300s", n, w.Code, w.Body.String())
				}
			}
		})
	}
}
