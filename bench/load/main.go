// Command load is costdb's load script (issue 11): it starts the service on a
// temporary bbolt database with a fixed data set (the bundled sample banks,
// a company with a 20-item composition and 150 resources), starts a bare
// net/http server that answers the same bytes with the same headers, and
// runs a load generator against both alternately, printing the ratio of each
// read target (R1). It then measures the serial one-fsync-per-commit ceiling
// of the disk the database is on and 64 concurrent durable add_items (R2).
//
//	go run ./bench/load            # every target, 5 rounds of 2 s each
//	go run ./bench/load -rounds 3 -round 1s -only r1
//
// With -engine postgres the service runs on PostgreSQL instead: on the empty
// database given by -db (a postgres:// URL), or, without -db, on a throwaway
// cluster it starts itself (initdb into a temporary directory, a free
// loopback port, fsync on; as root the server runs as nobody through
// runuser) and stops at the end. R2 runs on bbolt only: its ceiling is a
// bbolt file's fsync.
//
//	go run ./bench/load -engine postgres -only r1
//	go run ./bench/load -engine postgres -db postgres://u@127.0.0.1:5432/empty -only r1
//
// Two load generators run in turn in every round of R1 and R2 (-client):
// raw, a lean HTTP/1.1 client on kept-alive connections in the manner of
// wrk, and go, net/http's client. The generator shares the machine's cores
// with the service; net/http's client takes about a third of a write's CPU,
// raw much less, so raw reads closer to what the service does with clients
// on other machines, and go is kept beside it for the earlier figures.
//
// With -only p (or p1, p5, p6) it measures issue 29's targets instead, on a
// generated company of 10,000 compositions and 100,000 resources, with 64
// connections of the raw client: random and Zipf reads, the filtered sorted
// list at 1k and 100k, reads beside 10% writes (company.go).
//
//	go run ./bench/load -only p -rounds 3 -round 2s
//	go run ./bench/load -only p -engine postgres -rounds 3 -round 2s
//
// Figures are medians of the rounds. It is not part of go test ./...
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/bench/benchfix"
	bolt "go.etcd.io/bbolt"
)

var (
	rounds  = flag.Int("rounds", 5, "rounds of each measure (the median is printed)")
	roundD  = flag.Duration("round", 2*time.Second, "length of one round")
	clients = flag.Int("clients", 16, "concurrent clients of the read load")
	writers = flag.Int("writers", 64, "concurrent clients of the write load")
	only    = flag.String("only", "", "run only r1, r2 or r4; or issue 29's targets on a generated company: p (all), p1, p5 or p6")
	lines   = flag.Int("lines", 50000, "lines of the R4 budget")
	engine  = flag.String("engine", "bolt", "storage engine: bolt or postgres")
	dbURL   = flag.String("db", "", "with -engine postgres: URL of an empty database (default: a throwaway cluster)")
	docs    = flag.String("docs", "xlsx,pdf", "R4: the client documents timed beside the JSON and CSV of the synthetic and analytic reports (xlsx, pdf, both, or none)")
	client  = flag.String("client", "raw,go", "load generators of R1 and R2, each in turn in every round: raw (a lean HTTP/1.1 client, as wrk), go (net/http's client), or both")
)

// generators are the load generators (-client), in the order they run.
var generators []string

// docFormats are R4's documents (-docs).
var docFormats []string

func main() {
	flag.Parse()
	log.SetFlags(0)
	for _, c := range strings.Split(*client, ",") {
		if c != "raw" && c != "go" {
			log.Fatalf("-client %q: want raw, go or raw,go", *client)
		}
		generators = append(generators, c)
	}
	for _, d := range strings.Split(*docs, ",") {
		switch d {
		case "xlsx", "pdf":
			docFormats = append(docFormats, d)
		case "", "none":
		default:
			log.Fatalf("-docs %q: want xlsx, pdf, xlsx,pdf or none", *docs)
		}
	}
	issue29 := strings.HasPrefix(*only, "p")
	if issue29 {
		switch *only {
		case "p", "p1", "p5", "p6":
		default:
			log.Fatalf("-only %q: want r1, r2, r4, p, p1, p5 or p6", *only)
		}
		*writers = 0 // the generated company's compositions take the writes
	} else {
		defer startProfile()()
	}
	var f *benchfix.Fixture
	switch *engine {
	case "bolt":
		f = benchfix.Setup(*writers)
	case "postgres":
		url := *dbURL
		if url == "" {
			// A throwaway cluster that syncs its commits, as a real server.
			benchfix.Must(os.Setenv("COSTDB_PGTEST_DURABLE", "1"))
			benchfix.Must(pgtest.Available())
			defer pgtest.Stop()
			url = pgtest.URL("postgres")
		}
		st, err := pgstore.Open(context.Background(), url, pgstore.Options{})
		if err != nil {
			pgtest.Stop()
			log.Fatal(err)
		}
		f = benchfix.SetupStore(st, "", *writers)
	default:
		log.Fatalf("-engine %q: want bolt or postgres", *engine)
	}
	defer f.Close()
	if issue29 {
		fmt.Printf("costdb load script, issue 29: engine %s, %s, GOMAXPROCS=%d\n", *engine, runtime.Version(), runtime.GOMAXPROCS(0))
		company(f, *only)
		return
	}
	fmt.Printf("costdb load script: engine %s, client %s, %d rounds of %v, %s, GOMAXPROCS=%d\n", *engine, *client, *rounds, *roundD, runtime.Version(), runtime.GOMAXPROCS(0))
	if *only == "" || *only == "r1" {
		r1(f)
	}
	if (*only == "" || *only == "r2") && *engine == "bolt" {
		r2(f)
	} else if *only == "r2" {
		fmt.Println("R2 skipped: the fsync ceiling is a bbolt file's; run it with -engine bolt")
	}
	if *only == "" || *only == "r4" {
		r4(f)
	}
}

type target struct {
	name string
	path string
	hdr  []string
}

// bare serves one answer's bytes with its headers, as a handler that does
// nothing else would.
func bare(status int, hdr http.Header, body []byte) http.Handler {
	keep := map[string]string{}
	for _, k := range []string{"Content-Type", "Etag", "Cache-Control", "Vary"} {
		if v := hdr.Get(k); v != "" {
			keep[k] = v
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range keep {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// allocPerRequest is the bytes allocated by one request through the handler,
// in process (no network), averaged over n.
func allocPerRequest(h http.Handler, path string, hdr []string, n int) float64 {
	run := func() {
		req := httptest.NewRequest("GET", path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			log.Fatalf("%s: %d %s", path, w.Code, w.Body.String())
		}
	}
	for i := 0; i < 50; i++ {
		run()
	}
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	for i := 0; i < n; i++ {
		run()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(n)
}

func r1(f *benchfix.Fixture) {
	auth := []string{"Authorization", "Bearer " + f.Token}
	v2h := append([]string{"Accept", "application/vnd.api+json"}, auth...)
	targets := []target{
		{"R1 v2 GET composition (20 items)", "/api/public/v2/my_database/compositions/" + f.CompID, v2h},
		{"R1 v1 GET composition (20 items)", "/api/v1/base/mybase/compositions/" + f.CompID, auth},
		{"R1 v2 list page of 100 resources", "/api/public/v2/my_database/resources?page[size]=100", v2h},
	}
	fmt.Printf("\nR1 reads: %d clients, keep-alive, loopback; costdb and a bare net/http handler with the same bytes and headers, alternately\n", *clients)
	fmt.Printf("%-52s %12s %12s %8s %14s\n", "target", "costdb req/s", "bare req/s", "ratio", "alloc B/req")
	for _, srv := range []struct {
		name, url string
		h         http.Handler
	}{{"", f.URL, f.H}, {", rendered", f.RenderURL, f.RenderH}} {
		for _, t := range targets {
			st, hdr, body := benchfix.Do(srv.url+t.path, "GET", "", "", t.hdr...)
			benchfix.Expect(st, 200, body, t.name)
			b := httptest.NewServer(bare(st, hdr, body))
			cs, bs, rs := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
			for i := 0; i < *rounds; i++ {
				for _, g := range generators {
					c := load(g, srv.url+t.path, t.hdr, *clients, *roundD)
					bb := load(g, b.URL+t.path, t.hdr, *clients, *roundD)
					cs[g], bs[g], rs[g] = append(cs[g], c), append(bs[g], bb), append(rs[g], c/bb)
				}
			}
			b.Close()
			alloc := allocPerRequest(srv.h, t.path, t.hdr, 300)
			for _, g := range generators {
				fmt.Printf("%-52s %12.0f %12.0f %8.3f %14.0f\n", t.name+srv.name+" ["+g+"]", median(cs[g]), median(bs[g]), median(rs[g]), alloc)
				fmt.Printf("    rounds: costdb %s; bare %s; ratio %s\n", list(cs[g], "%.0f"), list(bs[g], "%.0f"), list(rs[g], "%.3f"))
			}
		}
	}
}

func list(xs []float64, format string) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf(format, x))
	}
	return strings.Join(s, " ")
}

// fsyncCeiling is the serial one-fsync-per-commit rate of a bbolt file next
// to the database: one small write per transaction, each committed (and
// synced) before the next starts.
func fsyncCeiling(dir string, d time.Duration) float64 {
	path := filepath.Join(dir, "probe.db")
	db, err := bolt.Open(path, 0o600, nil)
	benchfix.Must(err)
	defer func() { _ = db.Close(); _ = os.Remove(path) }()
	benchfix.Must(db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists([]byte("p")); return err }))
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		benchfix.Must(db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("p")).Put([]byte(fmt.Sprintf("k%08d", n)), bytes.Repeat([]byte("v"), 200))
		}))
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

func r2(f *benchfix.Fixture) {
	fmt.Printf("\nR2 writes: %d concurrent durable add_items (one composition each) against the serial one-fsync-per-commit ceiling of the same disk, alternately\n", len(f.Comps))
	commits, _ := f.Store.(interface{ Commits() int64 })
	type series struct{ cs, ws, rs, cpus, batches []float64 }
	by := map[string]*series{}
	for _, g := range generators {
		by[g] = &series{}
	}
	for i := 0; i < *rounds; i++ {
		for _, g := range generators {
			s := by[g]
			c := fsyncCeiling(f.Dir, *roundD)
			cpu0, t0 := cpuTime(), time.Now()
			var n0 int64
			if commits != nil {
				n0 = commits.Commits()
			}
			w := addItemsLoad(g, f, *roundD)
			ops := w * time.Since(t0).Seconds()
			s.cs, s.ws, s.rs = append(s.cs, c), append(s.ws, w), append(s.rs, w/c)
			// CPU of the whole process (server and load generator) per
			// write: the disk's noise does not change it.
			s.cpus = append(s.cpus, (cpuTime()-cpu0).Seconds()*1e6/ops)
			if commits != nil {
				s.batches = append(s.batches, ops/float64(commits.Commits()-n0))
			}
		}
	}
	fmt.Printf("%-40s %12s %12s %8s %14s %14s\n", "target", "add_items/s", "ceiling/s", "ratio", "CPU µs/write", "writes/commit")
	for _, g := range generators {
		s := by[g]
		fmt.Printf("%-40s %12.0f %12.0f %8.3f %14.0f %14.1f\n", "R2 64 concurrent add_items ["+g+"]", median(s.ws), median(s.cs), median(s.rs), median(s.cpus), median(s.batches))
		fmt.Printf("    rounds: add_items %s; ceiling %s; ratio %s; CPU µs/write %s; writes/commit %s\n", list(s.ws, "%.0f"), list(s.cs, "%.0f"), list(s.rs, "%.3f"), list(s.cpus, "%.0f"), list(s.batches, "%.1f"))
	}
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	benchfix.Must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// r4 creates a budget of -lines lines (one request) and times its reports
// over HTTP, JSON and CSV, and the synthetic and analytic reports' client
// documents (XLSX and PDF, -docs), through the rendering server: time to
// the first byte of the answer and to its end, and the bytes.
func r4(f *benchfix.Fixture) {
	start := time.Now()
	st, _, body := benchfix.Do(f.URL+"/api/public/v2/budgets", "POST", f.Token, benchfix.BudgetBody(*lines))
	benchfix.Expect(st, 201, body, "create the R4 budget")
	f.BudgetID = benchfix.IDOf(body)
	fmt.Printf("\nR4 reports of a budget of %d lines (created in %v), rendering server; medians of %d rounds\n", *lines, time.Since(start).Round(time.Millisecond), *rounds)
	fmt.Printf("%-30s %14s %14s %12s %14s %12s %12s\n", "report", "first byte ms", "complete ms", "bytes", "heap B/report", "peak heap MB", "held MB")
	for _, rep := range []string{"synthetic", "analytic", "abc"} {
		formats := []string{"json", "csv"}
		if rep != "abc" {
			formats = append(formats, docFormats...)
		}
		var jsonAll float64
		for _, format := range formats {
			path := "/api/public/v2/budgets/" + f.BudgetID + "/reports/" + rep + "?format=" + format
			if format == "xlsx" || format == "pdf" {
				// The client documents, of the same budget in the same run.
				path = "/api/public/v2/budgets/" + f.BudgetID + "/reports/" + rep + "." + format
			}
			var firsts, alls []float64
			var n int
			for i := 0; i < *rounds; i++ {
				first, all, size := timed(f.RenderURL+path, f.Token)
				firsts, alls, n = append(firsts, first), append(alls, all), size
			}
			heap := allocPerRequest(f.RenderH, path, []string{"Authorization", "Bearer " + f.Token}, 1)
			var peaks, lives []float64
			for i := 0; i < *rounds; i++ {
				peaks = append(peaks, peakHeap(f.RenderH, path, []string{"Authorization", "Bearer " + f.Token})/(1<<20))
			}
			// The same with the collector running all the time: what the
			// report holds at once, its garbage collected as it goes.
			old := debug.SetGCPercent(1)
			for i := 0; i < *rounds; i++ {
				lives = append(lives, peakHeap(f.RenderH, path, []string{"Authorization", "Bearer " + f.Token})/(1<<20))
			}
			debug.SetGCPercent(old)
			fmt.Printf("%-30s %14.1f %14.1f %12d %14.0f %12.1f %12.2f\n", rep+" "+format, median(firsts), median(alls), n, heap, median(peaks), median(lives))
			fmt.Printf("    rounds: first byte %s; complete %s; peak heap MB %s; held MB %s\n", list(firsts, "%.1f"), list(alls, "%.1f"), list(peaks, "%.1f"), list(lives, "%.2f"))
			if format == "json" {
				jsonAll = median(alls)
			} else if jsonAll > 0 && (format == "xlsx" || format == "pdf") {
				fmt.Printf("    complete / the JSON report's: %.2f\n", median(alls)/jsonAll)
			}
		}
	}
}

// peakHeap serves one request in process, its answer written to a
// discarding writer (so that the body itself is not kept, as on a
// connection), and returns the most heap its objects took above what they
// took before (runtime/metrics, sampled every 100 µs): how much memory a
// report needs while it is computed and written, garbage not yet collected
// included.
func peakHeap(h http.Handler, path string, hdr []string) float64 {
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() float64 { metrics.Read(sample); return float64(sample[0].Value.Uint64()) }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if v := uint64(read()); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	w := &discardWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	close(stop)
	<-done
	if w.status != 200 {
		log.Fatalf("%s: status %d", path, w.status)
	}
	return max(float64(peak.Load())-base, 0)
}

// discardWriter is a ResponseWriter that keeps the status only.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	w.WriteHeader(200)
	return len(b), nil
}

// timed GETs url and returns the milliseconds to the first byte of the
// answer and to its end, and its size.
func timed(url, token string) (float64, float64, int) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	var first time.Time
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotFirstResponseByte: func() { first = time.Now() },
	}))
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	benchfix.Must(err)
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("%s: status %d", url, resp.StatusCode)
	}
	end := time.Now()
	return float64(first.Sub(start).Microseconds()) / 1000, float64(end.Sub(start).Microseconds()) / 1000, int(n)
}
