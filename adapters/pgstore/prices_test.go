package pgstore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// databaseAt is a new database at schema version v (its migrations up to
// v applied as costdb applies them), and a connection to it.
func databaseAt(t *testing.T, v int) (string, *pgx.Conn) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(bg) })
	if _, err := conn.Exec(bg, `CREATE TABLE schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("migrations/*.sql")
	sort.Strings(files)
	for _, f := range files {
		name := filepath.Base(f)
		n, _ := strconv.Atoi(name[:4])
		if n > v {
			break
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(bg, string(b)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := conn.Exec(bg, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, n, name); err != nil {
			t.Fatal(err)
		}
	}
	return url, conn
}

// priceTexts are the decimals the prices of TestPricesMovedOnUpgrade take:
// small and large scales, trailing zeros, zero, negative, and a positive
// exponent (1E+3, which numeric keeps as 1000).
var priceTexts = []decimal.Decimal{
	domain.Dec("0.0001"), domain.Dec("123456789.123456"), domain.Dec("10.50"), domain.Dec("0"), domain.Dec("0.00"),
	domain.Dec("-1.5"), decimal.New(1, 3), domain.Dec("99999999999999999999.99999999999999999999"),
}

// A database at schema 17 (a resource's prices in resource_prices, one
// row per state) gets them in the resource's row when this costdb opens
// it: each resource reads back with the same prices (none, one state,
// several), the states it is priced in select it, and the prices a put
// writes from there are the ones the migration wrote.
func TestPricesMovedOnUpgrade(t *testing.T) {
	url, conn := databaseAt(t, 17)
	const coA, coB = "c0000000000000000000000a", "c0000000000000000000000b"
	line := func(i int) domain.PriceLine {
		n := len(priceTexts)
		return domain.PriceLine{PND: priceTexts[i%n], PD: priceTexts[(i+1)%n], PNDI: priceTexts[(i+2)%n], PDI: priceTexts[(i+3)%n]}
	}
	type res struct {
		company, id string
		locals      map[string]domain.PriceLine
	}
	rs := []res{
		{coA, "r00000000000000000000000", nil},
		{coA, "r00000000000000000000001", map[string]domain.PriceLine{"MG": line(0)}},
		{coA, "r00000000000000000000002", map[string]domain.PriceLine{"SP": line(1), "BA": line(2), "MG": line(3), "AC": line(4), "TO": line(5)}},
		{coA, "r00000000000000000000003", map[string]domain.PriceLine{"RJ": line(6), "DF": line(7)}},
		{coB, "r00000000000000000000004", map[string]domain.PriceLine{"SP": line(2)}},
	}
	// The rows as a costdb of schema 17 wrote them.
	numeric := func(d decimal.Decimal) pgtype.Numeric {
		return pgtype.Numeric{Int: d.Coefficient(), Exp: d.Exponent(), Valid: true}
	}
	for i, r := range rs {
		code := fmt.Sprintf("R%d", i)
		if _, err := conn.Exec(bg, `INSERT INTO resources (company_id, id, user_id, department_id, group_id, code, second_code, description,
			type, unit, is_sicro, status, note, code_fold, code_key, description_fold, description_ci, unit_fold, unit_ci, created_at, created_at_ns)
			VALUES ($1, $2, '', '', '', $3, '', 'INSUMO', 1, 'UN', false, true, '', $4, $5, 'insumo', 'INSUMO', 'un', 'un', now(), 0)`,
			r.company, r.id, code, app.Fold(code), app.CodeKey(app.Fold(code))); err != nil {
			t.Fatal(err)
		}
		for st, p := range r.locals {
			if _, err := conn.Exec(bg, `INSERT INTO resource_prices (company_id, resource_id, state, pnd, pd, pndi, pdi) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				r.company, r.id, st, numeric(p.PND), numeric(p.PD), numeric(p.PNDI), numeric(p.PDI)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// What a costdb of schema 17 read: numeric's text of each price.
	want := map[string]map[string][4]string{}
	for _, r := range rs {
		want[r.id] = map[string][4]string{}
	}
	rows, _ := conn.Query(bg, `SELECT resource_id, state, pnd::text, pd::text, pndi::text, pdi::text FROM resource_prices`)
	for rows.Next() {
		var id, st string
		var p [4]string
		if err := rows.Scan(&id, &st, &p[0], &p[1], &p[2], &p[3]); err != nil {
			t.Fatal(err)
		}
		want[id][st] = p
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}

	st := openURL(t, url, pgstore.Options{})
	exact := func(d decimal.Decimal) string {
		return d.Coefficient().String() + "e" + strconv.Itoa(int(d.Exponent()))
	}
	check := func(when string) {
		t.Helper()
		err := st.View(bg, func(tx app.Tx) error {
			for _, r := range rs {
				v, err := tx.Resource(r.id)
				if err != nil {
					return err
				}
				if v.Locals == nil {
					t.Errorf("%s: %s: nil prices, want a map", when, r.id)
				}
				if len(v.Locals) != len(want[r.id]) {
					t.Errorf("%s: %s: %d states %v, want %d", when, r.id, len(v.Locals), v.Locals, len(want[r.id]))
				}
				for s, w := range want[r.id] {
					p, ok := v.Locals[s]
					if !ok {
						t.Errorf("%s: %s: no prices in %s", when, r.id, s)
						continue
					}
					g := r.locals[s]
					given := []decimal.Decimal{g.PND, g.PD, g.PNDI, g.PDI}
					for i, d := range []decimal.Decimal{p.PND, p.PD, p.PNDI, p.PDI} {
						// The decimal schema 17 read back, digit for digit
						// and scale for scale, and the one put.
						if wd := domain.Dec(w[i]); exact(d) != exact(wd) || !d.Equal(given[i]) {
							t.Errorf("%s: %s %s price %d: %s, want %s (%s put)", when, r.id, s, i, exact(d), exact(wd), given[i])
						}
					}
				}
			}
			for _, c := range []struct {
				company, state string
				ids            []string
			}{
				{coA, "MG", []string{rs[1].id, rs[2].id}},
				{coA, "SP", []string{rs[2].id}},
				{coA, "DF", []string{rs[3].id}},
				{coA, "PR", nil},
				{coB, "SP", []string{rs[4].id}},
				{coB, "MG", nil},
			} {
				page, total, err := tx.Resources(c.company, app.Query{Where: []app.Cond{{Op: app.PricedIn, Text: c.state}}, Sort: []app.Order{{Field: app.FieldCode}}})
				if err != nil {
					return err
				}
				var got []string
				for _, v := range page {
					got = append(got, v.ID)
				}
				if fmt.Sprint(got) != fmt.Sprint(c.ids) || total != len(c.ids) {
					t.Errorf("%s: %s priced in %s: %v (total %d), want %v", when, c.company, c.state, got, total, c.ids)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check("after the upgrade")

	// The arrays the migration wrote are the ones a put writes.
	arrays := func() map[string]string {
		out := map[string]string{}
		rows, _ := conn.Query(bg, `SELECT id, price_states::text || price_pnd::text || price_pd::text || price_pndi::text || price_pdi::text FROM resources`)
		for rows.Next() {
			var id, a string
			if err := rows.Scan(&id, &a); err != nil {
				t.Fatal(err)
			}
			out[id] = a
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	migrated := arrays()
	var stored []*domain.Resource
	err := st.View(bg, func(tx app.Tx) error {
		for _, r := range rs {
			v, err := tx.Resource(r.id)
			if err != nil {
				return err
			}
			v.Locals = r.locals // as given, not as read back
			stored = append(stored, v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []bool{false, true} {
		err = st.Update(bg, func(tx app.Tx) error {
			for _, v := range stored {
				if err := tx.DeleteResource(v.ID); err != nil {
					return err
				}
			}
			put := func() error {
				for _, v := range stored {
					if err := tx.PutResource(v); err != nil {
						return err
					}
				}
				return nil
			}
			if batch { // the COPY of an import
				return tx.(app.BatchTx).Batch(put)
			}
			return put()
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := arrays(); fmt.Sprint(got) != fmt.Sprint(migrated) {
			t.Errorf("written by a put (batch %v):\n%v\nby the migration:\n%v", batch, got, migrated)
		}
		check(fmt.Sprintf("put again (batch %v)", batch))
	}
}
