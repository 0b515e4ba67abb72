package app

import (
	"context"
	"sync"

	"github.com/costdb/costdb/domain"
)

// bankMemo keeps decoded bank records across requests (issue 11: decoding
// the stored records again for every price lookup was a third of a read).
// Bank records change only by an import, which bumps the global write
// generation in its transaction (generation.go); an entry is kept under the
// generation the transaction that read it saw, and used only by a
// transaction that reads the same generation, so it is exact on any store
// and across servers. When a newer generation is seen the memo starts over.
// A transaction that writes bank records itself does not use it.
//
// The records are shared between the transactions that read them: the
// pricers only read them (domain's own memoSource shares them the same way).
type bankMemo struct {
	mu    sync.RWMutex
	gen   uint64
	res   map[bankKey]memoEntry[domain.BankResource]
	comp  map[bankKey]memoEntry[domain.BankComposition]
	count int
}

type bankKey struct{ edition, code string }

// memoEntry is a record read, or the not-found error the store answered.
type memoEntry[T any] struct {
	v   *T
	err error
}

// maxBankMemo bounds the entries; when full the memo starts over.
const maxBankMemo = 500_000

func newBankMemo() *bankMemo {
	return &bankMemo{res: map[bankKey]memoEntry[domain.BankResource]{}, comp: map[bankKey]memoEntry[domain.BankComposition]{}}
}

func memoGet[T any](m *bankMemo, gen uint64, table func() map[bankKey]memoEntry[T], k bankKey) (memoEntry[T], bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.gen != gen {
		return memoEntry[T]{}, false
	}
	v, ok := table()[k]
	return v, ok
}

// put remembers v (nil: not found) read at generation gen.
func (m *bankMemo) put(gen uint64, set func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen < m.gen {
		return // an older snapshot's reader
	}
	if gen > m.gen || m.count >= maxBankMemo {
		m.gen, m.count = gen, 0
		m.res, m.comp = map[bankKey]memoEntry[domain.BankResource]{}, map[bankKey]memoEntry[domain.BankComposition]{}
	}
	set()
	m.count++
}

// memoTx is a read transaction that can use the memo.
type memoTx struct {
	Tx
	memo   *bankMemo
	gen    uint64
	genErr error
	read   bool
}

func (t *memoTx) bankMemo() (*bankMemo, uint64, bool, bool) {
	if !t.read {
		t.gen, t.genErr = readCounter(t.Tx, genGlobalKey)
		t.read = true
	}
	return t.memo, t.gen, t.genErr == nil, true
}

// bankMemo of a write transaction only reads the memo, never fills it: a
// store may run several Updates in one transaction (boltstore's group
// commit), and what an earlier one wrote, which this one sees, may yet be
// rolled back.
func (t *genTx) bankMemo() (*bankMemo, uint64, bool, bool) {
	if t.memo == nil || t.global {
		return nil, 0, false, false
	}
	if !t.genRead {
		t.gen, t.genErr = readCounter(t.Tx, genGlobalKey)
		t.genRead = true
	}
	return t.memo, t.gen, t.genErr == nil, false
}

type memoizing interface {
	// bankMemo returns the memo, the global generation the transaction
	// reads, whether it may be used, and whether it may be filled.
	bankMemo() (m *bankMemo, gen uint64, ok, fill bool)
}

// View runs fn in a read transaction that can use the bank memo.
func (s rejectingStore) View(ctx context.Context, fn func(Tx) error) error {
	if s.memo == nil {
		return s.Store.View(ctx, fn)
	}
	return s.Store.View(ctx, func(tx Tx) error { return fn(&memoTx{Tx: tx, memo: s.memo}) })
}

func (s source) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	key := ref.EditionKey()
	m, gen, ok, fill := memoOf(s.tx)
	if !ok {
		return s.tx.BankResource(key, code)
	}
	k := bankKey{key, code}
	if e, hit := memoGet(m, gen, func() map[bankKey]memoEntry[domain.BankResource] { return m.res }, k); hit {
		return e.v, e.err
	}
	v, err := s.tx.BankResource(key, code)
	if fill && (err == nil || isNotFound(err)) {
		m.put(gen, func() { m.res[k] = memoEntry[domain.BankResource]{v, err} })
	}
	return v, err
}

func (s source) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	key := ref.EditionKey()
	m, gen, ok, fill := memoOf(s.tx)
	if !ok {
		return s.tx.BankComposition(key, code)
	}
	k := bankKey{key, code}
	if e, hit := memoGet(m, gen, func() map[bankKey]memoEntry[domain.BankComposition] { return m.comp }, k); hit {
		return e.v, e.err
	}
	v, err := s.tx.BankComposition(key, code)
	if fill && (err == nil || isNotFound(err)) {
		m.put(gen, func() { m.comp[k] = memoEntry[domain.BankComposition]{v, err} })
	}
	return v, err
}

func memoOf(tx Tx) (*bankMemo, uint64, bool, bool) {
	mt, ok := tx.(memoizing)
	if !ok {
		return nil, 0, false, false
	}
	m, gen, ok, fill := mt.bankMemo()
	return m, gen, ok && m != nil, fill
}
