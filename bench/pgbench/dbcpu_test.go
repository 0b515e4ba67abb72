package pgbench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

// BenchmarkRenderedGetDBCPU is BenchmarkRenderedGetPG reporting the CPU the
// database's server processes spent per GET (db-µs/op), read from /proc:
// the utime and stime of the backends connected to the benchmark's
// database, before and after the loop. Unlike the load's throughput on a
// shared machine, it hardly moves with what else runs, so two commits'
// statements can be compared by it (docs/performance.md, issue 29: the
// rendered GET on PostgreSQL). Linux only (skipped without /proc); the
// kernel counts in ticks of 10 ms, so run a few thousand GETs
// (-benchtime 3000x).
func BenchmarkRenderedGetDBCPU(b *testing.B) {
	f, co, probe := dbCPUFixture(b, 200, 2000, 20)
	get := func(i int) {
		req := httptest.NewRequest("GET", "/api/public/v2/my_database/compositions/"+co.Compositions[i%len(co.Compositions)], nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.RenderH.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET: %d %s", w.Code, w.Body.String())
		}
	}
	for i := range len(co.Compositions) { // every statement prepared on the pool's connections
		get(i)
	}
	reportDBCPU(b, probe, get)
}

// dbCPUFixture opens a store on a new database (skipping without /proc or
// PostgreSQL), generates a company of comps compositions of items items
// and res resources, and connects a probe to the same database.
func dbCPUFixture(b *testing.B, comps, res, items int) (*benchfix.Fixture, *benchfix.Company, *pgx.Conn) {
	b.Helper()
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
	co, err := benchfix.GenerateCompany(ctx, storecache.New(f.Store), "bench@example.com", comps, res, items, 29)
	if err != nil {
		b.Fatal(err)
	}
	probe, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { probe.Close(ctx) })
	return f, co, probe
}

// reportDBCPU runs do once per iteration of b and reports the CPU the
// database's backends spent per iteration (db-µs/op).
func reportDBCPU(b *testing.B, probe *pgx.Conn, do func(i int)) {
	b.Helper()
	before := backendTicks(b, probe)
	i := 0
	for b.Loop() {
		i++
		do(i)
	}
	b.StopTimer()
	after := backendTicks(b, probe)
	var ticks int64
	for pid, t := range after {
		ticks += t - before[pid] // a backend started during the loop counts from 0
	}
	b.ReportMetric(float64(ticks)*clockTick/float64(b.N), "db-µs/op")
}

// clockTick is the kernel's clock tick in µs (USER_HZ, 100 on Linux).
const clockTick = 10000.0

// backendTicks is the utime+stime (ticks) of each backend connected to the
// probe's database, but the probe's own.
func backendTicks(b *testing.B, probe *pgx.Conn) map[int]int64 {
	b.Helper()
	rows, err := probe.Query(context.Background(),
		`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	out := map[int]int64{}
	for _, pid := range pids {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // ended
		}
		// The fields after the command (which may hold spaces), from the
		// third: utime and stime are the 14th and 15th.
		s := string(raw)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 13 {
			b.Fatalf("/proc/%d/stat: %q", pid, s)
		}
		var ut, stt int64
		if _, err := fmt.Sscan(fields[11], &ut); err != nil {
			b.Fatal(err)
		}
		if _, err := fmt.Sscan(fields[12], &stt); err != nil {
			b.Fatal(err)
		}
		out[int(pid)] = ut + stt
	}
	return out
}
