package main

// Issue 29's targets on a generated company (-only p, or p1, p5, p6 alone):
// 10,000 own compositions of 20 items and 100,000 own resources
// (benchfix.GenerateCompany), read with keys chosen uniformly at random or
// by Zipf, beside writes; -conns raw clients; every round of costdb is
// followed by the same load on a bare net/http handler answering the same
// bytes (for a composition: the bytes of that composition, as costdb
// answered it before the load).
//
//	go run ./bench/load -only p -rounds 3 -round 2s
//	go run ./bench/load -only p -engine postgres -rounds 3 -round 2s

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

var (
	nComps     = flag.Int("comps", 10000, "issue 29 (-only p…): own compositions of the generated company")
	nResources = flag.Int("resources", 100000, "issue 29: own resources of the generated company")
	nSmall     = flag.Int("small", 1000, "issue 29: own resources of the second, small company (the list at 1k)")
	nItems     = flag.Int("items", 20, "issue 29: items of each generated composition")
	conns      = flag.Int("conns", 64, "issue 29: connections of the load")
	zipfS      = flag.Float64("zipf", 1.1, "issue 29: exponent s of the Zipf key choice (> 1)")
	writeShare = flag.Float64("writes", 0.10, "issue 29: share of the mixed load's requests that are add_items (P6)")
	seed       = flag.Uint64("seed", 29, "issue 29: seed of the generated company and of the key choices")
	writeConns = flag.Int("writeconns", 0, "issue 29, P6: when > 0, this many of the connections send only add_items and the others only reads (read-only: the readers alone), instead of -writes of every connection's requests")
)

const (
	v2Base   = "/api/public/v2/my_database"
	listPath = v2Base + "/resources?page[size]=100&filter[description]=alvenaria&sort=-code"
)

// p29 is the data set of issue 29's targets.
type p29 struct {
	f          *benchfix.Fixture
	comps      []string
	smallToken string
	v2h, v1h   []string
	// perm maps a Zipf rank to a composition, so that the hot keys are
	// spread over the company instead of being its oldest records.
	perm []int
}

func company(f *benchfix.Fixture, which string) {
	ctx := context.Background()
	t0 := time.Now()
	co, err := benchfix.GenerateCompany(ctx, storecache.New(f.Store), "bench@example.com", *nComps, *nResources, *nItems, *seed)
	benchfix.Must(err)
	gen := time.Since(t0)
	smallToken := f.AddCompany("Small", "small@example.com")
	t1 := time.Now()
	_, err = benchfix.GenerateCompany(ctx, storecache.New(f.Store), "small@example.com", 0, *nSmall, 0, *seed+1)
	benchfix.Must(err)
	fmt.Printf("\nissue 29: generated %d own compositions of %d items and %d own resources in %.1f s (resources %.1f s, compositions %.1f s); a second company of %d resources in %.1f s\n",
		*nComps, *nItems, *nResources, gen.Seconds(), co.ResourcesTook.Seconds(), co.CompositionsTook.Seconds(), *nSmall, time.Since(t1).Seconds())
	auth := []string{"Authorization", "Bearer " + f.Token}
	p := &p29{f: f, comps: co.Compositions, smallToken: smallToken,
		v2h: append([]string{"Accept", "application/vnd.api+json"}, auth...), v1h: auth,
		perm: rand.New(rand.NewPCG(*seed, 1)).Perm(len(co.Compositions))}
	defer startProfile()() // the loads only, not the generation
	fmt.Printf("%d raw connections, keep-alive, loopback; %d rounds of %v a side, costdb then bare in each round; GOMAXPROCS=%d\n", *conns, *rounds, *roundD, runtime.GOMAXPROCS(0))
	if which == "p" || which == "p1" {
		p.p1()
	}
	if which == "p" || which == "p5" {
		p.p5()
	}
	if which == "p" || which == "p6" {
		p.p6()
	}
}

// picker chooses composition indexes for one connection.
type picker func() int

func (p *p29) uniform(w int) picker {
	r := rand.New(rand.NewPCG(*seed+uint64(w), 2))
	n := len(p.comps)
	return func() int { return r.IntN(n) }
}

func (p *p29) zipf(w int) picker {
	r := rand.New(rand.NewPCG(*seed+uint64(w), 3))
	z := rand.NewZipf(r, *zipfS, 1, uint64(len(p.comps)-1))
	return func() int { return p.perm[z.Uint64()] }
}

// answers is what costdb answered for each composition path, for the bare
// handler to answer the same bytes.
type answers struct {
	ctype string
	body  map[string][]byte
	etag  map[string]string
	bytes int
}

// fetch reads every composition's answer at prefix+id from the cached server.
func (p *p29) fetch(prefix string, hdr []string) *answers {
	a := &answers{body: make(map[string][]byte, len(p.comps)), etag: make(map[string]string, len(p.comps))}
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(p.comps) {
					return
				}
				path := prefix + p.comps[i]
				st, h, b := benchfix.Do(p.f.URL+path, "GET", "", "", hdr...)
				benchfix.Expect(st, 200, b, path)
				mu.Lock()
				a.body[path], a.etag[path], a.bytes = b, h.Get("Etag"), a.bytes+len(b)
				a.ctype = h.Get("Content-Type")
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return a
}

func (a *answers) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := a.body[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", a.ctype)
		w.Header().Set("Etag", a.etag[r.URL.Path])
		w.WriteHeader(200)
		_, _ = w.Write(b)
	})
}

// result is one load's figures: answers per second of each class (0 read,
// 1 write) and their latencies.
type result struct {
	rate [2]float64
	lat  [2][]time.Duration
}

func (r result) pct(class int, q float64) float64 {
	l := r.lat[class]
	if len(l) == 0 {
		return 0
	}
	slices.Sort(l)
	return float64(l[min(len(l)-1, int(q*float64(len(l))))].Microseconds()) / 1000
}

// driveMix runs n raw clients against base for d, each sending the
// request next gives it as soon as the answer to the last has come, and
// times each answer by its class (0 read, 1 write). Any answer but 200 ends
// the run. Requests started before d ran out are waited for and counted.
func driveMix(base string, n int, d time.Duration, next func(w int, body []byte) (method, path string, hdr []string, out []byte, class int)) result {
	var failed atomic.Value
	stop := time.Now().Add(d)
	start := time.Now()
	lats := make([][2][]time.Duration, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dialRaw(base)
			if err != nil {
				failed.Store(err.Error())
				return
			}
			defer c.Close()
			var body []byte
			for time.Now().Before(stop) {
				method, path, hdr, b, class := next(w, body[:0])
				body = b
				t := time.Now()
				st, answer, err := c.do(method, path, hdr, b)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				if st != http.StatusOK {
					failed.Store(fmt.Sprintf("%s %s: status %d: %.300s", method, path, st, answer))
					return
				}
				lats[w][class] = append(lats[w][class], time.Since(t))
			}
		}()
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		panic(fmt.Sprintf("load on %s: %v", base, v))
	}
	el := time.Since(start).Seconds()
	var r result
	for _, l := range lats {
		for k := range 2 {
			r.lat[k] = append(r.lat[k], l[k]...)
		}
	}
	for k := range 2 {
		r.rate[k] = float64(len(r.lat[k])) / el
	}
	return r
}

// getLoad is a read-only load of GETs prefix+composition, keys from pick.
func (p *p29) getLoad(base, prefix string, hdr []string, pick func(w int) picker) result {
	return p.getLoadN(*conns, base, prefix, hdr, pick)
}

// getLoadN is getLoad on n connections.
func (p *p29) getLoadN(n int, base, prefix string, hdr []string, pick func(w int) picker) result {
	picks := make([]picker, n)
	for w := range picks {
		picks[w] = pick(w)
	}
	return driveMix(base, n, *roundD, func(w int, _ []byte) (string, string, []string, []byte, int) {
		return "GET", prefix + p.comps[picks[w]()], hdr, nil, 0
	})
}

// pair prints one target's rounds: costdb and bare req/s, their ratio, and
// costdb's p50 and p99, then the medians; and the bare handler's p50 and
// p99, which are what the machine and the load give a handler that does
// nothing (64 connections on 2 cores: its p99 is several times its p50).
type pair struct{ cs, bs, rs, p50, p99, b50, b99 []float64 }

func (s *pair) add(c, b result) {
	s.cs, s.bs = append(s.cs, c.rate[0]), append(s.bs, b.rate[0])
	s.rs = append(s.rs, c.rate[0]/b.rate[0])
	s.p50, s.p99 = append(s.p50, c.pct(0, 0.50)), append(s.p99, c.pct(0, 0.99))
	s.b50, s.b99 = append(s.b50, b.pct(0, 0.50)), append(s.b99, b.pct(0, 0.99))
}

func (s *pair) print(name string) {
	fmt.Printf("%-50s %10.0f %10.0f %7.3f %9.2f %9.1f\n", name, median(s.cs), median(s.bs), median(s.rs), median(s.p50), median(s.p99))
	fmt.Printf("    rounds: costdb %s; bare %s; ratio %s; p50 ms %s; p99 ms %s; bare p50 ms %s; bare p99 ms %s\n", list(s.cs, "%.0f"), list(s.bs, "%.0f"), list(s.rs, "%.3f"), list(s.p50, "%.2f"), list(s.p99, "%.1f"), list(s.b50, "%.2f"), list(s.b99, "%.1f"))
}

func header(title string) {
	fmt.Printf("\n%s\n%-50s %10s %10s %7s %9s %9s\n", title, "target", "costdb/s", "bare/s", "ratio", "p50 ms", "p99 ms")
}

// p1 is P1: GET of a uniformly random composition, v2 and v1, cached (the
// service as it runs) and rendered; then the Zipf mix.
func (p *p29) p1() {
	header(fmt.Sprintf("P1 GET of a composition among %d, keys uniform or Zipf s=%.2f; bare answers each composition's own bytes", len(p.comps), *zipfS))
	type api struct {
		name, prefix string
		hdr          []string
		zipf         bool
	}
	for _, a := range []api{
		{"v2", v2Base + "/compositions/", p.v2h, true},
		{"v1", "/api/v1/base/mybase/compositions/", p.v1h, false},
	} {
		t := time.Now()
		ans := p.fetch(a.prefix, a.hdr)
		fmt.Printf("(%s: %d answers, %.1f MB, read in %.1f s)\n", a.name, len(ans.body), float64(ans.bytes)/(1<<20), time.Since(t).Seconds())
		bare := httptest.NewServer(ans.handler())
		keys := []struct {
			name string
			pick func(int) picker
		}{{"uniform", p.uniform}}
		if a.zipf {
			keys = append(keys, struct {
				name string
				pick func(int) picker
			}{fmt.Sprintf("Zipf %.1f", *zipfS), p.zipf})
		}
		for _, k := range keys {
			for _, srv := range []struct{ name, url string }{{"cached", p.f.URL}, {"rendered", p.f.RenderURL}} {
				var s pair
				for round := range *rounds {
					if srv.name == "cached" {
						p.touch(round) // as the service runs: after a write to the company
					}
					c := p.getLoad(srv.url, a.prefix, a.hdr, k.pick)
					b := p.getLoad(bare.URL, a.prefix, a.hdr, k.pick)
					s.add(c, b)
				}
				s.print(fmt.Sprintf("P1 %s GET composition, %s, %s", a.name, k.name, srv.name))
			}
		}
		bare.Close()
		if a.zipf {
			p.zipfShare()
		}
	}
}

// touch writes to the company before a round of P1: add_items to one of its
// compositions (the n-th of a fixed random order), so that P1 measures the
// service as it runs after a write to the company, not a cache that no
// write ever touched.
func (p *p29) touch(n int) {
	id := p.comps[rand.New(rand.NewPCG(*seed, uint64(n))).IntN(len(p.comps))]
	path := v2Base + "/compositions/" + id + "/add_items"
	body := `{"items":[{"bank":"SINAPI","code":"` + benchfix.ItemCodes[n%14].Code + `","quantity":` + strconv.Itoa(n+2) + `,"resource":true}]}`
	st, _, b := benchfix.Do(p.f.URL+path, "POST", p.f.Token, body)
	benchfix.Expect(st, 200, b, path)
}

// zipfShare prints the share of the Zipf picks that fall on the 20% most
// picked keys (the "80/20" of the issue).
func (p *p29) zipfShare() {
	pick := p.zipf(0)
	counts := make([]int, len(p.comps))
	const n = 200000
	for range n {
		counts[pick()]++
	}
	slices.SortFunc(counts, func(a, b int) int { return b - a })
	top := 0
	for _, c := range counts[:len(counts)/5] {
		top += c
	}
	fmt.Printf("    (Zipf s=%.2f over %d keys: the 20%% most read keys take %.1f%% of the reads; the hottest %.1f%%)\n", *zipfS, len(p.comps), 100*float64(top)/n, 100*float64(counts[0])/n)
}

// p5 is P5: the filtered, sorted page of 100 at 1k and at 100k resources.
func (p *p29) p5() {
	header(fmt.Sprintf("P5 v2 list page of 100, %s", strings.TrimPrefix(listPath, v2Base)))
	for _, co := range []struct {
		name, token string
		n           int
	}{{"small", p.smallToken, *nSmall}, {"big", p.f.Token, *nResources}} {
		hdr := []string{"Accept", "application/vnd.api+json", "Authorization", "Bearer " + co.token}
		st, h, b := benchfix.Do(p.f.URL+listPath, "GET", "", "", hdr...)
		benchfix.Expect(st, 200, b, "list")
		total := "?"
		if i := strings.LastIndex(string(b), `"total":`); i >= 0 {
			total = strings.TrimRight(strings.SplitN(string(b[i+8:]), "}", 2)[0], " ")
		}
		bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", h.Get("Content-Type"))
			w.Header().Set("Etag", h.Get("Etag"))
			_, _ = w.Write(b)
		}))
		one := func(base string) result {
			return driveMix(base, *conns, *roundD, func(int, []byte) (string, string, []string, []byte, int) {
				return "GET", listPath, hdr, nil, 0
			})
		}
		fmt.Printf("(%d resources, %s match, page %d bytes)\n", co.n, total, len(b))
		for _, srv := range []struct{ name, url string }{{"cached", p.f.URL}, {"rendered", p.f.RenderURL}} {
			var s pair
			for range *rounds {
				s.add(one(srv.url), one(bare.URL))
			}
			s.print(fmt.Sprintf("P5 list at %s resources, %s", strconv.Itoa(co.n), srv.name))
		}
		bare.Close()
	}
}

// p6 is P6: uniform random v2 GETs, read-only and with -writes of the
// requests add_items to uniformly random compositions (cached server, as
// the service runs), alternately: read throughput of both, their ratio,
// and the writes' latency.
func (p *p29) p6() {
	wc := min(max(*writeConns, 0), *conns-1)
	if wc > 0 {
		fmt.Printf("\nP6 uniform v2 GET of a composition on %d connections, alone against beside %d connections sending only add_items to random compositions, alternately (cached server)\n", *conns-wc, wc)
	} else {
		fmt.Printf("\nP6 uniform v2 GET of a composition, read-only against %.0f%% add_items to random compositions, alternately (cached server)\n", *writeShare*100)
	}
	fmt.Printf("%-24s %10s %10s %7s %9s %9s %9s %9s %9s %9s %9s\n", "", "ro read/s", "mix read/s", "ratio", "write/s", "w p50 ms", "w p99 ms", "r p50 ms", "r p99 ms", "ro p50", "ro p99")
	prefix := v2Base + "/compositions/"
	whdr := []string{"Content-Type", "application/json", "Authorization", "Bearer " + p.f.Token}
	var ro, mx, ratio, ws, w50, w99, r50, r99, o50, o99 []float64
	for range *rounds {
		a := p.getLoadN(*conns-wc, p.f.URL, prefix, p.v2h, p.uniform)
		picks := make([]picker, *conns)
		coins := make([]*rand.Rand, *conns)
		for w := range picks {
			picks[w] = p.uniform(w + 1000)
			coins[w] = rand.New(rand.NewPCG(*seed+uint64(w), 4))
		}
		n := make([]int, *conns)
		b := driveMix(p.f.URL, *conns, *roundD, func(w int, body []byte) (string, string, []string, []byte, int) {
			id := p.comps[picks[w]()]
			if write := w < wc || (wc == 0 && coins[w].Float64() < *writeShare); !write {
				return "GET", prefix + id, p.v2h, nil, 0
			}
			n[w]++
			it := benchfix.ItemCodes[coins[w].IntN(14)] // the 14 resources
			body = append(body, `{"items":[{"bank":"SINAPI","code":"`...)
			body = append(body, it.Code...)
			body = append(body, `","quantity":`...)
			body = strconv.AppendInt(body, int64(n[w]%1000+1), 10)
			body = append(body, `.5,"resource":true}]}`...)
			return "POST", prefix + id + "/add_items", whdr, body, 1
		})
		ro, mx, ratio = append(ro, a.rate[0]), append(mx, b.rate[0]), append(ratio, b.rate[0]/a.rate[0])
		ws, w50, w99 = append(ws, b.rate[1]), append(w50, b.pct(1, 0.5)), append(w99, b.pct(1, 0.99))
		r50, r99 = append(r50, b.pct(0, 0.5)), append(r99, b.pct(0, 0.99))
		o50, o99 = append(o50, a.pct(0, 0.5)), append(o99, a.pct(0, 0.99))
	}
	fmt.Printf("%-24s %10.0f %10.0f %7.3f %9.0f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", "P6 medians", median(ro), median(mx), median(ratio), median(ws), median(w50), median(w99), median(r50), median(r99), median(o50), median(o99))
	fmt.Printf("    rounds: read-only %s; mixed reads %s; ratio %s; writes/s %s; write p50 %s; p99 %s; mixed read p50 %s; p99 %s; read-only p50 %s; p99 %s\n",
		list(ro, "%.0f"), list(mx, "%.0f"), list(ratio, "%.3f"), list(ws, "%.0f"), list(w50, "%.1f"), list(w99, "%.1f"), list(r50, "%.1f"), list(r99, "%.1f"), list(o50, "%.1f"), list(o99, "%.1f"))
}
