package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/bench/benchfix"
)

// A contract's documents over HTTP (issue 26): a contract made from a
// frozen 5,000-line budget with 36 approved measurements, its last boletim
// and its accumulated statement, JSON and CSV, each beside the synthetic
// report of the same budget in the same run, each rendered (the server
// without the response cache: every answer computed) and cached (the
// service as it runs: the first read after a write of the company renders,
// the next ones are served from the response cache). Two contracts: "spread",
// where each line is executed in 6 consecutive months of the 36 (the
// lines of the first stages early, of the last ones late: about 830 lines
// a measurement, as a work progresses), and "dense", where every
// measurement measures every line (the most a boletim can carry). Through a real loopback connection to the server without the
// response cache; first-ms is the median time to the first byte of the
// body (httptrace), time/op the time to its last byte.

// contractFixture makes the contract once; it returns its id and the
// budget's.
func contractFixture(b *testing.B, f *benchfix.Fixture, lines, measurements int, dense bool) (contract, budgetID string) {
	budMu.Lock()
	defer budMu.Unlock()
	key := fmt.Sprintf("contract-%d-%d-%v", lines, measurements, dense)
	if id := contracts[key]; id != "" {
		return id, contractBudgets[key]
	}
	v2 := f.URL + "/api/public/v2"
	st, _, body := benchfix.Do(v2+"/budgets", "POST", f.Token, strings.Replace(benchfix.BudgetBody(lines), `"code":"BENCH-`, `"code":"CT-`+key+`-`, 1))
	benchfix.Expect(st, http.StatusCreated, body, "budget")
	bid := benchfix.IDOf(body)
	st, _, body = benchfix.Do(v2+"/budgets/"+bid+"/versions", "POST", f.Token, "")
	benchfix.Expect(st, http.StatusCreated, body, "freeze")
	st, _, body = benchfix.Do(v2+"/contracts", "POST", f.Token, fmt.Sprintf(`{"data":{"type":"contracts","attributes":{"budget_id":%q,"version":1,
	  "number":"CT-BENCH","contractor":"Construtora","start_date":"2026-09-01","base_month":"2026-08","retention":5,"index":"INCC"}}}`, bid))
	benchfix.Expect(st, http.StatusCreated, body, "contract")
	cid := benchfix.IDOf(body)
	var doc struct {
		Data struct {
			Attributes struct {
				Lines []struct {
					ID string `json:"id"`
				} `json:"lines"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || len(doc.Data.Attributes.Lines) != lines {
		b.Fatalf("contract lines: %v (%d)", err, len(doc.Data.Attributes.Lines))
	}
	cpath := v2 + "/contracts/" + cid
	for n := 1; n <= measurements; n++ {
		var q strings.Builder
		for i, l := range doc.Data.Attributes.Lines {
			// Every line's quantity is at least 1.25: 36 × 0.02 and
			// 6 × 0.2 fit.
			first := i * (measurements - 5) / lines // spread: months first … first+5
			switch {
			case dense:
				fmt.Fprintf(&q, "%q:0.02,", l.ID)
			case n-1 >= first && n-1 < first+6:
				fmt.Fprintf(&q, "%q:0.2,", l.ID)
			}
		}
		start := time.Date(2026, time.Month(9+n-1), 1, 0, 0, 0, 0, time.UTC)
		end := start.AddDate(0, 1, -1)
		st, _, body = benchfix.Do(cpath+"/measurements", "POST", f.Token, fmt.Sprintf(`{"period_start":%q,"period_end":%q,"quantities":{%s}}`,
			start.Format(time.DateOnly), end.Format(time.DateOnly), strings.TrimSuffix(q.String(), ",")))
		benchfix.Expect(st, http.StatusCreated, body, "measurement")
		for _, step := range []string{"submit", "approve"} {
			st, _, body = benchfix.Do(fmt.Sprintf("%s/measurements/%d/%s", cpath, n, step), "POST", f.Token, "")
			benchfix.Expect(st, http.StatusOK, body, step)
		}
	}
	contracts[key], contractBudgets[key] = cid, bid
	return cid, bid
}

var contracts, contractBudgets = map[string]string{}, map[string]string{}

// timedGet gets url over the network and drops the body; it returns the
// time to the first byte of the answer and to its end.
func timedGet(b *testing.B, url, token string) (first, whole time.Duration) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	var got time.Time
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotFirstResponseByte: func() { got = time.Now() },
	}))
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	whole = time.Since(start)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d %v", url, resp.StatusCode, err)
	}
	return got.Sub(start), whole
}

// BenchmarkContract: the boletim of measurement 36 and the statement of a
// 5,000-line contract, JSON and CSV, and the synthetic report of its
// budget, over HTTP.
func BenchmarkContract(b *testing.B) {
	f := fixture(b)
	for _, dense := range []bool{false, true} {
		cid, bid := contractFixture(b, f, 5000, 36, dense)
		v2 := f.RenderURL + "/api/public/v2"
		if st, _, body := benchfix.Do(v2+"/budgets/"+bid+"/versions/1/schedule", "PUT", f.Token,
			`{"start":"09/2026","periods":36,"rows":[`+stageShares(5)+`]}`); st != http.StatusOK {
			b.Fatalf("schedule: %d %s", st, body)
		}
		kind := map[bool]string{false: "spread", true: "dense"}[dense]
		for _, d := range []struct{ name, path string }{
			{"synthetic_json", "/budgets/" + bid + "/reports/synthetic"},
			{"boletim_json", "/contracts/" + cid + "/measurements/36/boletim"},
			{"boletim_csv", "/contracts/" + cid + "/measurements/36/boletim?format=csv"},
			{"statement_json", "/contracts/" + cid + "/statement"},
			{"statement_csv", "/contracts/" + cid + "/statement?format=csv"},
			{"progress_json", "/contracts/" + cid + "/progress"},
		} {
			for _, srv := range []struct{ name, url string }{{"rendered", v2}, {"cached", f.URL + "/api/public/v2"}} {
				b.Run(kind+"/"+d.name+"/"+srv.name, func(b *testing.B) {
					var firsts []float64
					for b.Loop() {
						first, _ := timedGet(b, srv.url+d.path, f.Token)
						firsts = append(firsts, float64(first.Microseconds())/1000)
					}
					sort.Float64s(firsts)
					b.ReportMetric(firsts[len(firsts)/2], "first-ms")
				})
			}
		}
	}
}

// stageShares is a schedule of the benchmark budget's stages ("n1",
// "n1002", … one per 1,000 lines) over 36 months: 2.77% a month and
// 3.05% in the last.
func stageShares(stages int) string {
	var rows []string
	for s := 0; s < stages; s++ {
		sh := strings.Repeat("2.77,", 35) + "3.05"
		rows = append(rows, fmt.Sprintf(`{"node_id":"n%d","shares":[%s]}`, s*1001+1, sh))
	}
	return strings.Join(rows, ",")
}
