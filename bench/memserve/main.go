// Command memserve measures the resident memory of a costdb server serving
// issue 29's generated company (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds"): the server runs as
// its own process, so that what is measured is the server alone, not the
// load generator or a bare handler beside it.
//
//	go run ./bench/memserve -gen DB            # the company into a new bbolt file DB
//	costdb users reset-secret --db DB --email bench@example.com
//	costdb serve --db DB --addr 127.0.0.1:8089 &
//	go run ./bench/memserve -url http://127.0.0.1:8089 -secret S -pid PID DB.comps
//
// The second form reads every composition (v2, then v1) and the filtered,
// sorted list pages, and prints the server's resident memory (VmRSS and
// its anonymous and file parts, /proc/PID/status) after each step. It is
// not part of go test.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

var (
	gen    = flag.String("gen", "", "generate the company into this new bbolt file and exit")
	comps  = flag.Int("comps", 10000, "own compositions of the generated company")
	res    = flag.Int("resources", 100000, "own resources of the generated company")
	items  = flag.Int("items", 20, "items of each generated composition")
	url    = flag.String("url", "", "the server to read from")
	secret = flag.String("secret", "", "the secret token of bench@example.com (costdb users reset-secret)")
	pid    = flag.Int("pid", 0, "the server's process id, for its memory")
	passes = flag.Int("passes", 2, "passes over every composition")
	watch  = flag.Duration("watch", 0, "instead of the passes: read compositions at random on 8 connections this long and print the latencies (reads beside an import)")
)

func main() {
	flag.Parse()
	if *gen != "" {
		generate(*gen)
		return
	}
	read()
}

func generate(path string) {
	st, err := boltstore.Open(path, boltstore.Options{})
	benchfix.Must(err)
	f := benchfix.SetupStore(st, "", 1)
	co, err := benchfix.GenerateCompany(context.Background(), storecache.New(st), "bench@example.com", *comps, *res, *items, 29)
	benchfix.Must(err)
	benchfix.Must(os.WriteFile(path+".comps", []byte(strings.Join(co.Compositions, "\n")), 0o600))
	f.Close()
	fmt.Printf("generated %d compositions and %d resources into %s (ids in %s.comps)\n", *comps, *res, path, path)
}

func read() {
	st, _, b := benchfix.Do(*url+"/api/public/v2/authenticate", "POST", "", `{"email":"bench@example.com","secret_token":"`+*secret+`"}`)
	benchfix.Expect(st, 200, b, "authenticate")
	var auth struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	benchfix.Must(json.Unmarshal(b, &auth))
	token := auth.Data.Attributes.AccessToken
	ids := idsOf()
	if *watch > 0 {
		watchReads(ids, token)
		return
	}
	rss("started")
	v2 := "/api/public/v2/my_database/compositions/"
	for p := range *passes {
		all(ids, func(id string) {
			st, _, b := benchfix.Do(*url+v2+id, "GET", token, "", "Accept", "application/vnd.api+json")
			benchfix.Expect(st, 200, b, id)
		})
		rss(fmt.Sprintf("v2: every composition read (pass %d)", p+1))
	}
	for p := range *passes {
		all(ids, func(id string) {
			st, _, b := benchfix.Do(*url+"/api/v1/base/mybase/compositions/"+id, "GET", token, "")
			benchfix.Expect(st, 200, b, id)
		})
		rss(fmt.Sprintf("v1: every composition read (pass %d)", p+1))
	}
	for range 20 {
		st, _, b := benchfix.Do(*url+"/api/public/v2/my_database/resources?page[size]=100&filter[description]=alvenaria&sort=-code", "GET", token, "", "Accept", "application/vnd.api+json")
		benchfix.Expect(st, 200, b, "list")
	}
	rss("v2: the filtered, sorted list page of resources 20 times")
}

// watchReads reads compositions at random for -watch and prints how many
// and their latencies: the median, the 99th percentile, the longest, and
// how many took over 100 ms.
func watchReads(ids []string, token string) {
	var mu sync.Mutex
	var lat []time.Duration
	end := time.Now().Add(*watch)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 29))
			for time.Now().Before(end) {
				id := ids[r.IntN(len(ids))]
				t0 := time.Now()
				st, _, b := benchfix.Do(*url+"/api/public/v2/my_database/compositions/"+id, "GET", token, "", "Accept", "application/vnd.api+json")
				d := time.Since(t0)
				benchfix.Expect(st, 200, b, id)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(lat)
	slow := 0
	for _, d := range lat {
		if d > 100*time.Millisecond {
			slow++
		}
	}
	fmt.Printf("%d reads in %v: p50 %v, p99 %v, max %v, %d over 100 ms\n", len(lat), *watch,
		lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*99/100].Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), slow)
}

func idsOf() []string {
	b, err := os.ReadFile(flag.Arg(0))
	benchfix.Must(err)
	return strings.Fields(string(b))
}

// all calls get for every id, 8 at a time.
func all(ids []string, get func(string)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				get(ids[i])
			}
		}()
	}
	wg.Wait()
}

// rss prints the server's resident memory.
func rss(step string) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", *pid))
	benchfix.Must(err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, k := range []string{"VmRSS", "RssAnon", "RssFile"} {
			if v, ok := strings.CutPrefix(sc.Text(), k+":"); ok {
				out = append(out, k+" "+strings.Join(strings.Fields(v), " "))
			}
		}
	}
	fmt.Printf("%-60s %s\n", step, strings.Join(out, ", "))
}
