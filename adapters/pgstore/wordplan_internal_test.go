package pgstore

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

var tctx = context.Background()

// wordPlanDB is a database with one company of 1,600 resources and 300
// companies of 3: beside the large company, a company looks small to the
// planner, as in a service of many companies.
type wordPlanDB struct {
	s    *Store
	conn *pgx.Conn
	big  string
}

func newWordPlanDB(t *testing.T) *wordPlanDB {
	t.Helper()
	s, url := openGroupStore(t, Options{})
	conn, err := pgx.Connect(tctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(tctx) })
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	company := func(name string) string {
		co := &domain.Company{ID: app.NewID(at), Name: name, CreatedAt: at}
		if err := s.Update(tctx, func(tx app.Tx) error { return tx.PutCompany(co) }); err != nil {
			t.Fatal(err)
		}
		return co.ID
	}
	resource := func(co string, i int, desc string) *domain.Resource {
		return &domain.Resource{ID: app.NewID(at), CompanyID: co, Code: fmt.Sprintf("%d.%03d", i%7, i), Description: desc,
			Type: []int{domain.TypeMaterial, domain.TypeLabor}[i%2], Unit: []string{"M2", "UN", "kg"}[i%3],
			Status: i%4 != 0, IsSicro: i%5 == 0,
			Locals: map[string]domain.PriceLine{"SP": {PND: decimal.New(int64(i), -2), PD: decimal.New(int64(i), -2), PNDI: decimal.New(int64(i), -2), PDI: decimal.New(int64(i), -2)}},
			// Some resources share a moment, as an import's do.
			CreatedAt: at.Add(time.Duration(i/10) * time.Second)}
	}
	db := &wordPlanDB{s: s, conn: conn, big: company("Big")}
	err = s.Update(tctx, func(tx app.Tx) error {
		for i := range 1600 {
			desc := fmt.Sprintf("PAREDE %d", i%13)
			switch {
			case i%2 == 0:
				// Descriptions repeat: ties broken by the ID.
				desc = fmt.Sprintf("BLOCO CERÂMICO %d", i%17)
			case i%80 == 1:
				desc = "ALVENARIA DE VEDAÇÃO"
			case i%80 == 3:
				desc = "ALVENARIAS"
			}
			// Tokens of their own make a vocabulary of thousands.
			desc += fmt.Sprintf(" REF%d LOTE%d ITEM%d", i, i, i)
			if err := tx.PutResource(resource(db.big, i, desc)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for c := range 300 {
		co := company(fmt.Sprint("Small ", c))
		err := s.Update(tctx, func(tx app.Tx) error {
			for i := range 3 {
				if err := tx.PutResource(resource(co, i, fmt.Sprintf("BLOCO %d REF%d", i, c))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The statistics of a service of 100,000 companies, where a company
	// looks like a handful of rows.
	if _, err := conn.Exec(tctx, `ALTER TABLE resources ALTER COLUMN company_id SET (n_distinct = 100000)`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(tctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	return db
}

var walkSorts = []app.Order{
	{}, {Field: app.FieldCode}, {Field: app.FieldCode, Desc: true}, {Field: app.FieldDescription}, {Field: app.FieldDescription, Desc: true},
	{Field: app.FieldType}, {Field: app.FieldUnit}, {Field: app.FieldStatus}, {Field: app.FieldIsSicro}, {Field: app.FieldCreatedAt},
}

func wordPage(word string, sort app.Order, offset int) app.Query {
	q := app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: word}}, Offset: offset, Limit: 100}
	if sort.Field != "" {
		q.Sort = []app.Order{sort}
	}
	return q
}

// A one-word page answers the same whichever plans the store chose for
// it: planned for its values (a word not seen yet), its total planned once
// and its page walked (a common word), or its page planned for its values
// (a rare one). Every sort and several pages, both directions where the
// walk takes them, and the sorts the walk leaves to the planner.
func TestWordPlansAnswerTheSame(t *testing.T) {
	db := newWordPlanDB(t)
	sorts := append(walkSorts, app.Order{Field: app.FieldType, Desc: true}, app.Order{Field: app.FieldCreatedAt, Desc: true},
		app.Order{Field: app.FieldStatus, Desc: true})
	type page struct {
		IDs   []string
		Total int
	}
	read := func(q app.Query) page {
		var p page
		err := db.s.View(tctx, func(atx app.Tx) error {
			rs, total, err := atx.Resources(db.big, q)
			for _, r := range rs {
				p.IDs = append(p.IDs, r.ID)
			}
			p.Total = total
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	walked := 0
	for _, word := range []string{"bloco", "CERAMICO", "alvenaria", "vedacao", "parede 1"} {
		for _, sort := range sorts {
			for _, offset := range []int{0, 150, 390, 790} {
				q := wordPage(word, sort, offset)
				db.s.wordPlans = wordPlans{} // not seen: planned for its values
				want := read(q)
				seen, ok := db.s.wordPlans.get(db.big, app.Fold(word))
				s, err := resourceList.compile(db.big, q)
				if err != nil {
					t.Fatal(err)
				}
				if ok && seen.walks(s.end) {
					walked++
				}
				for round := range 2 {
					if got := read(q); !cmp.Equal(got, want) {
						t.Errorf("%q sorted %+v from %d, read %d with %+v: %s", word, sort, offset, round+2, seen, cmp.Diff(want, got))
					}
				}
			}
		}
	}
	// bloco and ceramico, 800 matches of 1,600 (one token each): every
	// page of every walkable sort. vedacao, 20 matches: none (its total
	// planned once, its page for its values); alvenaria, two tokens:
	// none, and planned for its values throughout.
	if want := 2 * len(walkSorts) * 4; walked != want {
		t.Errorf("%d pages walked, want %d", walked, want)
	}
}

// The plans the store sends once per connection are the ones it means,
// whatever company and word they are given: the walk reads the sort's
// index in its order (no sort of the rows, no scan of the table), and the
// total reads the vocabulary through its trigram index, in a service of
// many small companies beside a large one.
func TestWordPlansAreTheWalk(t *testing.T) {
	db := newWordPlanDB(t)
	explain := func(sql string, args ...any) string {
		tx, err := db.conn.Begin(tctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			_ = tx.Rollback(tctx)
			_, _ = db.conn.Exec(tctx, `DEALLOCATE p`)
		}()
		if _, err := tx.Exec(tctx, `SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_sort', 'off', true)`); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(tctx, `PREPARE p AS `+sql); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, co := range []string{db.big, "no such company"} {
			rows, err := tx.Query(tctx, fmt.Sprintf(`EXPLAIN EXECUTE p('%s', '%s')`, co, args[0]))
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var l string
				if err := rows.Scan(&l); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, l)
			}
			if rows.Err() != nil {
				t.Fatal(rows.Err())
			}
		}
		return strings.Join(lines, "\n")
	}
	fullSort := regexp.MustCompile(`(?m)(^|->)\s*Sort\s+\(`)
	for _, sort := range walkSorts {
		s, err := resourceList.compile(db.big, wordPage("bloco", sort, 0))
		if err != nil {
			t.Fatal(err)
		}
		s.total = new(int)
		b := &pgx.Batch{}
		queueWordPage(b, s, wordSeen{n: 800, size: 1600, single: true}, true)
		var page, count string
		for _, q := range b.QueuedQueries {
			switch {
			case strings.Contains(q.SQL, "strpos"):
				page = q.SQL
			case strings.Contains(q.SQL, "list_terms"):
				count = q.SQL
			}
		}
		if page == "" || count == "" {
			t.Fatalf("sorted %+v: no walk or no total among %d statements", sort, len(b.QueuedQueries))
		}
		plan := explain(page, "bloco")
		if fullSort.MatchString(plan) || strings.Contains(plan, "Seq Scan on resources ") || !strings.Contains(plan, "Index Scan") {
			t.Errorf("sorted %+v: the walk's plan is not a walk of an index:\n%s", sort, plan)
		}
		plan = explain(count, "%bloco%")
		if !strings.Contains(plan, "list_terms_token_trgm") || strings.Contains(plan, "list_terms_pkey") {
			t.Errorf("sorted %+v: the total's plan does not read the vocabulary by its trigrams:\n%s", sort, plan)
		}
	}
}

// The store chooses the walk from what the word's last total found, and
// only for the sorts an index gives in their order.
func TestWordPlanChoice(t *testing.T) {
	for _, c := range []struct {
		seen  wordSeen
		end   int
		walks bool
	}{
		{wordSeen{n: 9849, size: 100150, single: true}, 100, true},   // the load script's page
		{wordSeen{n: 104, size: 1000, single: true}, 100, true},      // the same word at 1,000: 961 entries
		{wordSeen{n: 50, size: 100150, single: true}, 100, false},    // a rare word
		{wordSeen{n: 3, size: 900, single: true}, 100, true},         // a small company, read whole
		{wordSeen{n: 20, size: 1600, single: true}, 100, false},      // 1,600 entries for 20 matches
		{wordSeen{n: 9849, size: 100150, single: true}, 5100, false}, // a deep page
		{wordSeen{n: 0, size: 100150, single: true}, 100, false},
		{wordSeen{n: 500, size: 800}, 0, false}, // no limit
	} {
		if got := c.seen.walks(c.end); got != c.walks {
			t.Errorf("%+v ending at %d: walks %v, want %v", c.seen, c.end, got, c.walks)
		}
	}
	for _, c := range []struct {
		sort []app.Order
		want bool
	}{
		{nil, true},
		{[]app.Order{{Field: app.FieldType}}, true},
		{[]app.Order{{Field: app.FieldCode, Desc: true}}, true},
		{[]app.Order{{Field: app.FieldType, Desc: true}}, false},
		{[]app.Order{{Field: app.FieldCreatedAt, Desc: true}}, false},
		{[]app.Order{{Field: app.FieldType}, {Field: app.FieldCode}}, false},
	} {
		if got := walkable(c.sort); got != c.want {
			t.Errorf("walkable(%+v) = %v, want %v", c.sort, got, c.want)
		}
	}
	var p wordPlans
	for i := range maxWordPlans + 10 {
		p.note("co", fmt.Sprint(i), wordSeen{n: i})
	}
	if len(p.m) != maxWordPlans {
		t.Errorf("%d words kept, want at most %d", len(p.m), maxWordPlans)
	}
	if w, ok := p.get("co", fmt.Sprint(maxWordPlans+9)); !ok || w.n != maxWordPlans+9 {
		t.Errorf("the last word noted: %+v, %v", w, ok)
	}
}
