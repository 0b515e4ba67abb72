// Package storecache is costdb's speed layer, kept out of the use cases: a
// decorator of the storage port (app.Store) that the program wires between
// the store and app.Service. It
//
//   - bumps, in every write transaction, the write generations of what the
//     transaction changed (generation.go), which the HTTP adapter reads
//     (Generation, Authorize) to tag answers and keep them in its response
//     cache;
//   - keeps decoded bank records across transactions while no import has
//     changed them (bankmemo.go);
//   - runs the writes that read little (app.PreparedUpdater: adding or
//     removing composition items) first on a snapshot, outside the
//     serialised writer, with the decoded compositions kept by their stamps
//     (prepared.go, compcache.go);
//   - reads the generations of concurrent requests in one store read and
//     authorizes a token from a user cache kept under them (genread.go).
//
// Everything it keeps is checked against counters or stamps that live in the
// store, so it is exact across servers sharing a store. That holds only if
// every program that writes the store writes through it: a write made around
// it bumps no generation.
package storecache

import (
	"context"

	"github.com/costdb/costdb/app"
)

// Store is the speed layer over a store. It is an app.Store and an
// app.PreparedUpdater; it is safe for concurrent use.
type Store struct {
	app.Store
	memo  *bankMemo
	comps *compositionCache
	gens  *genReader
	users *userCache
	// contracts keeps decoded contracts (contractcache.go).
	contracts *contractCache
}

var (
	_ app.Store           = (*Store)(nil)
	_ app.PreparedUpdater = (*Store)(nil)
)

// New returns the speed layer over base; base itself when it is one.
func New(base app.Store) *Store {
	if s, ok := base.(*Store); ok {
		return s
	}
	return &Store{Store: base, memo: newBankMemo(), comps: newCompositionCache(), gens: newGenReader(base), users: newUserCache(), contracts: newContractCache()}
}

// View runs fn in a read transaction of the store that reads bank records
// through the memo.
func (s *Store) View(ctx context.Context, fn func(app.Tx) error) error {
	reads := readsFrom(ctx)
	return s.Store.View(ctx, func(tx app.Tx) error {
		return fn(&readTx{Tx: tx, memo: s.memo, contracts: s.contracts, reads: reads})
	})
}

// Update runs fn in a write transaction of the store and, when fn succeeds,
// bumps in it the generations of what fn changed.
func (s *Store) Update(ctx context.Context, fn func(app.Tx) error) error {
	return s.Store.Update(ctx, func(stx app.Tx) error {
		tx := newWriteTx(stx, s.memo)
		if err := fn(tx); err != nil {
			return err
		}
		return tx.bump()
	})
}
