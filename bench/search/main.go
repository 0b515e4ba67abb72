// Command search measures the search across the banks over HTTP on a
// national month (issue 28): it builds the load script's fixture
// (bench/benchfix: the sample banks and a user, served on loopback with and
// without the response cache), imports SINAPI 10/2024 for the 27 states made
// from the real Pernambuco files of the project
// (adapters/bankfiles/testdata/sinapi-pe-202410: 4,811 insumos and 7,737
// compositions; each state is a copy of them, as SINAPI's descriptions and
// structures are national, with its prices scaled), and then times the first
// page of each query, one request at a time, on the server without the
// response cache (every answer computed and rendered) and, for comparison,
// with it.
//
//	go run ./bench/search                         # bbolt, 5 rounds of 40 requests per query
//	go run ./bench/search -engine postgres        # a throwaway PostgreSQL cluster (pgtest)
//	go run ./bench/search -engine postgres -vacuum # … with the bank tables vacuumed after the import
//	go run ./bench/search -rounds 7 -n 60
//	go run ./bench/search -reopen                 # also: the open that builds a lost index
//
// It prints the import's time, then per query and per round the median
// time to the end of the answer, and the median of the rounds. It is not
// part of go test ./...
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	bolt "go.etcd.io/bbolt"
)

var (
	engine = flag.String("engine", "bolt", "storage engine: bolt or postgres")
	rounds = flag.Int("rounds", 5, "rounds (the median of the rounds' medians is printed)")
	n      = flag.Int("n", 40, "requests per query and round")
	data   = flag.String("data", "adapters/bankfiles/testdata/sinapi-pe-202410", "directory of the real SINAPI PE 10/2024 files")
	reopen = flag.Bool("reopen", false, "bolt: at the end, drop the search index and time the open that builds it again")
	vacuum = flag.Bool("vacuum", false, "postgres: VACUUM ANALYZE the bank tables after the import, as autovacuum does within a minute or so of an import")
)

// states are the 27 UFs.
var states = []string{"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA",
	"PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}

// queries are what estimators type; the first is the issue's.
var queries = []string{"bloco ceramico 14x19", "argamassa", "tubo pvc 50 mm", "concreto fck 25", "blóco cerâmico"}

func main() {
	flag.Parse()
	log.SetFlags(0)
	var f *benchfix.Fixture
	switch *engine {
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
		log.Fatalf("-engine %q: want bolt or postgres", *engine)
	}
	defer f.Close()
	fmt.Printf("search over HTTP: engine %s, %d rounds of %d requests per query, %s, GOMAXPROCS=%d\n", *engine, *rounds, *n, runtime.Version(), runtime.GOMAXPROCS(0))

	pe := readPE(*data)
	start := time.Now()
	svc := app.New(storecache.New(f.Store), nil, app.Config{})
	items := 0
	_, err := svc.ImportEditionsFunc(context.Background(), len(states)*len(pe), func(i int) (*app.EditionData, error) {
		d := national(pe[i%len(pe)], states[i/len(pe)], i/len(pe))
		d.Replace = i%len(pe) == 0 // the first regime replaces, the others merge
		items += len(d.Resources) + len(d.Compositions)
		return d, nil
	})
	benchfix.Must(err)
	fmt.Printf("imported SINAPI 10/2024 for %d states (%d item records, both regimes) in %.1f s\n", len(states), items, time.Since(start).Seconds())
	if ps, ok := f.Store.(*pgstore.Store); ok && *vacuum {
		t0 := time.Now()
		_, err := ps.Pool().Exec(context.Background(), "VACUUM ANALYZE bank_resources, bank_compositions")
		benchfix.Must(err)
		fmt.Printf("VACUUM ANALYZE of the bank tables: %.1f s\n", time.Since(t0).Seconds())
	}

	client := &http.Client{}
	for _, q := range queries {
		path := "/api/public/v2/search?q=" + url.QueryEscape(q)
		for _, srv := range []struct{ name, base string }{{"rendered", f.RenderURL}, {"cached", f.URL}} {
			total := get(client, srv.base+path, f.Token) // warm up, and the hits' count
			var meds []float64
			for r := 0; r < *rounds; r++ {
				ms := make([]float64, *n)
				for i := range ms {
					t0 := time.Now()
					get(client, srv.base+path, f.Token)
					ms[i] = float64(time.Since(t0).Microseconds()) / 1000
				}
				meds = append(meds, median(ms))
			}
			fmt.Printf("%-22q %-8s total %-6s rounds %s → median %.2f ms\n", q, srv.name, total, list(meds), median(meds))
		}
	}
	if *reopen && *engine == "bolt" {
		bs := f.Store.(*boltstore.Store)
		path := bs.Path()
		benchfix.Must(bs.Close())
		db, err := bolt.Open(path, 0o600, nil)
		benchfix.Must(err)
		benchfix.Must(db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("search")) }))
		benchfix.Must(db.Close())
		t0 := time.Now()
		st, err := boltstore.Open(path, boltstore.Options{})
		benchfix.Must(err)
		fmt.Printf("open building the search index of %d editions: %.1f s\n", len(states)+2, time.Since(t0).Seconds())
		f.Store = st
	}
}

// readPE reads the real PE 10/2024 files as the importer does: an edition
// per regime.
func readPE(dir string) []bankfiles.Edition {
	im, err := bankfiles.NewImporter(bankfiles.OfficialSinapi(), "PE", "10/2024")
	benchfix.Must(err)
	for _, name := range []string{
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.csv",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv",
	} {
		_, err := im.AddFile(context.Background(), filepath.Join(dir, name))
		benchfix.Must(err)
	}
	eds, err := im.Editions()
	benchfix.Must(err)
	return eds
}

// national is the PE edition as state uf's: the same descriptions and
// structures, the prices scaled by a factor of the state.
func national(pe bankfiles.Edition, uf string, i int) *app.EditionData {
	factor := decimal.New(int64(90+i), -2) // 0.90 … 1.16
	scale := func(d decimal.Decimal) decimal.Decimal { return d.Mul(factor).Round(2) }
	e := pe.Edition
	e.State = uf
	d := &app.EditionData{Edition: e, Replace: true}
	for _, r := range pe.Resources {
		c := *r
		c.Prices = domain.PriceLine{PND: scale(r.Prices.PND), PD: scale(r.Prices.PD), PNDI: scale(r.Prices.PNDI), PDI: scale(r.Prices.PDI)}
		d.Resources = append(d.Resources, &c)
	}
	for _, r := range pe.Compositions {
		c := *r
		c.Cost = domain.UnitPrice{PND: scale(r.Cost.PND), PD: scale(r.Cost.PD)}
		d.Compositions = append(d.Compositions, &c)
	}
	return d
}

// get GETs url and returns the answer's meta.total as written.
func get(c *http.Client, u, token string) string {
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.api+json")
	resp, err := c.Do(req)
	benchfix.Must(err)
	b, err := io.ReadAll(resp.Body)
	benchfix.Must(err)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("%s: status %d: %s", u, resp.StatusCode, b)
	}
	s := string(b)
	if i := strings.LastIndex(s, `"total":`); i >= 0 {
		s = s[i+len(`"total":`):]
		return strings.TrimRight(s[:strings.IndexAny(s, "},")], " ")
	}
	return "?"
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func list(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(out, " ")
}
