package storecache

import (
	"context"
	"errors"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Prepared writes (issue 11, R2; app.PreparedUpdater). Writers are
// serialised (one write transaction at a time), so whatever a write
// transaction computes limits every writer. UpdatePrepared therefore runs
// the write's work — for AddItems and RemoveItems: reading and decoding the
// composition, resolving the items, pricing it and checking its bounds —
// first in a read transaction, outside the writer, on a recordingTx that
// notes what it read and keeps what it would write; the write transaction
// then only checks that nothing read has changed and puts what was kept.
// When something has changed, or the work read what cannot be checked
// cheaply, the write transaction runs the work again itself; so the effect
// is always the one the write transaction would have had (app.Store allows a
// store to run fn more than once: the last run counts).
//
// What can be checked cheaply: a composition read by its ID (its stamp,
// app.CompositionStamper, which both stores keep), the records that are
// not a company's (bank records, editions, settings: every change to them
// bumps the global write generation in its transaction, generation.go),
// and a company's own resources read by code (every change to the
// company's records but its compositions bumps the company's generation).
// Anything else read — a company's own compositions by code, for an own
// item — makes the write transaction run the work itself, as does any
// write but the put of a composition read.

// UpdatePrepared is app.PreparedUpdater.
func (s *Store) UpdatePrepared(ctx context.Context, fn func(app.Tx) error) error {
	w := s.prepare(ctx, fn)
	if w == nil {
		return s.Update(ctx, fn)
	}
	var stored []byte // the stamp of what the prepared write put
	err := s.Store.Update(ctx, func(stx app.Tx) error {
		stored = nil
		tx := newWriteTx(stx, s.memo)
		st, ok, err := w.current(stx)
		if err != nil {
			return err
		}
		if !ok {
			if err := fn(tx); err != nil {
				return err
			}
			return tx.bump()
		}
		if w.put != nil {
			// Over the version fn read, whose stamp current checked: the
			// store may write only what changed (app.CompositionBasePutter).
			if err := tx.PutCompositionOver(w.bases[w.put.ID], w.stamps[w.put.ID], w.put); err != nil {
				return err
			}
			if stored, err = st.CompositionStamp(w.put.ID); err != nil {
				return err
			}
		}
		return tx.bump()
	})
	if err == nil && stored != nil {
		s.comps.put(w.put.ID, stored, w.put) // committed: the next change need not decode it
	}
	return err
}

// preparedWrite is what fn read and wrote on a snapshot.
type preparedWrite struct {
	stamper app.CompositionStamper // the snapshot's
	global  uint64                 // the global generation it read at
	stamps  map[string][]byte      // the compositions it read, by ID
	// bases are the compositions it read as stored (under stamps), by ID:
	// copies fn does not change.
	bases map[string]*domain.Composition
	// companies are the generations of the companies whose records (but
	// compositions) it read, as the snapshot had them.
	companies map[string]uint64
	put       *domain.Composition
}

// prepare runs fn on a read transaction. It returns nil when the write
// cannot be prepared: the store keeps no stamps, fn read or wrote what
// cannot be checked, or fn failed (the write transaction then runs it again
// and answers its error as it always has).
func (s *Store) prepare(ctx context.Context, fn func(app.Tx) error) *preparedWrite {
	var w *preparedWrite
	err := s.Store.View(ctx, func(stx app.Tx) error {
		w = nil
		st, ok := app.Optional[app.CompositionStamper](stx)
		if !ok {
			return nil
		}
		// The global generation is read when fn first needs it (a bank
		// record), or after fn: the snapshot is the same either way, and
		// fn's first read (the composition's stamp) then carries the
		// transaction's start on PostgreSQL, the counter coming with it
		// among the settings read ahead: one round trip fewer.
		rt := &recordingTx{read: &readTx{Tx: stx, memo: s.memo}, comps: s.comps,
			w: &preparedWrite{stamper: st, stamps: map[string][]byte{}, bases: map[string]*domain.Composition{},
				companies: map[string]uint64{}}}
		if err := fn(rt); err != nil || rt.refused {
			return nil
		}
		global, ok := rt.read.generation()
		if !ok {
			return rt.read.genErr
		}
		rt.w.global = global
		w = rt.w
		return nil
	})
	if err != nil {
		return nil
	}
	return w
}

// current reports whether what w was computed from is still what tx reads:
// the same stored compositions and the same records of no company. It
// returns tx's stamper.
func (w *preparedWrite) current(tx app.Tx) (app.CompositionStamper, bool, error) {
	st, ok := app.Optional[app.CompositionStamper](tx)
	if !ok {
		return nil, false, nil
	}
	global, err := readCounter(tx, genGlobalKey)
	if err != nil || global != w.global {
		return nil, false, err
	}
	for id, gen := range w.companies {
		if n, err := readCounter(tx, genCompanyKey+id); err != nil || n != gen {
			return nil, false, err
		}
	}
	for id, stamp := range w.stamps {
		if ok, err := st.CompositionStamped(id, stamp); err != nil || !ok {
			return nil, false, err
		}
	}
	return st, true, nil
}

// errRefused is what a recordingTx answers for what it cannot check.
var errRefused = errors.New("storecache: not read in a prepared write")

// recordingTx is the transaction a prepared write runs on: it answers the
// reads that can be checked in the write transaction, noting them, keeps
// the put of a composition it read, and refuses anything else (refused is
// then set, whatever fn does with the error). It offers none of the
// optional parts of a store's transaction and unwraps to nothing: what it
// cannot check it does not read.
type recordingTx struct {
	refusingTx
	read  *readTx // the snapshot, through the bank memo
	comps *compositionCache
	w     *preparedWrite
}

func (t *recordingTx) refuse() error { return t.no() }

// Composition reads a composition by its ID, decoded from the cache when
// its stamp is the one kept (compcache.go).
func (t *recordingTx) Composition(id string) (*domain.Composition, error) {
	if t.w.put != nil && t.w.put.ID == id {
		return nil, t.refuse()
	}
	stamp, err := t.w.stamper.CompositionStamp(id)
	if err != nil || stamp == nil {
		return nil, t.refuse() // a failure or no such composition: the writer answers
	}
	c := t.comps.get(id, stamp)
	if c == nil {
		if c, err = t.read.Composition(id); err != nil {
			return nil, t.refuse()
		}
		t.comps.put(id, stamp, c)
	} else if pf, ok := app.Optional[app.ResourcePrefetcher](t.read.Tx); ok {
		// Kept decoded, its own resources were not read with it: read
		// them in one go for the pricing that follows.
		if codes := c.OwnResourceCodes(); len(codes) > 0 {
			if err := pf.PrefetchResources(c.CompanyID, codes); err != nil {
				return nil, t.refuse()
			}
		}
	}
	t.w.stamps[id] = stamp
	t.w.bases[id] = c.Clone()
	return c, nil
}

// A company's own resources: checked by the company's generation, which
// every write of its records but compositions bumps (generation.go). A
// resource read, or found missing, by its code notes the company's
// generation as the snapshot has it; the write transaction checks it is
// still that one.

func (t *recordingTx) noteCompany(companyID string) error {
	if _, ok := t.w.companies[companyID]; ok || companyID == "" {
		return nil
	}
	n, err := readCounter(t.read.Tx, genCompanyKey+companyID)
	if err != nil {
		return t.refuse()
	}
	t.w.companies[companyID] = n
	return nil
}

func (t *recordingTx) ResourceByCode(companyID, code string) (*domain.Resource, error) {
	if companyID == "" {
		return nil, t.refuse()
	}
	if err := t.noteCompany(companyID); err != nil {
		return nil, err
	}
	r, err := t.read.ResourceByCode(companyID, code)
	if err != nil && domain.ErrorCode(err) != domain.ENOTFOUND {
		return nil, t.refuse()
	}
	return r, err
}

// PutComposition keeps the put of a composition read before.
func (t *recordingTx) PutComposition(c *domain.Composition) error {
	if c == nil || t.w.put != nil || t.w.stamps[c.ID] == nil {
		return t.refuse()
	}
	t.w.put = c
	return nil
}

// The records of no company: checked by the global generation.

func (t *recordingTx) Setting(key string) ([]byte, error) {
	if strings.HasPrefix(key, "gen/") {
		return nil, t.refuse() // a generation: not the global one alone
	}
	return t.read.Setting(key)
}
func (t *recordingTx) Edition(key string) (*domain.Edition, error) {
	return t.read.Edition(key)
}
func (t *recordingTx) Editions() ([]*domain.Edition, error) { return t.read.Editions() }
func (t *recordingTx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	return t.read.BankResource(editionKey, code)
}
func (t *recordingTx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	return t.read.BankComposition(editionKey, code)
}
func (t *recordingTx) BankResources(editionKey string) ([]*domain.BankResource, error) {
	return t.read.BankResources(editionKey)
}
func (t *recordingTx) BankCompositions(editionKey string) ([]*domain.BankComposition, error) {
	return t.read.BankCompositions(editionKey)
}
