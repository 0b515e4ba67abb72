package storecache

import (
	"sync"

	"github.com/costdb/costdb/app"
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
// The records are shared between the transactions that read them: bank
// records are read only (app.Tx).
type bankMemo struct {
	mu    sync.RWMutex
	gen   uint64
	res   map[bankKey]memoEntry[domain.BankResource]
	comp  map[bankKey]memoEntry[domain.BankComposition]
	bytes int // the entries' estimated sizes (bankmemosize.go)
}

type bankKey struct{ edition, code string }

// memoEntry is a record read, or the not-found error the store answered.
type memoEntry[T any] struct {
	v    *T
	err  error
	size int // estimated (bankmemosize.go)
}

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

// put remembers an entry of the estimated size (set stores it; it returns
// the size of the entry it replaced, 0 if none) read at generation gen.
// When the entry would take the memo past maxBankMemoBytes the memo starts
// over; an entry larger than a quarter of it is not kept.
func (m *bankMemo) put(gen uint64, size int, set func() (replaced int)) {
	if size > maxBankMemoBytes/4 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen < m.gen {
		return // an older snapshot's reader
	}
	if gen > m.gen || m.bytes+size > maxBankMemoBytes {
		m.gen, m.bytes = gen, 0
		m.res, m.comp = map[bankKey]memoEntry[domain.BankResource]{}, map[bankKey]memoEntry[domain.BankComposition]{}
	}
	m.bytes += size - set()
}

// replace stores e under k in table and returns the size of the entry it
// replaced (0 if none).
func replace[T any](table map[bankKey]memoEntry[T], k bankKey, e memoEntry[T]) int {
	old := table[k].size
	table[k] = e
	return old
}

// readTx is a read transaction that reads bank records through the memo.
type readTx struct {
	app.Tx
	memo      *bankMemo
	contracts *contractCache
	reads     *Reads // nil: not noted (reads.go)
	gen       uint64
	genErr    error
	read      bool
}

var _ app.TxDecorator = (*readTx)(nil)

// Unwrap is app.TxDecorator: the store's transaction.
func (t *readTx) Unwrap() app.Tx { return t.Tx }

// generation returns the global generation the transaction reads.
func (t *readTx) generation() (uint64, bool) {
	if !t.read {
		t.gen, t.genErr = readCounter(t.Tx, genGlobalKey)
		t.read = true
	}
	return t.gen, t.genErr == nil
}

func (t *readTx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	gen, ok := t.generation()
	return memoResource(t.memo, gen, ok, true, t.Tx, editionKey, code)
}

func (t *readTx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	gen, ok := t.generation()
	return memoComposition(t.memo, gen, ok, true, t.Tx, editionKey, code)
}

// A write transaction only reads the memo, never fills it: a store may run
// several Updates in one transaction (boltstore's group commit), and what an
// earlier one wrote, which this one sees, may yet be rolled back. Once it
// has written bank records itself it reads them from the store.

func (t *writeTx) generation() (uint64, bool) {
	if t.global {
		return 0, false
	}
	if !t.genRead {
		t.gen, t.genErr = readCounter(t.Tx, genGlobalKey)
		t.genRead = true
	}
	return t.gen, t.genErr == nil
}

func (t *writeTx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	gen, ok := t.generation()
	return memoResource(t.memo, gen, ok, false, t.Tx, editionKey, code)
}

func (t *writeTx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	gen, ok := t.generation()
	return memoComposition(t.memo, gen, ok, false, t.Tx, editionKey, code)
}

// memoResource reads a bank resource of tx, whose global generation is gen
// (ok: it could be read), from the memo, filling it when fill.
func memoResource(m *bankMemo, gen uint64, ok, fill bool, tx app.Tx, editionKey, code string) (*domain.BankResource, error) {
	if !ok {
		return tx.BankResource(editionKey, code)
	}
	k := bankKey{editionKey, code}
	if e, hit := memoGet(m, gen, func() map[bankKey]memoEntry[domain.BankResource] { return m.res }, k); hit {
		return e.v, e.err
	}
	v, err := tx.BankResource(editionKey, code)
	if fill && (err == nil || domain.ErrorCode(err) == domain.ENOTFOUND) {
		size := bankResourceBytes(k, v)
		m.put(gen, size, func() int { return replace(m.res, k, memoEntry[domain.BankResource]{v, err, size}) })
	}
	return v, err
}

// memoComposition is memoResource for a bank composition.
func memoComposition(m *bankMemo, gen uint64, ok, fill bool, tx app.Tx, editionKey, code string) (*domain.BankComposition, error) {
	if !ok {
		return tx.BankComposition(editionKey, code)
	}
	k := bankKey{editionKey, code}
	if e, hit := memoGet(m, gen, func() map[bankKey]memoEntry[domain.BankComposition] { return m.comp }, k); hit {
		return e.v, e.err
	}
	v, err := tx.BankComposition(editionKey, code)
	if fill && (err == nil || domain.ErrorCode(err) == domain.ENOTFOUND) {
		size := bankCompositionBytes(k, v)
		m.put(gen, size, func() int { return replace(m.comp, k, memoEntry[domain.BankComposition]{v, err, size}) })
	}
	return v, err
}
