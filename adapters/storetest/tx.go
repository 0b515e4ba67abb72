package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// seeded stores the world and returns a dump of it.
func seeded(t *testing.T, s app.Store) map[string]any {
	t.Helper()
	update(t, s, newWorld().put)
	d, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// unchanged fails the test when the store no longer dumps as before.
func unchanged(t *testing.T, s app.Store, before map[string]any) {
	t.Helper()
	after, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "store after the failed transaction", before, after)
}

func testReadYourWrites(t *testing.T, s app.Store) {
	update(t, s, newWorld().put)
	update(t, s, func(tx app.Tx) error {
		if err := mutate(tx); err != nil {
			return err
		}
		r3 := newResource(reA3, coA, "R-3")
		r1 := newResource(reA1, coA, "R-1X")
		checks := []lookup{
			{name: "Setting", get: func(tx app.Tx) (any, error) { return tx.Setting("counter") }, want: []byte("8")},
			{name: "CompanyByName(new)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Gama") }, want: newCompany(coC, "Construtora Gama")},
			{name: "CompanyByName(old)", get: func(tx app.Tx) (any, error) { return tx.CompanyByName("Construtora Alfa") }, code: notFound},
			{name: "UserByEmail(new)", get: func(tx app.Tx) (any, error) { return tx.UserByEmail("ana@alfa2.example") }, want: newUser(usA1, coA, deA1, "ana@alfa2.example")},
			{name: "CountUsers", get: func(tx app.Tx) (any, error) { return tx.CountUsers() }, want: 3},
			{name: "Group(deleted)", get: func(tx app.Tx) (any, error) { return tx.Group(grA2) }, code: notFound},
			{name: "Groups(A)", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: []*domain.Group{newGroup(grA1, coA, "Alvenaria e vedação"), newGroup(grA3, coA, "Coberturas")}},
			{name: "ResourceByCode(new)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1X") }, want: r1},
			{name: "ResourceByCode(old)", get: func(tx app.Tx) (any, error) { return tx.ResourceByCode(coA, "R-1") }, code: notFound},
			{name: "Resources(A)", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{r1, r3}},
			{name: "CompositionByCode(new state)", get: func(tx app.Tx) (any, error) { return tx.CompositionByCode(coA, "C-1", "RJ") }, want: newComposition(cpA1, coA, "C-1", "RJ")},
			{name: "Composition(deleted)", get: func(tx app.Tx) (any, error) { return tx.Composition(cpA2) }, code: notFound},
			{name: "Edition(new)", get: func(tx app.Tx) (any, error) { return tx.Edition(edOrseSE) }, want: newEdition("ORSE", "SE", "01/2025")},
			{name: "BankResource(new)", get: func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00003") }, want: newBankResource("00003", "30.03")},
			{name: "BankComposition(replaced)", get: func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87292") }, want: newBankComposition("87292", "1")},
			{name: "BudgetByCode(new)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1X") }, want: newBudget(buA1, coA, "ORC-1X")},
			{name: "BudgetByCode(old)", get: func(tx app.Tx) (any, error) { return tx.BudgetByCode(coA, "ORC-1") }, code: notFound},
			{name: "Budget(deleted)", get: func(tx app.Tx) (any, error) { return tx.Budget(buA2) }, code: notFound},
			{name: "Budgets(A)", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers(newBudget(buA1, coA, "ORC-1X"), newBudget(buA3, coA, "ORC-3"))},
		}
		for _, l := range checks {
			got, err := l.get(tx)
			if l.code != "" {
				wantCode(t, l.name, err, l.code)
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", l.name, err)
				continue
			}
			diff(t, l.name+" inside the transaction", l.want, got)
		}
		return nil
	})
}

var errAbort = errors.New("storetest: abort")

func testRollbackOnError(t *testing.T, s app.Store) {
	before := seeded(t, s)
	var mutateErr error
	err := s.Update(bg(), func(tx app.Tx) error {
		mutateErr = mutate(tx)
		return errAbort
	})
	if mutateErr != nil {
		t.Fatalf("writes inside the transaction failed: %v", mutateErr)
	}
	if !errors.Is(err, errAbort) {
		t.Errorf("Update returned %v, want the error fn returned", err)
	}
	unchanged(t, s, before)

	// A domain error comes back as it was, code included.
	err = s.Update(bg(), func(tx app.Tx) error {
		if err := tx.PutSetting("counter", []byte("99")); err != nil {
			return err
		}
		return domain.Errorf(domain.ECONFLICT, "no")
	})
	wantCode(t, "Update returning a domain error", err, domain.ECONFLICT)
	unchanged(t, s, before)

	// A write the store refuses (a taken code) is rolled back with the rest
	// when fn returns its error.
	err = s.Update(bg(), func(tx app.Tx) error {
		if err := tx.PutSetting("counter", []byte("100")); err != nil {
			return err
		}
		return tx.PutResource(newResource(reA3, coA, "R-1"))
	})
	wantCode(t, "Update with a taken code", err, domain.ECONFLICT)
	unchanged(t, s, before)
}

func testRollbackOnPanic(t *testing.T, s app.Store) {
	before := seeded(t, s)
	var mutateErr error
	recovered := func() (v any) {
		defer func() { v = recover() }()
		_ = s.Update(bg(), func(tx app.Tx) error {
			mutateErr = mutate(tx)
			panic("storetest: boom")
		})
		return nil
	}()
	if mutateErr != nil {
		t.Fatalf("writes inside the transaction failed: %v", mutateErr)
	}
	if recovered != "storetest: boom" {
		t.Errorf("recovered %v, want the panic of fn to go on after the rollback", recovered)
	}
	unchanged(t, s, before)

	// The store is still usable: the writer lock was released.
	done := make(chan error, 1)
	go func() {
		done <- s.Update(bg(), func(tx app.Tx) error { return tx.PutSetting("after-panic", []byte("ok")) })
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Update after a panic: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Update after a panic did not finish: the writer lock was not released")
	}
	view(t, s, func(tx app.Tx) error {
		v, err := tx.Setting("after-panic")
		if err != nil || string(v) != "ok" {
			t.Errorf("Setting(after-panic) = %q, %v; want ok", v, err)
		}
		return nil
	})
}

func testWritesInsideViewFail(t *testing.T, s app.Store) {
	before := seeded(t, s)
	writes := []struct {
		name  string
		write func(tx app.Tx) error
	}{
		{"PutSetting", func(tx app.Tx) error { return tx.PutSetting("counter", []byte("8")) }},
		{"PutCompany", func(tx app.Tx) error { return tx.PutCompany(newCompany(coC, "Construtora Gama")) }},
		{"PutDepartment", func(tx app.Tx) error { return tx.PutDepartment(newDepartment(deA2, coA, "Obras")) }},
		{"PutUser", func(tx app.Tx) error { return tx.PutUser(newUser(usA2, coA, deA1, "caio@alfa.example")) }},
		{"PutGroup", func(tx app.Tx) error { return tx.PutGroup(newGroup(grA3, coA, "Coberturas")) }},
		{"DeleteGroup", func(tx app.Tx) error { return tx.DeleteGroup(grA1) }},
		{"PutResource", func(tx app.Tx) error { return tx.PutResource(newResource(reA3, coA, "R-3")) }},
		{"DeleteResource", func(tx app.Tx) error { return tx.DeleteResource(reA1) }},
		{"PutComposition", func(tx app.Tx) error { return tx.PutComposition(newComposition(cpA3, coA, "C-3", "MG")) }},
		{"DeleteComposition", func(tx app.Tx) error { return tx.DeleteComposition(cpA1) }},
		{"PutEdition", func(tx app.Tx) error { return tx.PutEdition(newEdition("ORSE", "SE", "01/2025")) }},
		{"PutBankResource", func(tx app.Tx) error { return tx.PutBankResource(edSinapiAug, newBankResource("00003", "1")) }},
		{"PutBankComposition", func(tx app.Tx) error { return tx.PutBankComposition(edSinapiAug, newBankComposition("87293", "1")) }},
		{"PutBudget", func(tx app.Tx) error { return tx.PutBudget(newBudget(buA3, coA, "ORC-3")) }},
		{"DeleteBudget", func(tx app.Tx) error { return tx.DeleteBudget(buA1) }},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			var werr error
			err := s.View(bg(), func(tx app.Tx) error {
				werr = w.write(tx)
				return nil // a careless fn that ignores the error
			})
			if err != nil {
				t.Fatalf("View: %v", err)
			}
			if werr == nil {
				t.Errorf("%s inside View succeeded, want an error", w.name)
			}
		})
	}
	unchanged(t, s, before)
}

// copyCase is one kind of record for testCopies: fresh makes the record,
// put stores it, get reads it back and change alters every part of it that
// could be shared with the store (fields, map entries, slice elements).
type copyCase struct {
	name   string
	fresh  func() any
	put    func(tx app.Tx, v any) error
	get    func(tx app.Tx) (any, error)
	change func(v any)
}

func copyCases() []copyCase {
	return []copyCase{
		{
			name:  "setting",
			fresh: func() any { return []byte("value") },
			put:   func(tx app.Tx, v any) error { return tx.PutSetting("k", v.([]byte)) },
			get:   func(tx app.Tx) (any, error) { return tx.Setting("k") },
			change: func(v any) {
				b := v.([]byte)
				b[0] = 'X'
			},
		},
		{
			name:   "company",
			fresh:  func() any { return newCompany(coA, "Construtora Alfa") },
			put:    func(tx app.Tx, v any) error { return tx.PutCompany(v.(*domain.Company)) },
			get:    func(tx app.Tx) (any, error) { return tx.Company(coA) },
			change: func(v any) { v.(*domain.Company).Name = "changed" },
		},
		{
			name:   "department",
			fresh:  func() any { return newDepartment(deA1, coA, "Engenharia") },
			put:    func(tx app.Tx, v any) error { return tx.PutDepartment(v.(*domain.Department)) },
			get:    func(tx app.Tx) (any, error) { return tx.Department(deA1) },
			change: func(v any) { v.(*domain.Department).Name = "changed" },
		},
		{
			name:  "user",
			fresh: func() any { return newUser(usA1, coA, deA1, "ana@alfa.example") },
			put:   func(tx app.Tx, v any) error { return tx.PutUser(v.(*domain.User)) },
			get:   func(tx app.Tx) (any, error) { return tx.User(usA1) },
			change: func(v any) {
				u := v.(*domain.User)
				u.Email, u.Disabled = "changed@x.example", true
				u.SecretHash[0] ^= 0xff
			},
		},
		{
			name:   "group",
			fresh:  func() any { return newGroup(grA1, coA, "Alvenaria") },
			put:    func(tx app.Tx, v any) error { return tx.PutGroup(v.(*domain.Group)) },
			get:    func(tx app.Tx) (any, error) { return tx.Group(grA1) },
			change: func(v any) { v.(*domain.Group).Description = "changed" },
		},
		{
			name:  "resource",
			fresh: func() any { return newResource(reA1, coA, "R-1") },
			put:   func(tx app.Tx, v any) error { return tx.PutResource(v.(*domain.Resource)) },
			get:   func(tx app.Tx) (any, error) { return tx.Resource(reA1) },
			change: func(v any) {
				r := v.(*domain.Resource)
				r.Code, r.Description = "changed", "changed"
				r.Locals["MG"] = domain.PriceLine{PND: dec("1")}
				r.Locals["RJ"] = domain.PriceLine{PND: dec("2")}
				delete(r.Locals, "SP")
			},
		},
		{
			name:  "composition",
			fresh: func() any { return newComposition(cpA1, coA, "C-1", "MG") },
			put:   func(tx app.Tx, v any) error { return tx.PutComposition(v.(*domain.Composition)) },
			get:   func(tx app.Tx) (any, error) { return tx.Composition(cpA1) },
			change: func(v any) {
				c := v.(*domain.Composition)
				c.Code, c.State = "changed", "RJ"
				c.Items[0].Code, c.Items[0].Quantity = "changed", dec("7")
				c.Banks[0].Month = "12/1999"
				c.Items = append(c.Items, domain.Item{Bank: "X", Code: "Y", Kind: domain.KindResource, Quantity: dec("1")})
			},
		},
		{
			name:  "edition",
			fresh: func() any { return newEdition("SINAPI", "MG", "08/2026") },
			put:   func(tx app.Tx, v any) error { return tx.PutEdition(v.(*domain.Edition)) },
			get:   func(tx app.Tx) (any, error) { return tx.Edition(edSinapiAug) },
			change: func(v any) {
				e := v.(*domain.Edition)
				e.Regimes[0], e.Resources, e.Source = domain.Desonerado, 1, "changed"
			},
		},
		{
			name:  "bank resource",
			fresh: func() any { return newBankResource("00001", "10.01") },
			put:   func(tx app.Tx, v any) error { return tx.PutBankResource(edSinapiAug, v.(*domain.BankResource)) },
			get:   func(tx app.Tx) (any, error) { return tx.BankResource(edSinapiAug, "00001") },
			change: func(v any) {
				r := v.(*domain.BankResource)
				r.Description, r.Prices.PND = "changed", dec("1")
			},
		},
		{
			name:  "bank composition",
			fresh: func() any { return newBankComposition("87292", "401.23") },
			put:   func(tx app.Tx, v any) error { return tx.PutBankComposition(edSinapiAug, v.(*domain.BankComposition)) },
			get:   func(tx app.Tx) (any, error) { return tx.BankComposition(edSinapiAug, "87292") },
			change: func(v any) {
				c := v.(*domain.BankComposition)
				c.Description, c.Cost.PD = "changed", dec("1")
				c.Items[0].Code, c.Items[0].Coefficient = "changed", dec("9")
			},
		},
		{
			name:  "budget",
			fresh: func() any { return newBudget(buA1, coA, "ORC-1") },
			put:   func(tx app.Tx, v any) error { return tx.PutBudget(v.(*domain.Budget)) },
			get:   func(tx app.Tx) (any, error) { return tx.Budget(buA1) },
			change: func(v any) {
				b := v.(*domain.Budget)
				b.Code, b.BDI = "changed", dec("1")
				b.Banks[0].Month = "12/1999"
				b.Items[0].Items[1].Items[0].Code = "changed"
				b.Items[0].Items[1].Items[0].Quantity = dec("7")
				b.Items[0].Items = append(b.Items[0].Items, domain.BudgetNode{ID: "x", Kind: domain.NodeStage})
				b.Items[1].Description = "changed"
			},
		},
	}
}

// testCopies checks that records handed to and returned by a Tx are copies:
// changing one, without a Put, changes nothing in the store, inside the
// transaction or after it.
func testCopies(t *testing.T, s app.Store) {
	for _, tc := range copyCases() {
		t.Run(tc.name, func(t *testing.T) {
			update(t, s, func(tx app.Tx) error {
				v := tc.fresh()
				if err := tc.put(tx, v); err != nil {
					return err
				}
				tc.change(v) // the record handed in
				got, err := tc.get(tx)
				if err != nil {
					return err
				}
				diff(t, "after changing the record that was put", tc.fresh(), got)
				tc.change(got) // a record handed out, inside the transaction
				again, err := tc.get(tx)
				if err != nil {
					return err
				}
				diff(t, "after changing a record read in the transaction", tc.fresh(), again)
				return nil
			})
			view(t, s, func(tx app.Tx) error {
				got, err := tc.get(tx)
				if err != nil {
					return err
				}
				diff(t, "after commit", tc.fresh(), got)
				tc.change(got) // a record handed out by a read transaction
				again, err := tc.get(tx)
				if err != nil {
					return err
				}
				diff(t, "after changing a record read in a View", tc.fresh(), again)
				return nil
			})
			view(t, s, func(tx app.Tx) error {
				got, err := tc.get(tx)
				if err != nil {
					return err
				}
				diff(t, "in a later View", tc.fresh(), got)
				return nil
			})
		})
	}

	// Lists hand out copies too.
	update(t, s, func(tx app.Tx) error { return tx.PutGroup(newGroup(grA1, coA, "Alvenaria")) })
	view(t, s, func(tx app.Tx) error {
		gs, err := all(tx.Groups(coA, app.Query{}))
		if err != nil {
			return err
		}
		gs[0].Description = "changed"
		rs, err := all(tx.Resources(coA, app.Query{}))
		if err != nil {
			return err
		}
		rs[0].Locals["MG"] = domain.PriceLine{}
		cs, err := all(tx.Compositions(coA, app.Query{}))
		if err != nil {
			return err
		}
		cs[0].Items[0].Code = "changed"
		es, err := tx.Editions()
		if err != nil {
			return err
		}
		es[0].Regimes[0] = domain.Desonerado
		brs, err := tx.BankResources(edSinapiAug)
		if err != nil {
			return err
		}
		brs[0].Description, brs[0].Prices.PND = "changed", dec("1")
		bcs, err := tx.BankCompositions(edSinapiAug)
		if err != nil {
			return err
		}
		bcs[0].Items[0].Code, bcs[0].Cost.PD = "changed", dec("1")
		bs, err := all(tx.Budgets(coA, app.Query{}))
		if err != nil {
			return err
		}
		bs[0].Banks[0].Name, bs[0].Code = "changed", "changed"
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Groups", get: func(tx app.Tx) (any, error) { return all(tx.Groups(coA, app.Query{})) }, want: []*domain.Group{newGroup(grA1, coA, "Alvenaria")}},
		{name: "Resources", get: func(tx app.Tx) (any, error) { return all(tx.Resources(coA, app.Query{})) }, want: []*domain.Resource{newResource(reA1, coA, "R-1")}},
		{name: "Compositions", get: func(tx app.Tx) (any, error) { return all(tx.Compositions(coA, app.Query{})) }, want: []*domain.Composition{newComposition(cpA1, coA, "C-1", "MG")}},
		{name: "Editions", get: func(tx app.Tx) (any, error) { return tx.Editions() }, want: []*domain.Edition{newEdition("SINAPI", "MG", "08/2026")}},
		{name: "BankResources", get: func(tx app.Tx) (any, error) { return tx.BankResources(edSinapiAug) }, want: []*domain.BankResource{newBankResource("00001", "10.01")}},
		{name: "BankCompositions", get: func(tx app.Tx) (any, error) { return tx.BankCompositions(edSinapiAug) }, want: []*domain.BankComposition{newBankComposition("87292", "401.23")}},
		{name: "Budgets", get: func(tx app.Tx) (any, error) { return all(tx.Budgets(coA, app.Query{})) }, want: headers(newBudget(buA1, coA, "ORC-1"))},
	})
}

// testViewSnapshot checks that a View goes on seeing the state of its start
// while an Update commits.
func testViewSnapshot(t *testing.T, s app.Store) {
	// Grow the store first, so that a store that maps its file in memory
	// need not remap it (and so wait for the reader) to commit the Update.
	update(t, s, func(tx app.Tx) error { return tx.PutSetting("ballast", make([]byte, 4<<20)) })
	update(t, s, func(tx app.Tx) error { return tx.PutSetting("ballast", nil) })
	before := seeded(t, s)
	done := make(chan error, 1)
	finished := false
	view(t, s, func(tx app.Tx) error {
		first, err := tx.Setting("counter")
		if err != nil {
			return err
		}
		go func() { done <- s.Update(bg(), mutate) }()
		// A store may make the writer wait for the reader; both are fine,
		// as long as the reader sees no change.
		select {
		case err := <-done:
			finished = true
			if err != nil {
				t.Errorf("concurrent Update: %v", err)
			}
		case <-time.After(2 * time.Second):
		}
		second, err := tx.Setting("counter")
		if err != nil {
			return err
		}
		diff(t, "Setting read twice in one View", first, second)
		for _, p := range probes() {
			v, err := p.get(tx)
			var got any = v
			if err != nil {
				got = "error: " + domain.ErrorCode(err)
			}
			diff(t, p.name+" in a View while an Update commits", before[p.name], got)
		}
		return nil
	})
	if !finished {
		if err := <-done; err != nil {
			t.Fatalf("concurrent Update: %v", err)
		}
	}
	view(t, s, func(tx app.Tx) error {
		v, err := tx.Setting("counter")
		if err != nil || string(v) != "8" {
			t.Errorf("Setting(counter) after the Update = %q, %v; want 8", v, err)
		}
		return nil
	})
}

// testConcurrentWriters checks that writers are serialised: no increment of
// a counter kept in a setting is lost.
func testConcurrentWriters(t *testing.T, s app.Store) {
	const writers, increments = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*increments)
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range increments {
				errs <- s.Update(bg(), func(tx app.Tx) error {
					return incrementSetting(tx, "counter")
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
	}
	view(t, s, func(tx app.Tx) error {
		v, err := tx.Setting("counter")
		if err != nil || string(v) != strconv.Itoa(writers*increments) {
			t.Errorf("counter = %q, %v; want %d", v, err, writers*increments)
		}
		return nil
	})
}

// testTxAfterEnd checks that a Tx kept after its function returned answers
// with errors, not with stale data or a crash.
func testTxAfterEnd(t *testing.T, s app.Store) {
	update(t, s, newWorld().put)
	var fromUpdate, fromView app.Tx
	update(t, s, func(tx app.Tx) error { fromUpdate = tx; return nil })
	view(t, s, func(tx app.Tx) error { fromView = tx; return nil })
	for name, tx := range map[string]app.Tx{"Update": fromUpdate, "View": fromView} {
		if _, err := tx.Resource(reA1); err == nil {
			t.Errorf("Resource on the Tx of an ended %s succeeded", name)
		}
		if _, err := tx.Setting("counter"); err == nil {
			t.Errorf("Setting on the Tx of an ended %s succeeded", name)
		}
		if err := tx.PutSetting("counter", []byte("9")); err == nil {
			t.Errorf("PutSetting on the Tx of an ended %s succeeded", name)
		}
	}
	view(t, s, func(tx app.Tx) error {
		v, _ := tx.Setting("counter")
		if string(v) != "7" {
			t.Errorf("counter = %q after writes on ended transactions, want 7", v)
		}
		return nil
	})
}

func testCanceledContext(t *testing.T, s app.Store) {
	ctx, cancel := context.WithCancel(bg())
	cancel()
	called := false
	fn := func(app.Tx) error { called = true; return nil }
	if err := s.View(ctx, fn); !errors.Is(err, context.Canceled) {
		t.Errorf("View with a canceled context = %v, want context.Canceled", err)
	}
	if err := s.Update(ctx, fn); !errors.Is(err, context.Canceled) {
		t.Errorf("Update with a canceled context = %v, want context.Canceled", err)
	}
	if called {
		t.Error("fn ran under a canceled context")
	}
}

func testPingAndClose(t *testing.T, s app.Store) {
	if err := s.Ping(bg()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Ping(bg()); err == nil {
		t.Error("Ping after Close succeeded")
	}
	if err := s.View(bg(), func(app.Tx) error { return nil }); err == nil {
		t.Error("View after Close succeeded")
	}
	if err := s.Update(bg(), func(app.Tx) error { return nil }); err == nil {
		t.Error("Update after Close succeeded")
	}
}

// Reopen tests.

func testReopenEverything(t *testing.T, reopen func() app.Store) {
	s := reopen()
	before := seeded(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	after, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "store after reopen", before, after)
}

// testReopenExactValues checks decimals to the last digit and their scale,
// and times to the nanosecond, after a reopen.
func testReopenExactValues(t *testing.T, reopen func() app.Store) {
	s := reopen()
	update(t, s, newWorld().put)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	view(t, s, func(tx app.Tx) error {
		r, err := tx.Resource(reA1)
		if err != nil {
			return err
		}
		c, err := tx.Composition(cpA1)
		if err != nil {
			return err
		}
		br, err := tx.BankResource(edSinapiAug, "00001")
		if err != nil {
			return err
		}
		bc, err := tx.BankComposition(edSicroAL, "0308001")
		if err != nil {
			return err
		}
		bu, err := tx.Budget(buA1)
		if err != nil {
			return err
		}
		e, err := tx.Edition(edSinapiAug)
		if err != nil {
			return err
		}
		checks := []struct {
			name, got, want string
		}{
			{"resource MG pnd", r.Locals["MG"].PND.String(), "0.0000001"},
			{"resource MG pd", r.Locals["MG"].PD.String(), "12345678.1234"},
			{"resource MG pdi", r.Locals["MG"].PDI.String(), "0"},
			{"composition item quantity", c.Items[0].Quantity.String(), "0.0000001"},
			{"composition item quantity 2", c.Items[1].Quantity.String(), "12345678.1234"},
			{"composition utilization", c.Items[1].Utilization.Decimal.String(), "0.75"},
			{"composition utilization absent", strconv.FormatBool(c.Items[0].Utilization.Valid), "false"},
			{"composition fic", c.FIC.String(), "0.0123456"},
			{"bank resource pd", br.Prices.PD.String(), "12345678.1234"},
			{"bank resource pndi", br.Prices.PNDI.String(), "0.0000001"},
			{"bank composition cost", bc.Cost.PND.String(), "0.0000001"},
			{"bank composition coefficient", bc.Items[1].Coefficient.String(), "12345678.1234"},
			{"resource created_at", r.CreatedAt.UTC().Format(time.RFC3339Nano), tBRT.UTC().Format(time.RFC3339Nano)},
			{"edition imported_at", e.ImportedAt.UTC().Format(time.RFC3339Nano), "2024-02-01T00:00:00.000000001Z"},
			{"composition created_at", c.CreatedAt.UTC().Format(time.RFC3339Nano), "2026-08-14T13:45:30.123456789Z"},
			{"budget bdi", bu.BDI.String(), "25.1234"},
			{"budget line quantity with its scale", bu.Items[0].Items[0].Quantity.StringFixed(-bu.Items[0].Items[0].Quantity.Exponent()), "120.50"},
			{"budget nested quantity", bu.Items[0].Items[1].Items[0].Quantity.String(), "0.0000001"},
			{"budget quantity", bu.Items[1].Quantity.String(), "12345678.1234"},
			{"budget node seq", strconv.Itoa(bu.NodeSeq), "7"},
			{"budget updated_at", bu.UpdatedAt.UTC().Format(time.RFC3339Nano), "2026-08-14T13:45:30.123456789Z"},
		}
		for _, ch := range checks {
			if ch.got != ch.want {
				t.Errorf("%s = %s after reopen, want %s", ch.name, ch.got, ch.want)
			}
		}
		return nil
	})
}

// testReopenChanges commits the mutations (renames, new codes, deletes) and
// checks that the indexes after a reopen are those after the commit.
func testReopenChanges(t *testing.T, reopen func() app.Store) {
	s := reopen()
	update(t, s, newWorld().put)
	update(t, s, mutate)
	before, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	after, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "store after changes and reopen", before, after)
	for _, name := range []string{
		"CompanyByName(Construtora Alfa)", "UserByEmail(ana@alfa.example)", "Group(" + grA2 + ")",
		"ResourceByCode(" + coA + ",R-1)", "Resource(" + reA2 + ")", "CompositionByCode(" + coA + ",C-1,MG)",
		"Composition(" + cpA2 + ")", "DepartmentByName(" + coA + ",Engenharia)",
		"BudgetByCode(" + coA + ",ORC-1)", "Budget(" + buA2 + ")",
	} {
		if after[name] != "error: "+notFound {
			t.Errorf("%s = %v after reopen, want ENOTFOUND (stale index entry or record)", name, after[name])
		}
	}
}

func testReopenRollback(t *testing.T, reopen func() app.Store) {
	s := reopen()
	before := seeded(t, s)
	err := s.Update(bg(), func(tx app.Tx) error {
		if err := mutate(tx); err != nil {
			return err
		}
		return errAbort
	})
	if !errors.Is(err, errAbort) {
		t.Fatalf("Update = %v, want the error fn returned", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	unchanged(t, s, before)
}

func testReopenWrites(t *testing.T, reopen func() app.Store) {
	s := reopen()
	update(t, s, newWorld().put)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	update(t, s, mutate)
	want, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	s = reopen()
	got, err := dump(s)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "store after writes on a reopened store", want, got)
}

// testConcurrentFailingWriters checks that writers running together (which
// a store may group in one transaction: bbolt's commit queue, PostgreSQL's
// group commit) keep each its own outcome: every second writer fails after
// its write, and leaves nothing; each caller gets its own answer; every
// other writer's write and its increment of a shared counter land.
func testConcurrentFailingWriters(t *testing.T, s app.Store) {
	const writers = 48
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Update(bg(), func(tx app.Tx) error {
				if err := tx.PutSetting("writer-"+strconv.Itoa(i), []byte("written")); err != nil {
					return err
				}
				if err := incrementSetting(tx, "survivors"); err != nil {
					return err
				}
				if i%2 == 1 {
					return fmt.Errorf("writer %d fails", i)
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		want := ""
		if i%2 == 1 {
			want = fmt.Sprintf("writer %d fails", i)
		}
		if got := fmt.Sprint(err); (err == nil) != (want == "") || (want != "" && got != want) {
			t.Errorf("writer %d: Update returned %v, want %q", i, err, want)
		}
	}
	view(t, s, func(tx app.Tx) error {
		for i := range writers {
			v, err := tx.Setting("writer-" + strconv.Itoa(i))
			if err != nil {
				return err
			}
			if written := v != nil; written != (i%2 == 0) {
				t.Errorf("writer %d: its setting is %q after it %s", i, v, map[bool]string{true: "succeeded", false: "failed"}[i%2 == 0])
			}
		}
		v, err := tx.Setting("survivors")
		if err != nil || string(v) != strconv.Itoa(writers/2) {
			t.Errorf("survivors = %q, %v; want %d", v, err, writers/2)
		}
		return nil
	})
}

// incrementSetting adds one to the count kept as the setting key (none: 0).
func incrementSetting(tx app.Tx, key string) error {
	v, err := tx.Setting(key)
	if err != nil {
		return err
	}
	n := 0
	if v != nil {
		if n, err = strconv.Atoi(string(v)); err != nil {
			return err
		}
	}
	return tx.PutSetting(key, []byte(strconv.Itoa(n+1)))
}
