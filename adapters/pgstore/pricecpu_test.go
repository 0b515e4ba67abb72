package pgstore_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// ticksOf is the utime+stime of a process, in ticks of 10 ms.
func ticksOf(t *testing.T, pid uint32) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return ut + st
}

// TestPriceStatementCPU measures (it checks nothing) the database's CPU
// per page statement of P5 (100 resources of 100,000 filtered by a word of
// the description, 10% match, sorted by code descending) with the prices
// read as before migration 0017 (old: a subquery into a table like
// resource_prices), as now (new: five arrays of the row), as one 2-D array
// of the row (2d), and without prices (none): the one backend's
// utime+stime from /proc over 1,000 statements, five rounds interleaved
// (docs/notes/prices.md). About 25 s; run with COSTDB_PRICE_CPU=1.
func TestPriceStatementCPU(t *testing.T) {
	if os.Getenv("COSTDB_PRICE_CPU") == "" {
		t.Skip("set COSTDB_PRICE_CPU=1 to measure")
	}
	_, conn := databaseAt(t, 17)
	ctx := context.Background()
	const co = "c0000000000000000000000a"
	for _, q := range []string{
		`INSERT INTO resources (company_id, id, user_id, department_id, group_id, code, second_code, description,
			type, unit, is_sicro, status, note, code_fold, code_key, description_fold, description_ci, unit_fold, unit_ci, created_at, created_at_ns,
			price_states, price_pnd, price_pd, price_pndi, price_pdi)
		SELECT '` + co + `', lpad(i::text, 24, '0'), '', '', '', 'R' || lpad(i::text, 6, '0'), '', d, 4, 'UN', false, true, '',
			'r' || lpad(i::text, 6, '0'), convert_to('r' || lpad(i::text, 6, '0'), 'UTF8'), lower(d), d, 'un', 'un', now(), 0,
			'{MG}', ARRAY[(i % 999 + 1)::text || '.50'], ARRAY[(i % 999 + 1)::text || '.00'], '{0}', '{0}'
		FROM (SELECT i, CASE WHEN i % 10 = 0 THEN 'BLOCO CERAMICO PARA ALVENARIA DE VEDACAO ' ELSE 'CIMENTO PORTLAND CP II-32 ' END || i AS d FROM generate_series(1, 100000) i) x`,
		`CREATE TABLE old_prices (company_id text COLLATE "C" NOT NULL, resource_id text COLLATE "C" NOT NULL, state text COLLATE "C" NOT NULL,
			pnd numeric NOT NULL, pd numeric NOT NULL, pndi numeric NOT NULL, pdi numeric NOT NULL, PRIMARY KEY (company_id, resource_id, state))`,
		`INSERT INTO old_prices SELECT company_id, id, price_states[1], price_pnd[1]::numeric, price_pd[1]::numeric, price_pndi[1]::numeric, price_pdi[1]::numeric FROM resources`,
		`ALTER TABLE resources ADD COLUMN p2 text[]`,
		`UPDATE resources SET p2 = ARRAY[price_states, price_pnd, price_pd, price_pndi, price_pdi]`,
		`VACUUM ANALYZE`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const cols = `r.id, r.company_id, r.user_id, r.department_id, r.group_id, r.code, r.second_code, r.description,
	r.type, r.unit, r.is_sicro, r.status, r.note, r.created_at, r.created_at_ns, r.tags`
	const where = ` FROM resources r WHERE r.company_id = $1 AND r.description_fold LIKE $2 ORDER BY r.code_key DESC, r.code DESC, r.id DESC LIMIT 100`
	stmts := map[string]string{
		"old": `SELECT ` + cols + `, (SELECT array_agg(ARRAY[p.state, p.pnd::text, p.pd::text, p.pndi::text, p.pdi::text])
		FROM old_prices p WHERE p.company_id = r.company_id AND p.resource_id = r.id)` + where,
		"new":  `SELECT ` + cols + `, r.price_states, r.price_pnd, r.price_pd, r.price_pndi, r.price_pdi` + where,
		"none": `SELECT ` + cols + where,
		"2d":   `SELECT ` + cols + `, r.p2` + where,
	}
	pid := conn.PgConn().PID()
	run := func(name string, n int) float64 {
		t0 := ticksOf(t, pid)
		for range n {
			rows, err := conn.Query(ctx, stmts[name], co, "%alvenaria%")
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for rows.Next() {
				k++
			}
			if rows.Err() != nil || k != 100 {
				t.Fatal(rows.Err(), k)
			}
		}
		return float64(ticksOf(t, pid)-t0) * 10000 / float64(n)
	}
	for name := range stmts {
		run(name, 50)
	}
	got := map[string][]float64{}
	for round := 0; round < 5; round++ {
		for _, name := range []string{"old", "new", "2d", "none"} {
			got[name] = append(got[name], run(name, 1000))
		}
	}
	for _, name := range []string{"old", "new", "2d", "none"} {
		v := append([]float64(nil), got[name]...)
		sort.Float64s(v)
		t.Logf("%s: µs per statement %v median %.0f", name, got[name], v[len(v)/2])
	}
	var plan []string
	rows, _ := conn.Query(ctx, `EXPLAIN `+stmts["new"], co, "%alvenaria%")
	for rows.Next() {
		var l string
		rows.Scan(&l)
		plan = append(plan, l)
	}
	t.Log(strings.Join(plan, "\n"))
}
