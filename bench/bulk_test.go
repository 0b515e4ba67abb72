package bench

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/costdb/costdb/bench/benchfix"
)

// bulkItems is how many items BenchmarkBulkPrices prices per operation.
const bulkItems = 1000

// BenchmarkBulkPrices prices 1,000 items of the sample SINAPI MG 08/2026
// (the 20 codes of benchfix.ItemCodes in turn) over loopback HTTP against
// the whole server, in the same run: in one POST /prices/bulk, and in 1,000
// single reads GET /banks/{id}/items/{code} one after the other on one
// keep-alive connection. Both go to the server without the response cache
// (every answer rendered); "single_cached" sends the singles to the server
// with it, where repeated codes are replayed. One operation is the 1,000
// items: compare time/op directly.
func BenchmarkBulkPrices(b *testing.B) {
	f := fixture(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	do := func(b *testing.B, method, url, body string) {
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+f.Token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, got)
		}
	}
	qs := make([]string, bulkItems)
	for i := range qs {
		it := benchfix.ItemCodes[i%len(benchfix.ItemCodes)]
		kind := "composition"
		if it.Resource {
			kind = "resource"
		}
		qs[i] = fmt.Sprintf(`{"bank":"SINAPI","code":%q,"state":"MG","month":"08/2026","kind":%q}`, it.Code, kind)
	}
	body := `{"data":[` + strings.Join(qs, ",") + `]}`
	singles := func(base string) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := 0; i < bulkItems; i++ {
					it := benchfix.ItemCodes[i%len(benchfix.ItemCodes)]
					kind := "composition"
					if it.Resource {
						kind = "resource"
					}
					do(b, "GET", base+"/api/public/v2/banks/SINAPI-MG-2026-08/items/"+it.Code+"?kind="+kind, "")
				}
			}
		}
	}
	b.Run("bulk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			do(b, "POST", f.RenderURL+"/api/public/v2/prices/bulk", body)
		}
	})
	b.Run("single", singles(f.RenderURL))
	b.Run("single_cached", singles(f.URL))
}
