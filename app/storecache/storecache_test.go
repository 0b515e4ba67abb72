package storecache_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// seed puts company co1's composition c1 through the layer.
func seed(t *testing.T, s *storecache.Store) {
	t.Helper()
	err := s.Update(ctx, func(tx app.Tx) error {
		return tx.PutComposition(&domain.Composition{ID: "c1", CompanyID: "co1", Code: "C-1", State: "MG", Description: "d", Unit: "M2"})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func counter(t *testing.T, st app.Store, key string) uint64 {
	t.Helper()
	vals, err := st.Settings(ctx, []string{key})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals[0]) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(vals[0])
}

// TestUpdatePrepared: a write that reads one composition and bank records
// runs once, on a snapshot, and its put lands (the company's generation
// bumped); a write that reads anything else, or writes anything but the
// composition it read, runs again in the write transaction, where its
// writes land; a write whose fn fails on the snapshot answers the failure
// of its run in the write transaction.
func TestUpdatePrepared(t *testing.T) {
	st := newStore(t)
	s := storecache.New(st)
	seed(t, s)
	change := func(desc string, extra func(app.Tx) error) (runs []bool, err error) {
		err = s.UpdatePrepared(ctx, func(tx app.Tx) error {
			_, stamps := app.Optional[app.CompositionStamper](tx)
			runs = append(runs, stamps) // a snapshot offers no optional part
			c, err := tx.Composition("c1")
			if err != nil {
				return err
			}
			if _, err := tx.BankResource("SINAPI-MG-08/2026", "0001"); err != nil && domain.ErrorCode(err) != domain.ENOTFOUND {
				return err
			}
			if extra != nil {
				if err := extra(tx); err != nil {
					return err
				}
			}
			c.Description = desc
			return tx.PutComposition(c)
		})
		return runs, err
	}
	stored := func() string {
		var d string
		if err := st.View(ctx, func(tx app.Tx) error {
			c, err := tx.Composition("c1")
			if err == nil {
				d = c.Description
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	before, comps := counter(t, st, "gen/company/co1"), counter(t, st, "gen/comps/co1")
	runs, err := change("prepared", nil)
	if err != nil || len(runs) != 1 || runs[0] || stored() != "prepared" {
		t.Fatalf("prepared write: runs %v, err %v, stored %q", runs, err, stored())
	}
	if after := counter(t, st, "gen/comps/co1"); after != comps+1 {
		t.Errorf("compositions' generation %d after a prepared write, was %d", after, comps)
	}
	if after := counter(t, st, "gen/comp/c1"); after != comps+1 {
		t.Errorf("the composition's counter %d after a prepared write, want %d", after, comps+1)
	}
	if after := counter(t, st, "gen/company/co1"); after != before {
		t.Errorf("company generation %d after a prepared write of a composition, was %d", after, before)
	}
	runs, err = change("own read", func(tx app.Tx) error {
		_, err := tx.ResourceByCode("co1", "R1")
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return nil
		}
		return err
	})
	if err != nil || len(runs) != 1 || runs[0] || stored() != "own read" {
		t.Fatalf("a write reading an own resource (checked by the company's generation): runs %v, err %v, stored %q", runs, err, stored())
	}
	runs, err = change("own composition read", func(tx app.Tx) error {
		_, err := tx.CompositionByCode("co1", "C-9", "MG")
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return nil
		}
		return err
	})
	if err != nil || len(runs) != 2 || runs[0] || !runs[1] || stored() != "own composition read" {
		t.Fatalf("a write reading an own composition by code: runs %v, err %v, stored %q", runs, err, stored())
	}
	runs, err = change("two writes", func(tx app.Tx) error {
		return tx.PutGroup(&domain.Group{ID: "g1", CompanyID: "co1", Description: "Grupo"})
	})
	if err != nil || len(runs) != 2 || stored() != "two writes" {
		t.Fatalf("a write of another record: runs %v, err %v, stored %q", runs, err, stored())
	}
	if err := st.View(ctx, func(tx app.Tx) error { _, err := tx.Group("g1"); return err }); err != nil {
		t.Fatalf("the group the write transaction put: %v", err)
	}
	refused := errors.New("refused")
	runs, err = change("failed", func(app.Tx) error { return refused })
	if !errors.Is(err, refused) || len(runs) != 2 || stored() != "two writes" {
		t.Fatalf("a failing write: runs %v, err %v, stored %q", runs, err, stored())
	}
	err = s.UpdatePrepared(ctx, func(tx app.Tx) error { _, err := tx.Composition("none"); return err })
	if domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Fatalf("a missing composition: %v, want ENOTFOUND", err)
	}
}

// TestOptionalPartsThroughTheLayer: the store's optional parts stay
// reachable through the layer's transactions (app.Optional), and a budget
// version written through it bumps its company's generation.
func TestOptionalPartsThroughTheLayer(t *testing.T) {
	st := newStore(t)
	s := storecache.New(st)
	if err := s.View(ctx, func(tx app.Tx) error {
		if _, ok := app.Optional[app.BudgetStreamer](tx); !ok {
			t.Error("a read transaction hides BudgetStreamer")
		}
		if _, ok := app.Optional[app.CompositionStamper](tx); !ok {
			t.Error("a read transaction hides CompositionStamper")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b := &domain.Budget{ID: "b1", CompanyID: "co1", Code: "ORC-1", Description: "d"}
	before := counter(t, st, "gen/company/co1")
	if err := st.Update(ctx, func(tx app.Tx) error { return tx.PutBudget(b) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx app.Tx) error {
		v, ok := app.Optional[app.VersionTx](tx)
		if !ok {
			t.Fatal("a write transaction hides VersionTx")
		}
		return v.PutBudgetVersion(&domain.BudgetVersion{CompanyID: "co1", BudgetID: "b1", Number: 1, Hash: "h", Content: []byte("{}")})
	}); err != nil {
		t.Fatal(err)
	}
	if after := counter(t, st, "gen/company/co1"); after != before+1 {
		t.Errorf("company generation %d after a version written, was %d", after, before)
	}
	if storecache.New(s) != s {
		t.Error("New over the layer wraps it again")
	}
}

// TestContractsAndReferenceWritesBump: a contract, a measurement and an
// amendment written through the layer bump their company's generation
// (the cached answers of its contracts are dropped); a change log and a
// charges table bump the global one (reference data everyone reads).
func TestContractsAndReferenceWritesBump(t *testing.T) {
	st := newStore(t)
	s := storecache.New(st)
	company := func() uint64 { return counter(t, st, "gen/company/co1") }
	before := company()
	write := func(what string, fn func(app.Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	write("contract", func(tx app.Tx) error {
		ct, _ := app.Optional[app.ContractTx](tx)
		return ct.PutContract(&domain.Contract{ID: "c1", CompanyID: "co1", Number: "CT-1"})
	})
	write("measurement", func(tx app.Tx) error {
		ct, _ := app.Optional[app.ContractTx](tx)
		return ct.PutMeasurement(&domain.Measurement{ContractID: "c1", Number: 1, Status: domain.StatusDraft})
	})
	write("amendment", func(tx app.Tx) error {
		ct, _ := app.Optional[app.ContractTx](tx)
		return ct.PutAmendment(&domain.Amendment{ContractID: "c1", Number: 1})
	})
	if after := company(); after != before+3 {
		t.Errorf("company generation %d after three contract writes, was %d", after, before)
	}
	global := counter(t, st, "gen/global")
	write("change log", func(tx app.Tx) error {
		cl, _ := app.Optional[app.ChangeLogTx](tx)
		return cl.PutChanges("SINAPI", "12/2025", []domain.BankChange{{Bank: "SINAPI", Month: "12/2025", Code: "1", Kind: domain.ChangeUnit}})
	})
	if after := counter(t, st, "gen/global"); after != global+1 {
		t.Errorf("global generation %d after a change log, was %d", after, global)
	}
}

// TestContractsReadThroughTheCache: a contract is not found before it is
// made (and that is not remembered), then found; read again through the
// cache it is the same record; the contract port's other reads and a
// write transaction reach the store.
func TestContractsReadThroughTheCache(t *testing.T) {
	s := storecache.New(newStore(t))
	c := &domain.Contract{ID: "ct1", CompanyID: "co1", BudgetID: "b1", VersionNumber: 1, Number: "CT-1", Contractor: "X",
		Lines: []domain.ContractLine{{ID: "n2", Number: "1.1", Code: "R1", Quantity: dec("3")}}}
	read := func() (*domain.Contract, error) {
		var out *domain.Contract
		err := s.View(ctx, func(tx app.Tx) error {
			ct, ok := app.Optional[app.ContractTx](tx)
			if !ok {
				return errors.New("no contract port")
			}
			var err error
			out, err = ct.Contract("ct1")
			return err
		})
		return out, err
	}
	if _, err := read(); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Fatalf("before it is made: %v", err)
	}
	if err := s.Update(ctx, func(tx app.Tx) error {
		ct, _ := app.Optional[app.ContractTx](tx)
		return ct.PutContract(c)
	}); err != nil {
		t.Fatal(err)
	}
	first, err := read()
	if err != nil || first.Number != "CT-1" || len(first.Lines) != 1 || !first.Lines[0].Quantity.Equal(dec("3")) {
		t.Fatalf("after it is made: %+v %v", first, err)
	}
	second, err := read()
	if err != nil || second != first {
		t.Errorf("read again: %p, want the cached %p (%v)", second, first, err)
	}
	if err := s.View(ctx, func(tx app.Tx) error {
		ct, _ := app.Optional[app.ContractTx](tx)
		list, err := ct.Contracts("co1")
		if err == nil && len(list) != 1 {
			err = errors.New("the company's list misses the contract")
		}
		return err
	}); err != nil {
		t.Error(err)
	}
}

// TestCompositionCounters: a transaction that writes compositions and
// nothing else of the company bumps the company's compositions counter and
// sets each written composition's counter to it, leaving the company's and
// the other compositions' counters; one that also writes another record
// bumps the company's counter and the compositions' and sets no
// composition's; a delete counts as a write. Counters never return to a
// value they had.
func TestCompositionCounters(t *testing.T) {
	st := newStore(t)
	s := storecache.New(st)
	put := func(fn func(tx app.Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	comp := func(id string) *domain.Composition {
		return &domain.Composition{ID: id, CompanyID: "co1", Code: "C-" + id, State: "MG", Description: "d", Unit: "M2"}
	}
	type counters struct{ company, comps, a, b uint64 }
	read := func() counters {
		return counters{counter(t, st, "gen/company/co1"), counter(t, st, "gen/comps/co1"), counter(t, st, "gen/comp/a"), counter(t, st, "gen/comp/b")}
	}
	put(func(tx app.Tx) error { return tx.PutComposition(comp("a")) })
	put(func(tx app.Tx) error { return tx.PutComposition(comp("b")) })
	if got, want := read(), (counters{0, 2, 1, 2}); got != want {
		t.Fatalf("after two composition writes %+v, want %+v", got, want)
	}
	put(func(tx app.Tx) error {
		if err := tx.PutComposition(comp("a")); err != nil {
			return err
		}
		return tx.PutGroup(&domain.Group{ID: "g1", CompanyID: "co1", Description: "Grupo"})
	})
	if got, want := read(), (counters{1, 3, 1, 2}); got != want {
		t.Fatalf("after a composition and a group %+v, want %+v", got, want)
	}
	put(func(tx app.Tx) error { return tx.DeleteComposition("b") })
	if got, want := read(), (counters{1, 4, 1, 4}); got != want {
		t.Fatalf("after a delete %+v, want %+v", got, want)
	}
	put(func(tx app.Tx) error {
		return tx.PutGroup(&domain.Group{ID: "g2", CompanyID: "co1", Description: "Outro"})
	})
	if got, want := read(), (counters{2, 4, 1, 4}); got != want {
		t.Fatalf("after a group alone %+v, want %+v", got, want)
	}
	g, err := s.Generation(ctx, "co1", "a")
	if err != nil || g.Company != 2 || g.Comps != 4 || g.Comp != 1 || g.CompositionID != "a" {
		t.Fatalf("Generation(co1, a) = %+v, %v", g, err)
	}
}

// TestReadsNoteCompositions: a read transaction run with a context of
// WithReads notes the compositions it reads: one by its id leaves the
// answer depending on that one only; another, one by code or a list make
// it depend on them all; without the context nothing is noted.
func TestReadsNoteCompositions(t *testing.T) {
	st := newStore(t)
	s := storecache.New(st)
	seed(t, s)
	view := func(fn func(tx app.Tx) error) *storecache.Reads {
		t.Helper()
		c, reads := storecache.WithReads(ctx)
		if err := s.View(c, fn); err != nil {
			t.Fatal(err)
		}
		return reads
	}
	byID := func(id string) func(tx app.Tx) error {
		return func(tx app.Tx) error {
			_, err := tx.Composition(id)
			if domain.ErrorCode(err) == domain.ENOTFOUND {
				return nil
			}
			return err
		}
	}
	if r := view(byID("c1")); !r.Only("c1") || r.Only("c2") {
		t.Error("one composition by id: not noted as that one only")
	}
	if r := view(func(tx app.Tx) error {
		if err := byID("c1")(tx); err != nil {
			return err
		}
		return byID("c2")(tx)
	}); r.Only("c1") {
		t.Error("two compositions by id: noted as one only")
	}
	if r := view(func(tx app.Tx) error {
		if err := byID("c1")(tx); err != nil {
			return err
		}
		_, err := tx.CompositionByCode("co1", "NOPE", "MG")
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return nil
		}
		return err
	}); r.Only("c1") {
		t.Error("a composition by code (not found): noted as one only")
	}
	if r := view(func(tx app.Tx) error {
		_, _, err := tx.Compositions("co1", app.Query{})
		return err
	}); r.Only("c1") {
		t.Error("a list of compositions: noted as one only")
	}
	if r := view(func(tx app.Tx) error { _, err := tx.ResourceByCode("co1", "R"); _ = err; return nil }); !r.Only("c1") {
		t.Error("no composition read: not noted as depending on none")
	}
}
