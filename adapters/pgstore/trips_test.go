package pgstore_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// tripsFixture stores a company with own resources R1 and R2 and a
// composition C1 whose items are R1, R2 and R9 (no such resource).
func tripsFixture(t *testing.T, st *pgstore.Store) (company string, comp *domain.Composition) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	co := &domain.Company{ID: app.NewID(now), Name: "Trips", CreatedAt: now}
	res := func(code string, pnd int64) *domain.Resource {
		return &domain.Resource{ID: app.NewID(now), CompanyID: co.ID, Code: code, Description: "Areia " + code, Type: 4, Unit: "M3", Status: true,
			Locals: map[string]domain.PriceLine{"MG": {PND: decimal.New(pnd, -2), PD: decimal.New(pnd, -2)}}, CreatedAt: now}
	}
	comp = &domain.Composition{ID: app.NewID(now), CompanyID: co.ID, Code: "C1", Description: "Alvenaria", Type: "PARE", Unit: "M2", State: "MG",
		Rounding: domain.DefaultRounding(false), CreatedAt: now, Items: []domain.Item{
			{Bank: domain.BankMyBase, Code: "R1", Kind: domain.KindResource, Quantity: decimal.NewFromInt(2)},
			{Bank: domain.BankMyBase, Code: "R2", Kind: domain.KindResource, Quantity: decimal.NewFromInt(3)},
			{Bank: domain.BankMyBase, Code: "R9", Kind: domain.KindResource, Quantity: decimal.NewFromInt(1)},
		}}
	err := st.Update(ctx, func(tx app.Tx) error {
		for _, err := range []error{tx.PutCompany(co), tx.PutResource(res("R1", 1000)), tx.PutResource(res("R2", 2000)), tx.PutComposition(comp)} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return co.ID, comp
}

// The own resources read with a composition answer ResourceByCode in the
// same snapshot, as copies, ENOTFOUND for a code that names none, and
// nothing once a write of the transaction may have changed them.
func TestOwnResourcesReadAhead(t *testing.T) {
	st := open(t, pgstore.Options{})
	company, comp := tripsFixture(t, st)
	ctx := context.Background()
	err := st.View(ctx, func(tx app.Tx) error {
		before := st.RoundTrips()
		if _, err := tx.Composition(comp.ID); err != nil {
			return err
		}
		r, err := tx.ResourceByCode(company, "R1")
		if err != nil {
			return err
		}
		if got := r.Locals["MG"].PND.String(); got != "10" {
			t.Errorf("R1 PND %s, want 10", got)
		}
		r.Locals["MG"] = domain.PriceLine{} // a copy: the next read is not changed
		if r, err = tx.ResourceByCode(company, "R1"); err != nil || r.Locals["MG"].PND.String() != "10" {
			t.Errorf("R1 read again: %v %v", r, err)
		}
		if _, err := tx.ResourceByCode(company, "R9"); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("R9: %v, want not found", err)
		}
		if _, err := tx.ResourceByCode("another", "R1"); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("R1 of another company: %v, want not found", err)
		}
		// The composition with its own resources was one round trip
		// (with BEGIN); the read of another company's R1 one more.
		if got := st.RoundTrips().Sub(before).Waited; got != 2 {
			t.Errorf("%d round trips, want 2", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(ctx, func(tx app.Tx) error {
		c, err := tx.Composition(comp.ID)
		if err != nil {
			return err
		}
		if err := tx.PutComposition(c); err != nil { // changes no resource: what was read stays
			return err
		}
		r, err := tx.ResourceByCode(company, "R2")
		if err != nil {
			return err
		}
		r.Locals["MG"] = domain.PriceLine{PND: decimal.NewFromInt(77), PD: decimal.NewFromInt(77)}
		if err := tx.PutResource(r); err != nil {
			return err
		}
		got, err := tx.ResourceByCode(company, "R2")
		if err != nil {
			return err
		}
		if p := got.Locals["MG"].PND.String(); p != "77" {
			t.Errorf("R2 after its put in the transaction: PND %s, want 77", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A composition read, then put, goes in one round trip; the stamp its put
// drew is the one stored; a put that takes another's code is still
// ECONFLICT and leaves the transaction usable; a composition moved to
// another company is counted in that company's list.
func TestPutOfAReadComposition(t *testing.T) {
	st := open(t, pgstore.Options{})
	company, comp := tripsFixture(t, st)
	ctx := context.Background()
	var stamp []byte
	err := st.Update(ctx, func(tx app.Tx) error {
		c, err := tx.Composition(comp.ID)
		if err != nil {
			return err
		}
		c.Description = "Alvenaria de vedação"
		before := st.RoundTrips()
		if err := tx.PutComposition(c); err != nil {
			return err
		}
		if got := st.RoundTrips().Sub(before).Waited; got != 1 {
			t.Errorf("put of a composition read: %d round trips, want 1", got)
		}
		stamper, _ := app.Optional[app.CompositionStamper](tx)
		before = st.RoundTrips()
		if stamp, err = stamper.CompositionStamp(c.ID); err != nil {
			return err
		}
		if got := st.RoundTrips().Sub(before).Waited; got != 0 {
			t.Errorf("stamp of a composition put: %d round trips, want 0", got)
		}
		other := c.Clone()
		other.ID, other.Code = app.NewID(time.Now()), "C2"
		return tx.PutComposition(other)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(ctx, func(tx app.Tx) error {
		stamper, _ := app.Optional[app.CompositionStamper](tx)
		got, err := stamper.CompositionStamp(comp.ID)
		if err == nil && !bytes.Equal(got, stamp) {
			t.Errorf("stored stamp %x, the put's %x", got, stamp)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(ctx, func(tx app.Tx) error {
		c, err := tx.CompositionByCode(company, "C2", "MG")
		if err != nil {
			return err
		}
		c.Code = "C1" // comp's
		if err := tx.PutComposition(c); domain.ErrorCode(err) != domain.ECONFLICT {
			t.Errorf("put with another's code: %v, want ECONFLICT", err)
		}
		c.Code = "C3"
		return tx.PutComposition(c) // the transaction goes on
	})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	other := &domain.Company{ID: app.NewID(now), Name: "Other", CreatedAt: now}
	err = st.Update(ctx, func(tx app.Tx) error {
		if err := tx.PutCompany(other); err != nil {
			return err
		}
		c, err := tx.CompositionByCode(company, "C3", "MG")
		if err != nil {
			return err
		}
		c.CompanyID = other.ID
		return tx.PutComposition(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(ctx, func(tx app.Tx) error {
		for _, w := range []struct {
			company string
			n       int
		}{{company, 1}, {other.ID, 1}} {
			_, n, err := tx.Compositions(w.company, app.Query{Limit: 1})
			if err != nil {
				return err
			}
			if n != w.n {
				t.Errorf("company %s: %d compositions, want %d", w.company, n, w.n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A setting's put is sent with the next statement: a read after it sees
// it, and a failure of the transaction at commit leaves nothing.
func TestSettingPutLater(t *testing.T) {
	st := open(t, pgstore.Options{})
	ctx := context.Background()
	// The second time, "k" is read ahead (a setting write transactions
	// read): the put updates what was read ahead.
	for _, want := range []string{"v0", "v1"} {
		err := st.Update(ctx, func(tx app.Tx) error {
			if _, err := tx.Setting("k"); err != nil {
				return err
			}
			if err := tx.PutSetting("k", []byte(want)); err != nil {
				return err
			}
			v, err := tx.Setting("k")
			if err == nil && string(v) != want {
				t.Errorf("read after put: %q, want %q", v, want)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	errFn := errors.New("no")
	err := st.Update(ctx, func(tx app.Tx) error {
		if err := tx.PutSetting("k", []byte("v2")); err != nil {
			return err
		}
		return errFn
	})
	if !errors.Is(err, errFn) {
		t.Fatalf("Update: %v", err)
	}
	err = st.View(ctx, func(tx app.Tx) error {
		v, err := tx.Setting("k")
		if err == nil && string(v) != "v1" {
			t.Errorf("after a failed transaction: %q, want v1", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A setting that read-only transactions read is read ahead with the first
// statement of the next ones: the value of their own snapshot, nil when
// there is none, a copy.
func TestSettingsReadAhead(t *testing.T) {
	st := open(t, pgstore.Options{})
	ctx := context.Background()
	put := func(v string) {
		t.Helper()
		if err := st.Update(ctx, func(tx app.Tx) error { return tx.PutSetting("hot", []byte(v)) }); err != nil {
			t.Fatal(err)
		}
	}
	// read reads "hot" and "gone" after a first statement and returns the
	// round trips the two reads took.
	read := func(want string) int64 {
		t.Helper()
		var trips int64
		err := st.View(ctx, func(tx app.Tx) error {
			if _, err := tx.Company("none"); domain.ErrorCode(err) != domain.ENOTFOUND {
				return err
			}
			before := st.RoundTrips()
			v, err := tx.Setting("hot")
			if err != nil {
				return err
			}
			if string(v) != want {
				t.Errorf("hot: %q, want %q", v, want)
			}
			v[0] = 'X' // a copy
			if v, err = tx.Setting("gone"); err != nil || v != nil {
				t.Errorf("gone: %q %v, want none", v, err)
			}
			if v, err = tx.Setting("hot"); err != nil || string(v) != want {
				t.Errorf("hot again: %q %v, want %q", v, err, want)
			}
			trips = st.RoundTrips().Sub(before).Waited
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return trips
	}
	put("v1")
	if got := read("v1"); got == 0 {
		t.Errorf("first reads: no round trip")
	}
	if got := read("v1"); got != 0 {
		t.Errorf("reads of settings read before: %d round trips, want 0", got)
	}
	put("v2")
	if got := read("v2"); got != 0 {
		t.Errorf("after a change: %d round trips, want 0", got)
	}
}

// A write transaction does not wait for a connection of the reads' pool:
// with the only one held by a read, a write still runs.
func TestWriterHasItsConnection(t *testing.T) {
	st := openURL(t, newDatabase(t)+"&pool_max_conns=1", pgstore.Options{})
	ctx := context.Background()
	wrote := make(chan error, 1)
	err := st.View(ctx, func(tx app.Tx) error {
		if _, err := tx.Setting("k"); err != nil { // the read holds the connection
			return err
		}
		// A guard against a hang, not a measure: the write needs no
		// connection of this pool, so it ends long before.
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		go func() { wrote <- st.Update(wctx, func(tx app.Tx) error { return tx.PutSetting("k", []byte("v")) }) }()
		return <-wrote
	})
	if err != nil {
		t.Fatalf("write beside a read holding the only connection: %v", err)
	}
}
