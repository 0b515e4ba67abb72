package storecache

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"unsafe"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// bankTx answers every bank composition asked with comp (of that code)
// and every bank resource with res.
type bankTx struct {
	app.Tx
	comp *domain.BankComposition
	res  *domain.BankResource
}

func (t bankTx) BankComposition(_, code string) (*domain.BankComposition, error) {
	c := *t.comp
	c.Code = code
	return &c, nil
}

func (t bankTx) BankResource(_, code string) (*domain.BankResource, error) {
	r := *t.res
	r.Code = code
	return &r, nil
}

func bankComposition(items int) *domain.BankComposition {
	c := &domain.BankComposition{Description: "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS", Unit: "M2", Class: "ALVE",
		Cost: domain.UnitPrice{PND: decimal.RequireFromString("123.45"), PD: decimal.RequireFromString("120.01")}}
	for j := range items {
		c.Items = append(c.Items, domain.StructureItem{Kind: domain.KindResource, Code: fmt.Sprintf("%05d", j), Coefficient: decimal.RequireFromString("0.1234567")})
	}
	return c
}

// memoSize is the sum of the estimates of the entries the memo holds.
func memoSize(m *bankMemo) (entries, bytes int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for k, e := range m.res {
		entries, bytes = entries+1, bytes+bankResourceBytes(k, e.v)
	}
	for k, e := range m.comp {
		entries, bytes = entries+1, bytes+bankCompositionBytes(k, e.v)
	}
	return entries, bytes
}

// TestBankMemoBytes: the memo fed more than its bound holds at most its
// bound, counted by its estimates, whatever the records' sizes: it keeps
// far fewer compositions of 1,000 items than of 5, a record read again is
// counted once, and one larger than a quarter of the bound is not kept.
func TestBankMemoBytes(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, est uintptr
	}{
		{"domain.BankResource", unsafe.Sizeof(domain.BankResource{}), resourceStruct},
		{"domain.BankComposition", unsafe.Sizeof(domain.BankComposition{}), compositionStruct},
		{"domain.StructureItem", unsafe.Sizeof(domain.StructureItem{}), structureItemStruct},
	} {
		if c.size > c.est {
			t.Errorf("%s is %d bytes, the estimate counts %d", c.name, c.size, c.est)
		}
	}
	m := newBankMemo()
	tx := bankTx{comp: bankComposition(5), res: &domain.BankResource{Description: "CIMENTO PORTLAND", Unit: "KG",
		Prices: domain.PriceLine{PND: decimal.RequireFromString("1.5"), PD: decimal.RequireFromString("1.4")}}}
	check := func(step string) (entries int) {
		t.Helper()
		entries, bytes := memoSize(m)
		if bytes != m.bytes {
			t.Fatalf("%s: the memo counts %d bytes, its entries' estimates sum to %d", step, m.bytes, bytes)
		}
		if bytes > maxBankMemoBytes {
			t.Fatalf("%s: %d bytes kept, bound %d", step, bytes, maxBankMemoBytes)
		}
		return entries
	}
	fed, small, large := 0, 0, 0 // the most entries kept at once
	for i := 0; fed <= 2*maxBankMemoBytes; i++ {
		code := strconv.Itoa(i)
		if _, err := memoResource(m, 1, true, true, tx, "SINAPI/MG/08-2026", code); err != nil {
			t.Fatal(err)
		}
		if _, err := memoComposition(m, 1, true, true, tx, "SINAPI/MG/08-2026", code); err != nil {
			t.Fatal(err)
		}
		fed += bankResourceBytes(bankKey{"SINAPI/MG/08-2026", code}, tx.res) + bankCompositionBytes(bankKey{"SINAPI/MG/08-2026", code}, tx.comp)
		if i%1000 == 0 {
			small = max(small, check("small records"))
		}
	}
	check("small records")

	tx.comp = bankComposition(1000)
	m = newBankMemo()
	for i, fed := 0, 0; fed <= 2*maxBankMemoBytes; i++ {
		code := "L" + strconv.Itoa(i)
		if _, err := memoComposition(m, 1, true, true, tx, "SINAPI/MG/08-2026", code); err != nil {
			t.Fatal(err)
		}
		fed += bankCompositionBytes(bankKey{"SINAPI/MG/08-2026", code}, tx.comp)
		large = max(large, check("large compositions"))
	}
	if large == 0 || large*50 > small {
		t.Errorf("kept %d small records and %d large compositions: the bound is in bytes, not entries", small, large)
	}

	// An entry stored again (two readers of the same generation missed it
	// at once) is counted once.
	var kept bankKey
	for k := range m.comp {
		kept = k
		break
	}
	again := m.comp[kept]
	before := m.bytes
	m.put(1, again.size, func() int { return replace(m.comp, kept, again) })
	if m.bytes != before {
		t.Errorf("an entry stored again: %d bytes counted, was %d", m.bytes, before)
	}
	check("an entry stored again")

	tx.comp = bankComposition(maxBankMemoBytes / 4 / (structureItemStruct + decimalBytes))
	if _, err := memoComposition(m, 1, true, true, tx, "SINAPI/MG/08-2026", "HUGE"); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.comp[bankKey{"SINAPI/MG/08-2026", "HUGE"}]; ok {
		t.Errorf("a composition over a quarter of the bound was kept")
	}
	check("a huge composition")
}

// TestBankMemoEstimate checks the estimates against the heap the memo
// takes when it keeps records decoded by a store (measured through
// runtime/metrics): within 0.7 to 1.5 times, so that the bound in bytes
// is the memory it holds.
func TestBankMemoEstimate(t *testing.T) {
	st, err := boltstore.Open(t.TempDir()+"/memo.db", boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ed := app.EditionData{Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}}}
	const n = 5000
	for i := range n {
		ed.Resources = append(ed.Resources, &domain.BankResource{Code: fmt.Sprintf("%05d", i), Description: "CIMENTO PORTLAND COMPOSTO CP II-32", Unit: "KG", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: decimal.RequireFromString("12.34"), PD: decimal.RequireFromString("11.22")}})
		c := bankComposition(20)
		c.Code = fmt.Sprintf("%06d", i)
		ed.Compositions = append(ed.Compositions, c)
	}
	if _, err := app.New(st, nil, app.Config{}).ImportEditions(context.Background(), []app.EditionData{ed}); err != nil {
		t.Fatal(err)
	}
	key := ed.Edition.Key()
	heap := func() int64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	for _, kind := range []string{"resources", "compositions"} {
		for round := range 2 { // the first round also warms the store's own buffers
			m := newBankMemo()
			before := heap()
			err := st.View(context.Background(), func(tx app.Tx) error {
				for i := range n {
					var err error
					if kind == "resources" {
						_, err = memoResource(m, 1, true, true, tx, key, fmt.Sprintf("%05d", i))
					} else {
						_, err = memoComposition(m, 1, true, true, tx, key, fmt.Sprintf("%06d", i))
					}
					if err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			held := heap() - before
			runtime.KeepAlive(m)
			if round == 0 {
				continue
			}
			ratio := float64(m.bytes) / float64(held)
			t.Logf("%s: %d B an entry estimated, %d B held (ratio %.2f)", kind, m.bytes/n, held/n, ratio)
			if ratio < 0.7 || ratio > 1.5 {
				t.Errorf("%s: estimated %d bytes, the heap holds %d (ratio %.2f)", kind, m.bytes, held, ratio)
			}
		}
	}
}
