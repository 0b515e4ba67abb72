package pgstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// The delta put of a composition (compdelta.go) leaves exactly the rows the
// full put leaves: each test below changes a composition through the delta
// (deltaSide, in company co1) and its twin through the full put (fullSide,
// in company co2, never read before its put), and compares their rows but
// for the columns that name them (company, ID, stamp).

// storedRows is what the database keeps of composition id: its row, its
// banks' and its items' rows, as JSON (numeric keeps its scale), and its
// stamp.
type storedRows struct {
	row, banks, items string
	stamp             int64
}

func storedOf(t *testing.T, conn *pgx.Conn, id string) storedRows {
	t.Helper()
	var r storedRows
	err := conn.QueryRow(context.Background(), `SELECT
		(SELECT (to_jsonb(r) - 'id' - 'company_id' - 'stamp')::text FROM compositions r WHERE id = $1),
		(SELECT coalesce(jsonb_agg(to_jsonb(x) - 'company_id' - 'composition_id' ORDER BY pos), '[]')::text FROM composition_banks x WHERE composition_id = $1),
		(SELECT coalesce(jsonb_agg(to_jsonb(x) - 'company_id' - 'composition_id' ORDER BY pos), '[]')::text FROM composition_items x WHERE composition_id = $1),
		(SELECT stamp FROM compositions WHERE id = $1)`, id).Scan(&r.row, &r.banks, &r.items, &r.stamp)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sameRows fails the test when the delta's rows are not the full put's.
func sameRows(t *testing.T, step string, delta, full storedRows) {
	t.Helper()
	if delta.row != full.row {
		t.Errorf("%s: composition row\ndelta %s\nfull  %s", step, delta.row, full.row)
	}
	if delta.banks != full.banks {
		t.Errorf("%s: bank rows\ndelta %s\nfull  %s", step, delta.banks, full.banks)
	}
	if delta.items != full.items {
		t.Errorf("%s: item rows\ndelta %s\nfull  %s", step, delta.items, full.items)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func deltaComposition(id, company string) *domain.Composition {
	yes := true
	return &domain.Composition{
		ID: id, CompanyID: company, UserID: "us1", DepartmentID: "de1", Code: "C-1", SecondCode: "S", Description: "Alvenaria de vedação",
		Type: "PARE", Unit: "M2", State: "SP", Rounding: domain.Truncate4, Note: "nota", Tags: []string{"a"},
		TeamProduction: dec("12.5"), FIC: dec("0.0123456"), LaborAddition: dec("15.5"),
		Banks: []domain.BankRef{{Name: "SINAPI", State: "SP", Month: "08/2026", Report: true, WithLaborCharges: &yes}},
		Items: []domain.Item{
			{Bank: "SINAPI", Code: "00001", Kind: domain.KindResource, Quantity: dec("0.0000001")},
			{Bank: domain.BankMyBase, Code: "R-1", Kind: domain.KindResource, Quantity: dec("2.50"), Utilization: decimal.NewNullDecimal(dec("0.75"))},
		},
		CreatedAt: time.Date(2026, 3, 4, 5, 6, 7, 891234567, time.UTC),
	}
}

// openDeltaStore opens a store with companies co1 and co2 and the
// composition cpD (co1) and its twin cpF (co2); conn reads its rows.
func openDeltaStore(t *testing.T, opts Options) (*Store, *pgx.Conn) {
	t.Helper()
	s, url := openGroupStore(t, opts)
	if err := s.Update(context.Background(), func(tx app.Tx) error {
		for _, co := range []string{"co1", "co2"} {
			if err := tx.PutCompany(&domain.Company{ID: co, Name: co, CreatedAt: time.Now()}); err != nil {
				return err
			}
		}
		if err := tx.PutComposition(deltaComposition("cpD", "co1")); err != nil {
			return err
		}
		return tx.PutComposition(deltaComposition("cpF", "co2"))
	}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return s, conn
}

// deltaPutsIn counts the delta puts fn makes.
func deltaPutsIn(fn func()) int64 {
	before := deltaPuts.Load()
	fn()
	return deltaPuts.Load() - before
}

// changes are the changes the tests make, in turn, to both twins.
var changes = []struct {
	name   string
	change func(c *domain.Composition)
	delta  bool // whether the delta is taken (not the full put)
}{
	{"add an item", func(c *domain.Composition) {
		c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: "00002", Kind: domain.KindResource, Quantity: dec("3")})
	}, true},
	{"add three items", func(c *domain.Composition) {
		for _, code := range []string{"00003", "00004", "C-9"} {
			c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: code, Kind: domain.KindComposition, Quantity: dec("1.000")})
		}
	}, true},
	{"set a quantity to the same value in another scale", func(c *domain.Composition) { c.Items[1].Quantity = dec("2.5") }, true},
	{"set a utilization", func(c *domain.Composition) { c.Items[2].Utilization = decimal.NewNullDecimal(dec("0.5")) }, true},
	{"clear a utilization", func(c *domain.Composition) { c.Items[1].Utilization = decimal.NullDecimal{} }, true},
	{"remove a middle item", func(c *domain.Composition) { c.Items = append(c.Items[:1], c.Items[2:]...) }, true},
	{"remove the last item", func(c *domain.Composition) { c.Items = c.Items[:len(c.Items)-1] }, true},
	{"change the description and tags", func(c *domain.Composition) {
		c.Description, c.Tags = "Concreto usinado", []string{"b", "a"}
	}, true},
	{"add and change banks", func(c *domain.Composition) {
		c.Banks = append(c.Banks, domain.BankRef{Name: "SICRO3", State: "AL", Month: "01/2024", AskedRegion: "MACEIO"})
		c.Banks[0].Month = "09/2026"
	}, true},
	{"remove a bank, set own charges and rounding", func(c *domain.Composition) {
		c.Banks = c.Banks[1:]
		c.LabourCharges, c.Rounding = decimal.NewNullDecimal(dec("88.5")), domain.RoundHalfUp2
	}, true},
	{"empty lists", func(c *domain.Composition) { c.Banks, c.Items = []domain.BankRef{}, []domain.Item{} }, true},
	{"no lists", func(c *domain.Composition) { c.Banks, c.Items = nil, nil }, true},
	{"items again", func(c *domain.Composition) {
		c.Items = []domain.Item{{Bank: "SINAPI", Code: "00001", Kind: domain.KindResource, Quantity: dec("7")}}
	}, true},
	{"another code (the general path)", func(c *domain.Composition) { c.Code = "C-2" }, false},
	{"add an item after", func(c *domain.Composition) {
		c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: "00009", Kind: domain.KindResource, Quantity: dec("1")})
	}, true},
}

// TestDeltaPutSameRows puts each change through the delta (the composition
// read in the write transaction, as a change use case does) and through
// the full put, and compares the rows after each.
func TestDeltaPutSameRows(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	bg := context.Background()
	full := deltaComposition("cpF", "co2")
	for _, ch := range changes {
		before := storedOf(t, conn, "cpD")
		n := deltaPutsIn(func() {
			if err := s.Update(bg, func(tx app.Tx) error {
				c, err := tx.Composition("cpD")
				if err != nil {
					return err
				}
				ch.change(c)
				return tx.PutComposition(c)
			}); err != nil {
				t.Fatalf("%s: %v", ch.name, err)
			}
		})
		if want := map[bool]int64{true: 1, false: 0}[ch.delta]; n != want {
			t.Errorf("%s: %d delta puts, want %d", ch.name, n, want)
		}
		ch.change(full)
		if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(full) }); err != nil {
			t.Fatalf("%s (full): %v", ch.name, err)
		}
		after := storedOf(t, conn, "cpD")
		if after.stamp == before.stamp {
			t.Errorf("%s: the stamp stayed %d", ch.name, after.stamp)
		}
		sameRows(t, ch.name, after, storedOf(t, conn, "cpF"))
	}
	// What a read answers is the same too.
	if err := s.View(bg, func(tx app.Tx) error {
		d, err := tx.Composition("cpD")
		if err != nil {
			return err
		}
		f, err := tx.Composition("cpF")
		if err != nil {
			return err
		}
		d.ID, d.CompanyID = f.ID, f.CompanyID
		if fmt.Sprintf("%+v", d) != fmt.Sprintf("%+v", f) {
			t.Errorf("read back: delta %+v\nfull %+v", d, f)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The list counts are the full put's: one composition in each company.
	var n1, n2 int
	if err := conn.QueryRow(bg, `SELECT
		(SELECT sum(n) FROM list_counts WHERE company_id = 'co1' AND list = 'compositions'),
		(SELECT sum(n) FROM list_counts WHERE company_id = 'co2' AND list = 'compositions')`).Scan(&n1, &n2); err != nil {
		t.Fatal(err)
	}
	if n1 != 1 || n2 != 1 {
		t.Errorf("list counts %d and %d, want 1 and 1", n1, n2)
	}
}

// TestDeltaPutWritesOnlyChanges checks that adding an item leaves the
// rows of the other items as they were (the same row versions), and that
// the composition's row keeps its unchanged columns' index entries (the
// update is HOT-eligible: only the stamp changed).
func TestDeltaPutWritesOnlyChanges(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	bg := context.Background()
	versions := func() (items, banks string) {
		if err := conn.QueryRow(bg, `SELECT
			(SELECT string_agg(xmin::text || ctid::text, ',' ORDER BY pos) FROM composition_items WHERE composition_id = 'cpD'),
			(SELECT string_agg(xmin::text || ctid::text, ',' ORDER BY pos) FROM composition_banks WHERE composition_id = 'cpD')`).Scan(&items, &banks); err != nil {
			t.Fatal(err)
		}
		return items, banks
	}
	items, banks := versions()
	if err := s.Update(bg, func(tx app.Tx) error {
		c, err := tx.Composition("cpD")
		if err != nil {
			return err
		}
		changes[0].change(c)
		return tx.PutComposition(c)
	}); err != nil {
		t.Fatal(err)
	}
	items2, banks2 := versions()
	if banks2 != banks {
		t.Errorf("bank rows rewritten: %s, then %s", banks, banks2)
	}
	if len(items2) <= len(items) || items2[:len(items)] != items {
		t.Errorf("item rows rewritten: %s, then %s", items, items2)
	}
}

// TestDeltaPutOver checks the put over a base handed with its stamp
// (app.CompositionBasePutter, the prepared write's): taken only when the
// transaction checked that stamp; a guessed stamp that was stale runs the
// fn again, which then writes nothing over the stale base; an unchecked
// base, even a wrong one, is ignored (the full put).
func TestDeltaPutOver(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	bg := context.Background()
	read := func() (*domain.Composition, []byte) {
		var c *domain.Composition
		var st []byte
		if err := s.View(bg, func(tx app.Tx) error {
			var err error
			if c, err = tx.Composition("cpD"); err != nil {
				return err
			}
			st, err = tx.(app.CompositionStamper).CompositionStamp("cpD")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return c, st
	}
	full := deltaComposition("cpF", "co2")
	putFull := func() {
		if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(full) }); err != nil {
			t.Fatal(err)
		}
	}
	// Checked: the delta.
	base, stamp := read()
	c := base.Clone()
	changes[0].change(c)
	changes[0].change(full)
	runs := 0
	n := deltaPutsIn(func() {
		if err := s.Update(bg, func(tx app.Tx) error {
			runs++
			if ok, err := tx.(app.CompositionStamper).CompositionStamped("cpD", stamp); err != nil || !ok {
				return fmt.Errorf("stamped %v, %v", ok, err)
			}
			return tx.(app.CompositionBasePutter).PutCompositionOver(base, stamp, c)
		}); err != nil {
			t.Fatal(err)
		}
	})
	putFull()
	if n != 1 || runs != 1 {
		t.Errorf("checked base: %d delta puts in %d runs, want 1 in 1", n, runs)
	}
	sameRows(t, "over a checked base", storedOf(t, conn, "cpD"), storedOf(t, conn, "cpF"))

	// Stale: the stamp guessed is not the stored one any more. The fn
	// runs again, answered no, and puts nothing.
	staleBase, staleStamp := base, stamp
	runs = 0
	var answers []bool
	if err := s.Update(bg, func(tx app.Tx) error {
		runs++
		ok, err := tx.(app.CompositionStamper).CompositionStamped("cpD", staleStamp)
		if err != nil {
			return err
		}
		answers = append(answers, ok)
		if !ok {
			return nil
		}
		wrong := staleBase.Clone()
		wrong.Description = "never stored"
		return tx.(app.CompositionBasePutter).PutCompositionOver(staleBase, staleStamp, wrong)
	}); err != nil {
		t.Fatal(err)
	}
	if runs != 2 || len(answers) != 2 || !answers[0] || answers[1] {
		t.Errorf("stale stamp: %d runs answered %v, want a guessed yes, then no", runs, answers)
	}
	sameRows(t, "after a stale base", storedOf(t, conn, "cpD"), storedOf(t, conn, "cpF"))

	// Unchecked: a base that lies (it lacks the items added) and a stamp
	// never checked in the transaction: the full put, whatever base says.
	cur, curStamp := read()
	liar := staleBase.Clone()
	liar.Items = liar.Items[:1]
	c = cur.Clone()
	changes[1].change(c)
	changes[1].change(full)
	n = deltaPutsIn(func() {
		if err := s.Update(bg, func(tx app.Tx) error {
			return tx.(app.CompositionBasePutter).PutCompositionOver(liar, curStamp, c)
		}); err != nil {
			t.Fatal(err)
		}
	})
	putFull()
	if n != 0 {
		t.Errorf("unchecked base: %d delta puts, want the full put", n)
	}
	sameRows(t, "over an unchecked base", storedOf(t, conn, "cpD"), storedOf(t, conn, "cpF"))
}

// TestDeltaPutRetry checks that a delta whose base another connection
// changed after the transaction read it is not written: the transaction
// fails with a serialization failure and runs again, and the delta then
// is against what the other connection stored. The other connection
// writes as a put does (the stamp drawn again), then, bypassing the
// stamp, only an item row at the position the delta inserts.
func TestDeltaPutRetry(t *testing.T) {
	var retries atomic.Int64
	s, conn := openDeltaStore(t, Options{OnRetry: func(int, error) { retries.Add(1) }})
	bg := context.Background()
	full := deltaComposition("cpF", "co2")
	for _, other := range []struct {
		name string
		sql  []string
		then func(c *domain.Composition)
	}{
		{"a put", []string{
			`UPDATE compositions SET stamp = nextval('composition_stamps'), description = 'other',
				description_fold = 'other', description_ci = 'OTHER' WHERE id = 'cpD'`,
			`UPDATE composition_items SET quantity = 9 WHERE composition_id = 'cpD' AND pos = 0`},
			func(c *domain.Composition) { c.Description, c.Items[0].Quantity = "other", dec("9") }},
		{"an item row alone", []string{
			`INSERT INTO composition_items (company_id, composition_id, pos, bank, code, kind, quantity)
				SELECT 'co1', 'cpD', count(*), 'SINAPI', '00077', 'resource', 4 FROM composition_items WHERE composition_id = 'cpD'`},
			func(c *domain.Composition) {
				c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: "00077", Kind: domain.KindResource, Quantity: dec("4")})
			}},
	} {
		runs, before := 0, retries.Load()
		if err := s.Update(bg, func(tx app.Tx) error {
			runs++
			c, err := tx.Composition("cpD")
			if err != nil {
				return err
			}
			if runs == 1 {
				// After this transaction read the composition.
				for _, q := range other.sql {
					if _, err := conn.Exec(bg, q); err != nil {
						t.Error(err)
					}
				}
			}
			changes[0].change(c)
			return tx.PutComposition(c)
		}); err != nil {
			t.Fatalf("%s: %v", other.name, err)
		}
		if runs != 2 || retries.Load() == before {
			t.Fatalf("%s: %d runs, %d retries: want the first aborted", other.name, runs, retries.Load()-before)
		}
		other.then(full)
		changes[0].change(full)
		if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(full) }); err != nil {
			t.Fatal(err)
		}
		sameRows(t, "after the retry over "+other.name, storedOf(t, conn, "cpD"), storedOf(t, conn, "cpF"))
	}
}

// TestDeltaPutConcurrentPrepared runs concurrent prepared add_items-like
// writes (app/storecache's UpdatePrepared, whose put goes over the base
// its snapshot read) to one composition, in groups and alone: every item
// is added exactly once, some puts were deltas, and the rows are the full
// put's of the final composition.
func TestDeltaPutConcurrentPrepared(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	cs := storecache.New(s)
	bg := context.Background()
	const writers, each = 6, 8
	before := deltaPuts.Load()
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				code := fmt.Sprintf("W%d-%02d", w, i)
				errs <- cs.UpdatePrepared(bg, func(tx app.Tx) error {
					c, err := tx.Composition("cpD")
					if err != nil {
						return err
					}
					c.Items = append(c.Items, domain.Item{Bank: domain.BankMyBase, Code: code, Kind: domain.KindResource, Quantity: dec("1.5")})
					return tx.PutComposition(c)
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if deltaPuts.Load() == before {
		t.Error("no put was a delta")
	}
	var final *domain.Composition
	if err := s.View(bg, func(tx app.Tx) error {
		var err error
		final, err = tx.Composition("cpD")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, it := range final.Items {
		seen[it.Code]++
	}
	for w := range writers {
		for i := range each {
			if code := fmt.Sprintf("W%d-%02d", w, i); seen[code] != 1 {
				t.Errorf("item %s stored %d times", code, seen[code])
			}
		}
	}
	if len(final.Items) != 2+writers*each {
		t.Errorf("%d items, want %d", len(final.Items), 2+writers*each)
	}
	full := final.Clone()
	full.ID, full.CompanyID = "cpF", "co2"
	if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(full) }); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "after concurrent writers", storedOf(t, conn, "cpD"), storedOf(t, conn, "cpF"))
}

// TestDeltaSame checks the comparison the delta rests on: a value is the
// same only when it is stored alike (a decimal's scale included).
func TestDeltaSame(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		a, b any
		want bool
	}{
		{"a", "a", true}, {"a", "b", false}, {1, 1, true}, {1, int32(1), false},
		{num(dec("2.5")), num(dec("2.5")), true}, {num(dec("2.5")), num(dec("2.50")), false},
		{optNum(decimal.NullDecimal{}), optNum(decimal.NullDecimal{}), true},
		{optNum(decimal.NullDecimal{}), num(dec("0")), false},
		{&yes, &yes, true}, {&yes, &no, false}, {(*bool)(nil), &no, false}, {(*bool)(nil), (*bool)(nil), true},
		{[]string{"a"}, []string{"a"}, true}, {[]string{}, []string(nil), true}, {[]string{"a"}, []string{"b"}, false},
		{[]byte{1}, []byte{1}, true}, {[]byte{1}, []byte{2}, false},
		{time.Unix(5, 0), time.Unix(5, 0).UTC(), true}, {time.Unix(5, 0), time.Unix(6, 0), false},
		{struct{}{}, struct{}{}, false}, // unknown: written
	}
	for i, c := range cases {
		if got := same(c.a, c.b); got != c.want {
			t.Errorf("case %d: same(%v, %v) = %v", i, c.a, c.b, got)
		}
	}
}

// BenchmarkCompositionPut measures a change of a stored composition of 20
// items that adds one (add_items' write), through the delta and through
// the full put, each in its own write transaction that reads the
// composition first (the same round trips: the read, the put, the
// commit). The difference is the database's work for the put.
//
//	go test ./adapters/pgstore -run '^$' -bench BenchmarkCompositionPut -benchtime 400x -count 3
func BenchmarkCompositionPut(b *testing.B) {
	for _, delta := range []bool{false, true} {
		b.Run(map[bool]string{false: "full", true: "delta"}[delta], func(b *testing.B) {
			s, _ := openGroupStore(b, Options{})
			bg := context.Background()
			const comps = 200
			if err := s.Update(bg, func(tx app.Tx) error {
				if err := tx.PutCompany(&domain.Company{ID: "co1", Name: "co1", CreatedAt: time.Now()}); err != nil {
					return err
				}
				for i := range comps {
					c := deltaComposition(fmt.Sprintf("cp%03d", i), "co1")
					c.Code = fmt.Sprintf("C-%03d", i)
					for j := 2; j < 20; j++ {
						c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: fmt.Sprintf("%05d", j), Kind: domain.KindResource, Quantity: dec("1.25")})
					}
					if err := tx.PutComposition(c); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := range b.N {
				id := fmt.Sprintf("cp%03d", i%comps)
				if err := s.Update(bg, func(atx app.Tx) error {
					c, err := atx.Composition(id)
					if err != nil {
						return err
					}
					c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: fmt.Sprintf("X%06d", i), Kind: domain.KindResource, Quantity: dec("2")})
					t := atx.(*tx)
					if delta {
						return t.PutComposition(c)
					}
					return t.putComposition(c, nil)
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGroupDeferredDelta checks the grouped delta puts: a group of
// prepared writes (a guessed stamp, then the put over the base) sends its
// checks and deltas with its COMMIT, in one round trip for the whole
// group, and the rows are the full put's.
func TestGroupDeferredDelta(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	bg := context.Background()
	ids := []string{"g1", "g2", "g3", "g4"}
	if err := s.Update(bg, func(tx app.Tx) error {
		for i, id := range ids {
			c := deltaComposition(id, "co1")
			c.Code = fmt.Sprintf("G-%d", i)
			if err := tx.PutComposition(c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	full := deltaComposition("cpF", "co2")
	for round := range 2 {
		bases := map[string]*domain.Composition{}
		stamps := map[string][]byte{}
		if err := s.View(bg, func(tx app.Tx) error {
			for _, id := range ids {
				c, err := tx.Composition(id)
				if err != nil {
					return err
				}
				if stamps[id], err = tx.(app.CompositionStamper).CompositionStamp(id); err != nil {
					return err
				}
				bases[id] = c
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var fns []func(app.Tx) error
		for _, id := range ids {
			fns = append(fns, func(tx app.Tx) error {
				if ok, err := tx.(app.CompositionStamper).CompositionStamped(id, stamps[id]); err != nil || !ok {
					return fmt.Errorf("stamped %v, %v", ok, err)
				}
				c := bases[id].Clone()
				changes[round].change(c)
				return tx.(app.CompositionBasePutter).PutCompositionOver(bases[id], stamps[id], c)
			})
		}
		before, deltas := s.RoundTrips(), deltaPuts.Load()
		for i, err := range group(t, s, nil, fns...) {
			if err != nil {
				t.Fatalf("round %d, Update %d: %v", round, i, err)
			}
		}
		trips := s.RoundTrips().Sub(before).Waited
		if n := deltaPuts.Load() - deltas; n != int64(len(ids)) {
			t.Errorf("round %d: %d delta puts, want %d", round, n, len(ids))
		}
		// The first round prepares the statements on the connection and
		// draws stamps ahead; the second is the group's COMMIT alone.
		if round == 1 && trips != 1 {
			t.Errorf("a group of %d deferred deltas: %d round trips, want 1", len(ids), trips)
		}
		changes[round].change(full)
		if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(full) }); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			d, f := storedOf(t, conn, id), storedOf(t, conn, "cpF")
			if d.stamp == 0 || d.stamp == int64(binary.BigEndian.Uint64(stamps[id])) {
				t.Errorf("round %d: %s has stamp %d, read %x before", round, id, d.stamp, stamps[id])
			}
			// The code is each one's own.
			d.row, f.row = withoutCode(t, d.row), withoutCode(t, f.row)
			sameRows(t, fmt.Sprintf("round %d, %s", round, id), d, f)
		}
	}
}

// withoutCode is a composition row's JSON without its code's columns.
func withoutCode(t *testing.T, row string) string {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(row))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	delete(m, "code")
	delete(m, "code_fold")
	delete(m, "code_key")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestGroupDeferredMisguess checks a wrong guess of a grouped delta, whose
// check is sent after its fn ended: with a later fn's statement, or with
// the COMMIT. The transaction fails, nothing is written over the stale
// base, and the group runs again without guessing: the misguessing fn is
// answered no, and every fn's effect is there once.
func TestGroupDeferredMisguess(t *testing.T) {
	s, conn := openDeltaStore(t, Options{})
	bg := context.Background()
	for _, v := range []struct {
		name string
		read bool // whether the later fn reads (sending the check)
	}{{"checked with a later fn's read", true}, {"checked with the COMMIT", false}} {
		var stale []byte
		var base *domain.Composition
		if err := s.View(bg, func(tx app.Tx) error {
			var err error
			if base, err = tx.Composition("cpD"); err != nil {
				return err
			}
			stale, err = tx.(app.CompositionStamper).CompositionStamp("cpD")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		// Another put: the stamp read is stale.
		if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(base.Clone()) }); err != nil {
			t.Fatal(err)
		}
		stored := storedOf(t, conn, "cpD")
		fallback, other := "fb "+v.name, "other "+v.name
		var runsA, runsB int
		var answers []bool
		errs := group(t, s, nil,
			func(tx app.Tx) error {
				runsA++
				ok, err := tx.(app.CompositionStamper).CompositionStamped("cpD", stale)
				if err != nil {
					return err
				}
				answers = append(answers, ok)
				if !ok {
					return tx.PutSetting(fallback, []byte("1"))
				}
				c := base.Clone()
				c.Description = "never stored"
				return tx.(app.CompositionBasePutter).PutCompositionOver(base, stale, c)
			},
			func(tx app.Tx) error {
				runsB++
				if v.read {
					if _, err := tx.Composition("cpF"); err != nil {
						return err
					}
				}
				return tx.PutSetting(other, []byte("1"))
			})
		for i, err := range errs {
			if err != nil {
				t.Errorf("%s: Update %d: %v", v.name, i, err)
			}
		}
		if runsA != 2 || runsB != 2 || len(answers) != 2 || !answers[0] || answers[1] {
			t.Errorf("%s: runs %d and %d, answers %v: want the group run again, the guess then answered no", v.name, runsA, runsB, answers)
		}
		if string(setting(t, s, fallback)) != "1" || string(setting(t, s, other)) != "1" {
			t.Errorf("%s: the fns' effects are not there once", v.name)
		}
		after := storedOf(t, conn, "cpD")
		sameRows(t, v.name, after, stored)
		if after.stamp != stored.stamp {
			t.Errorf("%s: the composition was written over a stale base", v.name)
		}
	}
}
