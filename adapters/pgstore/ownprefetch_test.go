package pgstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The own resources read ahead with a composition, by its ID or its code,
// are exactly those a read of each resource gives: a resource named by two
// items, one with prices in three states, one with none, a code that names
// none; items of a bank, or naming an own composition, with a resource's
// code read nothing ahead. Reading them costs no round trip.
func TestOwnResourcesReadAheadRows(t *testing.T) {
	st := open(t, pgstore.Options{})
	ctx := context.Background()
	now := time.Now().UTC()
	co := &domain.Company{ID: app.NewID(now), Name: "Rows", CreatedAt: now}
	line := func(n int64) domain.PriceLine {
		return domain.PriceLine{PND: decimal.New(n, -2), PD: decimal.New(n+1, -2), PNDI: decimal.New(n+2, -3), PDI: decimal.New(n+3, -4)}
	}
	res := func(code string, locals map[string]domain.PriceLine) *domain.Resource {
		return &domain.Resource{ID: app.NewID(now), CompanyID: co.ID, Code: code, Description: "Recurso " + code, Type: 4, Unit: "M3",
			Status: true, Note: "n " + code, Tags: []string{"t" + code}, Locals: locals, CreatedAt: now}
	}
	many := res("MANY", map[string]domain.PriceLine{"MG": line(1000), "SP": line(2000), "BA": line(3000)})
	twice := res("TWICE", map[string]domain.PriceLine{"MG": line(4000)})
	none := res("NONE", map[string]domain.PriceLine{})
	banked := res("BANKED", map[string]domain.PriceLine{"MG": line(5000)})
	item := func(bank, code string, kind domain.ItemKind) domain.Item {
		return domain.Item{Bank: bank, Code: code, Kind: kind, Quantity: decimal.NewFromInt(1)}
	}
	comp := &domain.Composition{ID: app.NewID(now), CompanyID: co.ID, Code: "C1", Description: "Alvenaria", Type: "PARE", Unit: "M2", State: "MG",
		Rounding: domain.DefaultRounding(false), CreatedAt: now, Items: []domain.Item{
			item(domain.BankMyBase, "TWICE", domain.KindResource),
			item(domain.BankMyBase, "MANY", domain.KindResource),
			item(domain.BankMyBase, "NONE", domain.KindResource),
			item(domain.BankMyBase, "TWICE", domain.KindResource),
			item(domain.BankMyBase, "MISSING", domain.KindResource),
			item("SINAPI", "BANKED", domain.KindResource),
			item(domain.BankMyBase, "BANKED", domain.KindComposition),
		}}
	err := st.Update(ctx, func(tx app.Tx) error {
		for _, err := range []error{tx.PutCompany(co), tx.PutResource(many), tx.PutResource(twice), tx.PutResource(none),
			tx.PutResource(banked), tx.PutComposition(comp)} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each resource as a read of it alone gives it.
	want := map[string]*domain.Resource{}
	err = st.View(ctx, func(tx app.Tx) error {
		for _, r := range []*domain.Resource{many, twice, none, banked} {
			got, err := tx.Resource(r.ID)
			if err != nil {
				return err
			}
			want[r.Code] = got
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(want["MANY"].Locals); n != 3 {
		t.Fatalf("MANY read alone has %d prices, want 3", n)
	}
	reads := map[string]func(app.Tx) error{
		"by ID":   func(tx app.Tx) error { _, err := tx.Composition(comp.ID); return err },
		"by code": func(tx app.Tx) error { _, err := tx.CompositionByCode(co.ID, "C1", "MG"); return err },
	}
	for name, read := range reads {
		err := st.View(ctx, func(tx app.Tx) error {
			if err := read(tx); err != nil {
				return err
			}
			before := st.RoundTrips()
			for _, code := range []string{"MANY", "TWICE", "NONE"} {
				got, err := tx.ResourceByCode(co.ID, code)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, want[code]) {
					t.Errorf("%s: %s read ahead\n%+v\nwant\n%+v", name, code, got, want[code])
				}
			}
			if _, err := tx.ResourceByCode(co.ID, "MISSING"); domain.ErrorCode(err) != domain.ENOTFOUND {
				t.Errorf("%s: MISSING: %v, want not found", name, err)
			}
			if got := st.RoundTrips().Sub(before).Waited; got != 0 {
				t.Errorf("%s: the own resources cost %d round trips, want 0", name, got)
			}
			// BANKED is named by no own resource item: not read ahead.
			got, err := tx.ResourceByCode(co.ID, "BANKED")
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want["BANKED"]) {
				t.Errorf("%s: BANKED %+v, want %+v", name, got, want["BANKED"])
			}
			if got := st.RoundTrips().Sub(before).Waited; got != 1 {
				t.Errorf("%s: BANKED was read ahead (%d round trips, want 1)", name, got)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
