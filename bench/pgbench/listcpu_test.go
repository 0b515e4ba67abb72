package pgbench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkListPageDBCPU is P5's rendered v2 list page of 100 resources
// (filtered by a word of the description, sorted by code descending) on a
// generated company of 100,000 resources with one price state each,
// reporting the CPU the database's server processes spent per page
// (db-µs/op, as BenchmarkRenderedGetDBCPU: from /proc, in ticks of 10 ms,
// so run a few thousand pages: -benchtime 2000x). Its setup writes the
// 100,000 resources (a minute or two).
func BenchmarkListPageDBCPU(b *testing.B) {
	f, _, probe := dbCPUFixture(b, 0, 100000, 0)
	if _, err := probe.Exec(context.Background(), `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	const path = "/api/public/v2/my_database/resources?page[size]=100&filter[description]=alvenaria&sort=-code"
	get := func(int) {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.RenderH.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET: %d %s", w.Code, w.Body.String())
		}
	}
	for i := range 50 { // every statement prepared on the pool's connections
		get(i)
	}
	reportDBCPU(b, probe, get)
}
