package storecache_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// hookStore runs before, once, when the next write transaction is asked
// for: after AddItems or RemoveItems prepared their change in a read
// transaction, before the write transaction that puts it. It counts the read
// transactions.
type hookStore struct {
	app.Store
	before func()
	views  int
}

func (h *hookStore) View(ctx context.Context, fn func(app.Tx) error) error {
	h.views++
	return h.Store.View(ctx, fn)
}

func (h *hookStore) Update(ctx context.Context, fn func(app.Tx) error) error {
	if b := h.before; b != nil {
		h.before = nil
		b()
	}
	return h.Store.Update(ctx, fn)
}

// preparedFixture is a service over a hookStore and another service (another
// server) over the same store, with a composition of company A attached to
// SINAPI MG 08/2026 holding resource 0001 × 2.
type preparedFixture struct {
	hs         *hookStore
	speed      *storecache.Store
	svc, other *app.Service
	p          domain.Principal
	comp       string
}

func newPreparedFixture(t *testing.T) *preparedFixture {
	st := newStore(t)
	hs := &hookStore{Store: st}
	other := app.New(storecache.New(st), nil, app.Config{})
	speed := storecache.New(hs)
	pf := &preparedFixture{hs: hs, speed: speed, svc: app.New(speed, nil, app.Config{}), other: other}
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	if _, err := other.ImportEditions(ctx, []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: both},
		Resources: []*domain.BankResource{
			{Code: "0001", Description: "AREIA MEDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("120"), PD: dec("120")}},
			{Code: "0002", Description: "CIMENTO", Unit: "KG", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("0.83"), PD: dec("0.83")}},
		},
		Compositions: []*domain.BankComposition{
			{Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H", Cost: domain.UnitPrice{PND: dec("33.62"), PD: dec("31.67")}},
		},
	}}); err != nil {
		t.Fatal(err)
	}
	nu, err := other.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "a@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	pf.p = domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	c, err := other.CreateComposition(ctx, pf.p, app.CompositionInput{Code: "C1", Description: "Composição", Unit: "M2", State: "MG"})
	if err != nil {
		t.Fatal(err)
	}
	pf.comp = c.ID
	if _, err := other.AddBanks(ctx, pf.p, c.ID, []app.BankInput{{Name: "SINAPI", State: "MG", Month: "08/2026"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.AddItems(ctx, pf.p, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "0001", Kind: domain.KindResource, Quantity: dec("2")}}); err != nil {
		t.Fatal(err)
	}
	return pf
}

// check fails unless got is what a read of the composition answers now,
// and holds the items codes (in order).
func (pf *preparedFixture) check(t *testing.T, got *domain.PricedComposition, codes ...string) {
	t.Helper()
	now, err := pf.other.Composition(ctx, pf.p, pf.comp)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(now, got, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) && a.String() == b.String() }),
		cmp.AllowUnexported(domain.PricedItem{})); d != "" {
		t.Errorf("the answer is not the composition as stored (-stored +answer):\n%s", d)
	}
	var have []string
	for _, it := range got.Items {
		have = append(have, it.Code)
	}
	if d := cmp.Diff(codes, have); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
}

// An add_items prepared outside the writer and then overtaken by another
// change of the composition, or by a new import of the bank it prices from,
// answers and stores what the write transaction computes from the new
// state: nothing of the other change is lost, no stale price is answered.
func TestPreparedAddItemsOvertaken(t *testing.T) {
	t.Run("the composition changed", func(t *testing.T) {
		pf := newPreparedFixture(t)
		pf.hs.before = func() {
			if _, err := pf.other.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: "0002", Kind: domain.KindResource, Quantity: dec("3")}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := pf.svc.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: "88309", Quantity: dec("1.5")}})
		if err != nil {
			t.Fatal(err)
		}
		if pf.hs.views != 1 {
			t.Errorf("%d read transactions before the write, want 1 (the preparation)", pf.hs.views)
		}
		pf.check(t, got, "0001", "0002", "88309")
		// 2 × 120 + 3 × 0.83 + 1.5 × 33.62
		if want := dec("292.92"); !got.Prices.PND.Equal(want) {
			t.Errorf("pnd %s, want %s", got.Prices.PND, want)
		}
	})
	t.Run("the bank was imported again", func(t *testing.T) {
		pf := newPreparedFixture(t)
		pf.hs.before = func() {
			ed := app.EditionData{
				Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
				Resources: []*domain.BankResource{
					{Code: "0001", Description: "AREIA MEDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("200"), PD: dec("200")}},
					{Code: "0002", Description: "CIMENTO", Unit: "KG", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("1"), PD: dec("1")}},
				},
			}
			if _, err := pf.other.ImportEditions(ctx, []app.EditionData{ed}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := pf.svc.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: "0002", Kind: domain.KindResource, Quantity: dec("3")}})
		if err != nil {
			t.Fatal(err)
		}
		pf.check(t, got, "0001", "0002")
		if want := dec("403"); !got.Prices.PND.Equal(want) { // 2 × 200 + 3 × 1
			t.Errorf("pnd %s, want %s", got.Prices.PND, want)
		}
	})
	t.Run("remove_items, the composition changed", func(t *testing.T) {
		pf := newPreparedFixture(t)
		pf.hs.before = func() {
			if _, err := pf.other.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: "0002", Kind: domain.KindResource, Quantity: dec("3")}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := pf.svc.RemoveItems(ctx, pf.p, pf.comp, []app.ItemRef{{Bank: "SINAPI", Code: "0001"}})
		if err != nil {
			t.Fatal(err)
		}
		pf.check(t, got, "0002")
	})
	t.Run("an item removed meanwhile is an error", func(t *testing.T) {
		pf := newPreparedFixture(t)
		pf.hs.before = func() {
			if _, err := pf.other.RemoveItems(ctx, pf.p, pf.comp, []app.ItemRef{{Bank: "SINAPI", Code: "0001"}}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := pf.svc.RemoveItems(ctx, pf.p, pf.comp, []app.ItemRef{{Bank: "SINAPI", Code: "0001"}})
		if domain.ErrorCode(err) != domain.EINVALID {
			t.Fatalf("removing an item no longer there: %v, want EINVALID", err)
		}
		pf.check(t, mustComposition(t, pf))
	})
	t.Run("an own resource's price changed", func(t *testing.T) {
		pf := newPreparedFixture(t)
		r, err := pf.other.CreateResource(ctx, pf.p, app.ResourceInput{Code: "R1", Description: "d", Type: 4, Unit: "UN",
			Locals: map[string]domain.PriceLine{"MG": {PND: dec("10"), PD: dec("10"), PNDI: dec("10"), PDI: dec("10")}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pf.other.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "MYBASE", Code: "R1", Kind: domain.KindResource, Quantity: dec("1")}}); err != nil {
			t.Fatal(err)
		}
		pf.hs.before = func() {
			if _, err := pf.other.UpdateResource(ctx, pf.p, r.ID, app.ResourcePatch{Locals: map[string]domain.PriceLine{"MG": {PND: dec("50"), PD: dec("50"), PNDI: dec("50"), PDI: dec("50")}}}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := pf.svc.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: "0002", Kind: domain.KindResource, Quantity: dec("1")}})
		if err != nil {
			t.Fatal(err)
		}
		pf.check(t, got, "0001", "R1", "0002")
		if want := dec("290.83"); !got.Prices.PND.Equal(want) { // 2 × 120 + 50 + 0.83
			t.Errorf("pnd %s, want %s", got.Prices.PND, want)
		}
	})
}

func mustComposition(t *testing.T, pf *preparedFixture) *domain.PricedComposition {
	t.Helper()
	pc, err := pf.svc.Composition(ctx, pf.p, pf.comp)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// TestCompositionCacheAnswersAsStored: a run of add_items and remove_items
// on one composition, each prepared from the composition kept by the
// previous one (the cache, write-through) rather than decoded again,
// answers each time what a read of the stored composition by another
// service answers, and stores it: quantities of every exponent, items
// added, replaced and removed.
func TestCompositionCacheAnswersAsStored(t *testing.T) {
	pf := newPreparedFixture(t)
	r := rand.New(rand.NewPCG(21, 8))
	have := []string{"0001"}
	codes := []struct {
		code string
		kind domain.ItemKind
	}{{"0001", domain.KindResource}, {"0002", domain.KindResource}, {"88309", domain.KindComposition}}
	for i := range 60 {
		x := codes[r.IntN(len(codes))]
		var got *domain.PricedComposition
		var err error
		if r.IntN(3) == 0 && len(have) > 1 {
			k := r.IntN(len(have))
			kind := domain.KindResource
			if have[k] == "88309" {
				kind = domain.KindComposition
			}
			got, err = pf.svc.RemoveItems(ctx, pf.p, pf.comp, []app.ItemRef{{Bank: "SINAPI", Code: have[k], Kind: kind}})
			have = append(have[:k:k], have[k+1:]...)
		} else {
			q := decimal.New(r.Int64N(1_000_000)+1, int32(r.IntN(7)-5)) // 10^-5 … 10^1
			got, err = pf.svc.AddItems(ctx, pf.p, pf.comp, []app.ItemInput{{Bank: "SINAPI", Code: x.code, Kind: x.kind, Quantity: q}})
			if !slices.Contains(have, x.code) {
				have = append(have, x.code)
			}
		}
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		pf.check(t, got, have...)
	}
	if hits := storecache.CompositionCacheHits(pf.speed); hits < 30 {
		t.Fatalf("%d changes of 60 took the kept composition", hits)
	}
}
