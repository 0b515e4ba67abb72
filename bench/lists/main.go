// Command lists measures a filtered, sorted list page (issue 29, goal P5)
// over HTTP: GET /api/public/v2/my_database/resources with
// filter[description]=alvenaria&sort=-code&page[size]=100, rendered on every
// request (the server without the response cache), for a company of 1,000
// resources and one of 100,000 held by the same store, in the same run.
// One resource in ten holds the word, so the page is full at both sizes and
// the matches grow with the company (100 and 10,000).
//
//	go run ./bench/lists                       # both engines, 3 rounds of 5 s per size
//	go run ./bench/lists -engine bolt -rounds 5 -d 10s
//	go run ./bench/lists -engine postgres      # a throwaway PostgreSQL cluster (pgtest)
//
// Each round runs every size in turn (interleaved), with -c connections
// asking as fast as they are answered; it prints per round and size the
// requests per second, p50 and p99, then the medians of the rounds and the
// ratio of the 100k page's p50 to the 1k page's. It is not part of go test
// ./... .
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/bench/benchfix"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

var (
	engine  = flag.String("engine", "both", "storage engine: bolt, postgres or both")
	sizes   = flag.String("sizes", "1000,100000", "company sizes (resources), comma-separated")
	rounds  = flag.Int("rounds", 3, "rounds (each runs every size)")
	dur     = flag.Duration("d", 5*time.Second, "duration of one size in one round")
	conns   = flag.Int("c", 64, "concurrent connections")
	cpuProf = flag.String("cpuprofile", "", "write a CPU profile of the loads (server and client in this process, from after the writes) to the file (the engine's name is appended with -engine both)")
	path    = flag.String("path", "/api/public/v2/my_database/resources?filter%5Bdescription%5D=alvenaria&sort=-code&page%5Bsize%5D=100", "the request")
)

// words make the descriptions; every tenth resource is an ALVENARIA.
var words = []string{"AREIA", "CIMENTO", "TUBO PVC", "BLOCO CERÂMICO", "CONCRETO", "ARGAMASSA", "PISO", "TINTA", "ACO CA-50"}

func description(i int) string {
	if i%10 == 0 {
		return fmt.Sprintf("ALVENARIA DE %s %dX%d", words[i%len(words)], 9+i%7, 19+i%5)
	}
	return fmt.Sprintf("%s %s %d", words[i%len(words)], words[(i/9)%len(words)], i%97)
}

type result struct {
	rps      float64
	p50, p99 time.Duration
	cpu      time.Duration // of this process (server and client) per request
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		benchfix.Must(err)
		ns = append(ns, n)
	}
	engines := []string{*engine}
	if *engine == "both" {
		engines = []string{"bolt", "postgres"}
	}
	for _, e := range engines {
		run(e, ns)
	}
}

func run(engine string, ns []int) {
	var f *benchfix.Fixture
	switch engine {
	case "bolt":
		f = benchfix.Setup(0)
	case "postgres":
		benchfix.Must(os.Setenv("COSTDB_PGTEST_DURABLE", "1"))
		benchfix.Must(pgtest.Available())
		defer pgtest.Stop()
		st, err := pgstore.Open(context.Background(), pgtest.URL("postgres"), pgstore.Options{})
		benchfix.Must(err)
		f = benchfix.SetupStore(st, "", 0)
	default:
		log.Fatalf("unknown engine %q", engine)
	}
	defer f.Close()
	ctx := context.Background()
	svc := app.New(f.Store, nil, app.Config{})
	tokens := make([]string, len(ns))
	for si, n := range ns {
		nu, err := svc.AddUser(ctx, app.NewUserInput{Company: fmt.Sprintf("Lists %d", n), Email: fmt.Sprintf("lists%d@example.com", n)})
		benchfix.Must(err)
		start := time.Now()
		const batch = 2000
		for lo := 0; lo < n; lo += batch {
			benchfix.Must(f.Store.Update(ctx, func(tx app.Tx) error {
				for i := lo; i < min(lo+batch, n); i++ {
					r := &domain.Resource{
						ID: app.NewID(time.Now()), CompanyID: nu.Company.ID, UserID: nu.User.ID, DepartmentID: nu.Department.ID,
						Code: fmt.Sprintf("R-%d", i), Description: description(i), Type: domain.TypeMaterial, Unit: "UN", Status: true,
						Locals:    map[string]domain.PriceLine{"MG": {PND: decimal.New(int64(100+i%900), -2), PD: decimal.New(int64(95+i%900), -2)}},
						CreatedAt: time.Now().UTC(),
					}
					if err := tx.PutResource(r); err != nil {
						return err
					}
				}
				return nil
			}))
		}
		fmt.Printf("%s: %d resources written in %s\n", engine, n, time.Since(start).Round(time.Millisecond))
		tokens[si] = token(f, nu.User.Email, nu.SecretToken)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}}
	url := f.RenderURL + *path
	// One request per size first: the page must be full and the total right.
	for si, n := range ns {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+tokens[si])
		resp, err := client.Do(req)
		benchfix.Must(err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var page struct {
			Data []struct {
				Attributes struct {
					Code string `json:"code"`
				} `json:"attributes"`
			} `json:"data"`
			Meta map[string]any `json:"meta"`
		}
		benchfix.Expect(resp.StatusCode, 200, b, "list page")
		benchfix.Must(json.Unmarshal(b, &page))
		first := ""
		if len(page.Data) > 0 {
			first = page.Data[0].Attributes.Code
		}
		fmt.Printf("%s: %d resources: page of %d, first %s, meta %v\n", engine, n, len(page.Data), first, page.Meta)
	}
	stop := startProfile(engine)
	all := make([][]result, len(ns))
	for r := 0; r < *rounds; r++ {
		for si, n := range ns {
			res := load(client, url, tokens[si])
			all[si] = append(all[si], res)
			fmt.Printf("%s round %d, %d resources: %.0f req/s, p50 %s, p99 %s, CPU/req %s\n", engine, r+1, n, res.rps, res.p50, res.p99, res.cpu)
		}
	}
	stop()
	var p50s []time.Duration
	for si, n := range ns {
		m := median(all[si])
		p50s = append(p50s, m.p50)
		fmt.Printf("%s median of %d rounds, %d resources: %.0f req/s, p50 %s, p99 %s, CPU/req %s\n", engine, *rounds, n, m.rps, m.p50, m.p99, m.cpu)
	}
	if len(p50s) == 2 {
		fmt.Printf("%s: p50 at %d / p50 at %d = %.2f\n", engine, ns[1], ns[0], float64(p50s[1])/float64(p50s[0]))
	}
}

// token authenticates the user over HTTP.
func token(f *benchfix.Fixture, email, secret string) string {
	st, _, b := benchfix.Do(f.URL+"/api/public/v2/authenticate", "POST", "", `{"email":"`+email+`","secret_token":"`+secret+`"}`)
	benchfix.Expect(st, 200, b, "authenticate")
	var auth struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	benchfix.Must(json.Unmarshal(b, &auth))
	return auth.Data.Attributes.AccessToken
}

// load asks for url with *conns connections for *dur.
func load(client *http.Client, url, tok string) result {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	end := time.Now().Add(*dur)
	start, cpu0 := time.Now(), cpuTime()
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(end) {
				req, _ := http.NewRequest("GET", url, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					log.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					log.Fatalf("status %d", resp.StatusCode)
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	return result{rps: float64(len(lat)) / elapsed.Seconds(), p50: q(0.50), p99: q(0.99), cpu: cpu / time.Duration(max(1, len(lat)))}
}

// cpuTime is the CPU time (user and system) this process has used: the
// server's and the client's, not PostgreSQL's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	benchfix.Must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startProfile starts the CPU profile asked for by -cpuprofile and returns
// what stops it.
func startProfile(name0 string) func() {
	if *cpuProf == "" {
		return func() {}
	}
	name := *cpuProf
	if *engine == "both" {
		name += "." + name0
	}
	f, err := os.Create(name)
	benchfix.Must(err)
	benchfix.Must(pprof.StartCPUProfile(f))
	return func() {
		pprof.StopCPUProfile()
		benchfix.Must(f.Close())
	}
}

func median(rs []result) result {
	pick := func(get func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = get(r)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return result{
		rps: pick(func(r result) float64 { return r.rps }),
		p50: time.Duration(pick(func(r result) float64 { return float64(r.p50) })),
		p99: time.Duration(pick(func(r result) float64 { return float64(r.p99) })),
		cpu: time.Duration(pick(func(r result) float64 { return float64(r.cpu) })),
	}
}
