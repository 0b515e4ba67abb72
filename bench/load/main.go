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
// Figures are medians of the rounds. It is not part of go test ./...
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"net/http/httptrace"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	bolt "go.etcd.io/bbolt"
)

var (
	rounds  = flag.Int("rounds", 5, "rounds of each measure (the median is printed)")
	roundD  = flag.Duration("round", 2*time.Second, "length of one round")
	clients = flag.Int("clients", 16, "concurrent clients of the read load")
	writers = flag.Int("writers", 64, "concurrent clients of the write load")
	only    = flag.String("only", "", "run only r1, r2 or r4")
	lines   = flag.Int("lines", 50000, "lines of the R4 budget")
)

// itemCodes are 20 items of the sample SINAPI MG 08/2026 edition: 14
// resources and 6 compositions.
var itemCodes = []struct {
	code     string
	resource bool
}{
	{"7153", true}, {"12868", true}, {"34556", true}, {"34564", true}, {"34565", true}, {"34586", true},
	{"34588", true}, {"34649", true}, {"34655", true}, {"34781", true}, {"34788", true}, {"37666", true},
	{"37873", true}, {"38588", true},
	{"87286", false}, {"88309", false}, {"88316", false}, {"89282", false}, {"89290", false}, {"89298", false},
}

type fixture struct {
	dir    string
	store  *boltstore.Store
	url    string
	srv    *http.Server
	h      http.Handler
	// renderURL and renderH serve the same service without the response
	// cache (where the code has one): every answer is rendered.
	renderURL string
	renderH   http.Handler
	renderSrv *http.Server
	budgetID  string
	token  string
	compID string
	comps  []string // one composition per writer
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	f := setup()
	defer func() {
		_ = f.srv.Close()
		_ = f.renderSrv.Close()
		_ = f.store.Close()
		_ = os.RemoveAll(f.dir)
	}()
	fmt.Printf("costdb load script: %d rounds of %v, %s, GOMAXPROCS=%d\n", *rounds, *roundD, runtime.Version(), runtime.GOMAXPROCS(0))
	if *only == "" || *only == "r1" {
		r1(f)
	}
	if *only == "" || *only == "r2" {
		r2(f)
	}
	if *only == "" || *only == "r4" {
		r4(f)
	}
}

func do(url, method, token, body string, hdr ...string) (int, http.Header, []byte) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	must(err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

func expect(st int, want int, b []byte, what string) {
	if st != want {
		log.Fatalf("%s: status %d, want %d: %s", what, st, want, b)
	}
}

func idOf(b []byte) string {
	var doc struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	must(json.Unmarshal(b, &doc))
	return doc.Data.ID
}

func setup() *fixture {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "costdb-load-")
	must(err)
	st, err := boltstore.Open(filepath.Join(dir, "costdb.db"), boltstore.Options{})
	must(err)
	key, err := app.New(st, nil, app.Config{}).SigningKey(ctx)
	must(err)
	tokens, err := jwtauth.New(key)
	must(err)
	svc := app.New(st, tokens, app.Config{})
	eds, err := sample.Load()
	must(err)
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	_, err = svc.ImportEditions(ctx, data)
	must(err)
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Bench", Email: "bench@example.com"})
	must(err)
	env := &httpapi.Env{
		App: svc, Location: time.UTC, MaxBodyBytes: 1 << 20,
		Limiter: httpapi.NewAuthLimiter(20, time.Minute),
		Log:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	env.MaxBodyBytes = 64 << 20 // the R4 budget is one request
	h := server.Handler(env)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	srv := server.New("", h, server.DefaultTimeouts)
	go func() { _ = srv.Serve(ln) }()
	f := &fixture{dir: dir, store: st, url: "http://" + ln.Addr().String(), srv: srv, h: h}
	renv := *env
	if fv := reflect.ValueOf(&renv).Elem().FieldByName("NoResponseCache"); fv.IsValid() {
		fv.SetBool(true)
	}
	f.renderH = server.Handler(&renv)
	rln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	f.renderSrv = server.New("", f.renderH, server.DefaultTimeouts)
	go func() { _ = f.renderSrv.Serve(rln) }()
	f.renderURL = "http://" + rln.Addr().String()
	v2 := f.url + "/api/public/v2"
	st2, _, b := do(v2+"/authenticate", "POST", "", `{"email":"bench@example.com","secret_token":"`+nu.SecretToken+`"}`)
	expect(st2, 200, b, "authenticate")
	var auth struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	must(json.Unmarshal(b, &auth))
	f.token = auth.Data.Attributes.AccessToken
	var items []string
	for _, it := range itemCodes {
		items = append(items, fmt.Sprintf(`{"bank":"SINAPI","code":"%s","quantity":1.25,"resource":%v}`, it.code, it.resource))
	}
	newComp := func(code string, withItems bool) string {
		st, _, b := do(v2+"/my_database/compositions", "POST", f.token, `{"code":"`+code+`","description":"ALVENARIA ESTRUTURAL 14X19X29","unit":"M2","type":"PARE","location":"MG"}`)
		expect(st, 201, b, "create composition")
		id := idOf(b)
		st, _, b = do(v2+"/my_database/compositions/"+id+"/add_banks", "POST", f.token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`)
		expect(st, 200, b, "add_banks")
		if withItems {
			st, _, b = do(v2+"/my_database/compositions/"+id+"/add_items", "POST", f.token, `{"items":[`+strings.Join(items, ",")+`]}`)
			expect(st, 200, b, "add_items")
		}
		return id
	}
	f.compID = newComp("BENCH-20", true)
	for i := 0; i < 150; i++ {
		st, _, b := do(v2+"/my_database/resources", "POST", f.token, fmt.Sprintf(`{"data":{"type":"resources","attributes":{"code":"R-%03d","description":"Areia média %d","unit":"M3","resource_type":4,"locals":{"MG":{"pnd":101.25,"pd":100}}}}}`, i, i))
		if st != 201 {
			// the v1 shape, should the v2 body be refused
			st, _, b = do(f.url+"/api/v1/base/mybase/resources", "POST", f.token, fmt.Sprintf(`{"code":"R-%03d","description":"Areia média %d","type":4,"unit":"M3","local":"MG","pnd":101.25,"pd":100,"pndi":0,"pdi":0,"status":true,"note":""}`, i, i))
			expect(st, 201, b, "create resource")
		}
	}
	for i := 0; i < *writers; i++ {
		f.comps = append(f.comps, newComp(fmt.Sprintf("W-%03d", i), false))
	}
	f.store = st
	return f
}

// target is one read the script measures.
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

// load runs c clients against url for d and returns requests per second.
func load(url string, hdr []string, c int, d time.Duration) float64 {
	tr := &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", url, nil)
			for i := 0; i+1 < len(hdr); i += 2 {
				req.Header.Set(hdr[i], hdr[i+1])
			}
			for time.Now().Before(stop) {
				resp, err := cl.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failed.Store(fmt.Sprintf("status %d", resp.StatusCode))
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		log.Fatalf("load on %s: %v", url, v)
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
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

func r1(f *fixture) {
	auth := []string{"Authorization", "Bearer " + f.token}
	v2h := append([]string{"Accept", "application/vnd.api+json"}, auth...)
	targets := []target{
		{"R1 v2 GET composition (20 items)", "/api/public/v2/my_database/compositions/" + f.compID, v2h},
		{"R1 v1 GET composition (20 items)", "/api/v1/base/mybase/compositions/" + f.compID, auth},
		{"R1 v2 list page of 100 resources", "/api/public/v2/my_database/resources?page[size]=100", v2h},
	}
	fmt.Printf("\nR1 reads: %d clients, keep-alive, loopback; costdb and a bare net/http handler with the same bytes and headers, alternately\n", *clients)
	fmt.Printf("%-46s %12s %12s %8s %14s\n", "target", "costdb req/s", "bare req/s", "ratio", "alloc B/req")
	for _, srv := range []struct {
		name, url string
		h         http.Handler
	}{{"", f.url, f.h}, {", rendered", f.renderURL, f.renderH}} {
		for _, t := range targets {
			st, hdr, body := do(srv.url+t.path, "GET", "", "", t.hdr...)
			expect(st, 200, body, t.name)
			b := httptest.NewServer(bare(st, hdr, body))
			var cs, bs, rs []float64
			for i := 0; i < *rounds; i++ {
				c := load(srv.url+t.path, t.hdr, *clients, *roundD)
				bb := load(b.URL+t.path, t.hdr, *clients, *roundD)
				cs, bs, rs = append(cs, c), append(bs, bb), append(rs, c/bb)
			}
			b.Close()
			alloc := allocPerRequest(srv.h, t.path, t.hdr, 300)
			fmt.Printf("%-46s %12.0f %12.0f %8.3f %14.0f\n", t.name+srv.name, median(cs), median(bs), median(rs), alloc)
			fmt.Printf("    rounds: costdb %s; bare %s; ratio %s\n", list(cs, "%.0f"), list(bs, "%.0f"), list(rs, "%.3f"))
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
	must(err)
	defer func() { _ = db.Close(); _ = os.Remove(path) }()
	must(db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists([]byte("p")); return err }))
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		must(db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("p")).Put([]byte(fmt.Sprintf("k%08d", n)), bytes.Repeat([]byte("v"), 200))
		}))
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

// addItemsLoad runs one writer per composition, each sending add_items (one
// item, a new quantity each time) as fast as answers come, for d.
func addItemsLoad(f *fixture, d time.Duration) float64 {
	tr := &http.Transport{MaxIdleConnsPerHost: len(f.comps), MaxConnsPerHost: len(f.comps)}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w, id := range f.comps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			url := f.url + "/api/public/v2/my_database/compositions/" + id + "/add_items"
			for i := 0; time.Now().Before(stop); i++ {
				body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, itemCodes[(w+i)%14].code, i%1000+1)
				req, _ := http.NewRequest("POST", url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+f.token)
				resp, err := cl.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failed.Store(fmt.Sprintf("status %d: %s", resp.StatusCode, b))
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		log.Fatalf("add_items load: %v", v)
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}

func r2(f *fixture) {
	fmt.Printf("\nR2 writes: %d concurrent durable add_items (one composition each) against the serial one-fsync-per-commit ceiling of the same disk, alternately\n", len(f.comps))
	var cs, ws, rs []float64
	for i := 0; i < *rounds; i++ {
		c := fsyncCeiling(f.dir, *roundD)
		w := addItemsLoad(f, *roundD)
		cs, ws, rs = append(cs, c), append(ws, w), append(rs, w/c)
	}
	fmt.Printf("%-36s %12s %12s %8s\n", "target", "add_items/s", "ceiling/s", "ratio")
	fmt.Printf("%-36s %12.0f %12.0f %8.3f\n", "R2 64 concurrent add_items", median(ws), median(cs), median(rs))
	fmt.Printf("    rounds: add_items %s; ceiling %s; ratio %s\n", list(ws, "%.0f"), list(cs, "%.0f"), list(rs, "%.3f"))
}

// r4 creates a budget of -lines lines (one request) and times its reports
// over HTTP, JSON and CSV, through the rendering server: time to the first
// byte of the answer and to its end, and the bytes.
func r4(f *fixture) {
	var b strings.Builder
	b.WriteString(`{"data":{"type":"budgets","attributes":{"code":"BENCH-50K","description":"Obra grande","location":"MG","desonerado":false,"bdi":25,"bdi_mode":"unit_price","rounding":"truncate",` +
		`"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[`)
	per := 1000 // lines per stage
	for s := 0; s*per < *lines; s++ {
		if s > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"kind":"stage","description":"Etapa %d","items":[`, s)
		for i := s * per; i < min((s+1)*per, *lines); i++ {
			if i > s*per {
				b.WriteString(",")
			}
			it := itemCodes[i%len(itemCodes)]
			kind := "composition"
			if it.resource {
				kind = "resource"
			}
			fmt.Fprintf(&b, `{"kind":"%s","bank":"SINAPI","code":"%s","quantity":%d.25}`, kind, it.code, i%97+1)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}}}")
	start := time.Now()
	st, _, body := do(f.url+"/api/public/v2/budgets", "POST", f.token, b.String())
	expect(st, 201, body, "create the R4 budget")
	f.budgetID = idOf(body)
	fmt.Printf("\nR4 reports of a budget of %d lines (created in %v), rendering server; medians of %d rounds\n", *lines, time.Since(start).Round(time.Millisecond), *rounds)
	fmt.Printf("%-30s %14s %14s %12s %14s\n", "report", "first byte ms", "complete ms", "bytes", "heap B/report")
	for _, rep := range []string{"synthetic", "analytic", "abc"} {
		for _, format := range []string{"json", "csv"} {
			path := "/api/public/v2/budgets/" + f.budgetID + "/reports/" + rep + "?format=" + format
			var firsts, alls []float64
			var n int
			for i := 0; i < *rounds; i++ {
				first, all, size := timed(f.renderURL+path, f.token)
				firsts, alls, n = append(firsts, first), append(alls, all), size
			}
			heap := allocPerRequest(f.renderH, path, []string{"Authorization", "Bearer " + f.token}, 1)
			fmt.Printf("%-30s %14.1f %14.1f %12d %14.0f\n", rep+" "+format, median(firsts), median(alls), n, heap)
			fmt.Printf("    rounds: first byte %s; complete %s\n", list(firsts, "%.1f"), list(alls, "%.1f"))
		}
	}
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
	must(err)
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("%s: status %d", url, resp.StatusCode)
	}
	end := time.Now()
	return float64(first.Sub(start).Microseconds()) / 1000, float64(end.Sub(start).Microseconds()) / 1000, int(n)
}
