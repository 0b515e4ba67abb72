package pgbench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

// BenchmarkListPageDBCPU is P5's rendered v2 list page of 100 resources
// (filtered by a word of the description, sorted by code descending) on a
// generated company of 100,000 resources with one price state each,
// reporting the CPU the database's server processes spent per page
// (db-µs/op, as BenchmarkRenderedGetDBCPU: from /proc, in ticks of 10 ms,
// so run a few thousand pages: -benchtime 2000x). Its setup writes the
// 100,000 resources (a minute or two).
func BenchmarkListPageDBCPU(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("no /proc")
	}
	if err := pgtest.Available(); err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	url := pgtest.NewDatabase(b)
	st, err := pgstore.Open(ctx, url, pgstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	f := benchfix.SetupStore(st, "", 8)
	b.Cleanup(f.Close)
	if _, err := benchfix.GenerateCompany(ctx, storecache.New(f.Store), "bench@example.com", 0, 100000, 0, 29); err != nil {
		b.Fatal(err)
	}
	probe, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer probe.Close(ctx)
	if _, err := probe.Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	const path = "/api/public/v2/my_database/resources?page[size]=100&filter[description]=alvenaria&sort=-code"
	get := func() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.RenderH.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET: %d %s", w.Code, w.Body.String())
		}
	}
	for range 50 { // every statement prepared on the pool's connections
		get()
	}
	before := backendTicks(b, probe)
	for b.Loop() {
		get()
	}
	b.StopTimer()
	after := backendTicks(b, probe)
	var ticks int64
	for pid, t := range after {
		ticks += t - before[pid]
	}
	b.ReportMetric(float64(ticks)*clockTick/float64(b.N), "db-µs/op")
}
