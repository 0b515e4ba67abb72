package app

import (
	"context"

	"github.com/costdb/costdb/domain"
)

// Prepared composition writes (issue 11, R2). Writers are serialised (one
// bbolt write transaction at a time, group-committed), so whatever a write
// transaction computes limits every writer. AddItems and RemoveItems
// therefore do their work — reading and decoding the composition, resolving
// the items, pricing it and checking its bounds — first in a read
// transaction, outside the writer, and the write transaction only checks
// that nothing that work read has changed and puts the result. When
// something has changed, or the work read what cannot be checked cheaply,
// the write transaction does it all again itself, as before; so the answer
// is always the one the write transaction would have computed.
//
// What the work reads, when the composition has no item of the company's
// own base: the composition (checked by its stored bytes, CompositionStamp)
// and bank records (checked by the global write generation, which every
// change to a bank record bumps in its transaction: generation.go).
// Nothing else: a composition with an own item, or an item resolved from
// the own base, reads the company's own records, and is not prepared.

// compositionStamper returns the store's stamper under the Service's own
// wrappers (generation.go, bankmemo.go), if it has one.
func compositionStamper(tx Tx) (CompositionStamper, bool) {
	st, ok := storeTx(tx).(CompositionStamper)
	return st, ok
}

// preparedChange is a composition change computed in a read transaction.
type preparedChange struct {
	c      *domain.Composition
	out    *domain.PricedComposition
	stamp  []byte // the composition's stored bytes it was computed from
	global uint64 // the global generation it read bank records at
}

// prepareChange computes change on the composition id and prices it in a
// read transaction. It returns nil when the change cannot be prepared: the
// store keeps no stamps, the request carries rejected fields, the work read
// the company's own records, or it failed (the write transaction then does
// it again and answers the error as it always has).
func (s *Service) prepareChange(ctx context.Context, p domain.Principal, id string, change func(Tx, *domain.Composition) error) *preparedChange {
	rs, _ := s.store.(rejectingStore)
	if len(rejected(ctx)) > 0 || rs.noStamps == nil || rs.noStamps.Load() {
		return nil
	}
	var pc *preparedChange
	err := s.store.View(ctx, func(tx Tx) error {
		st, ok := compositionStamper(tx)
		if !ok {
			rs.noStamps.Store(true)
			return nil
		}
		stamp, err := st.CompositionStamp(id)
		if err != nil || stamp == nil {
			return err
		}
		global, err := readCounter(tx, genGlobalKey)
		if err != nil {
			return err
		}
		c := s.comps.get(id, stamp) // the record as decoded, if kept (compcache.go)
		if c == nil || c.CompanyID != p.CompanyID {
			if c, err = s.composition(tx, p, id); err != nil {
				return err
			}
			s.comps.put(id, stamp, c)
		}
		g := &ownGuard{Tx: tx}
		if err := change(g, c); err != nil || g.own || hasOwnItem(c) {
			return err
		}
		out, err := price(g, p, c)
		if err != nil || g.own {
			return err
		}
		if err := out.CheckBounds(); err != nil {
			return err
		}
		pc = &preparedChange{c: c, out: out, stamp: stamp, global: global}
		return nil
	})
	if err != nil {
		return nil
	}
	return pc
}

// current reports whether what pc was computed from is still what tx
// reads: the same stored composition and the same bank records.
func (pc *preparedChange) current(tx Tx) (bool, error) {
	st, ok := compositionStamper(tx)
	if !ok {
		return false, nil
	}
	global, err := readCounter(tx, genGlobalKey)
	if err != nil || global != pc.global {
		return false, err
	}
	return st.CompositionStamped(pc.c.ID, pc.stamp)
}

func hasOwnItem(c *domain.Composition) bool {
	for _, it := range c.Items {
		if it.IsOwn() {
			return true
		}
	}
	return false
}

// ownGuard is a read transaction that notes whether the company's own
// resources or compositions were read through it. It keeps the bank memo
// of the transaction it wraps.
type ownGuard struct {
	Tx
	own bool
}

func (g *ownGuard) ResourceByCode(companyID, code string) (*domain.Resource, error) {
	g.own = true
	return g.Tx.ResourceByCode(companyID, code)
}

func (g *ownGuard) CompositionByCode(companyID, code, state string) (*domain.Composition, error) {
	g.own = true
	return g.Tx.CompositionByCode(companyID, code, state)
}

func (g *ownGuard) bankMemo() (*bankMemo, uint64, bool, bool) {
	if m, ok := g.Tx.(memoizing); ok {
		return m.bankMemo()
	}
	return nil, 0, false, false
}

// changePrepared is changeComposition for a change that reads nothing but
// the composition and bank records (AddItems, RemoveItems): prepared
// outside the writer when it can be.
func (s *Service) changePrepared(ctx context.Context, p domain.Principal, id string, change func(Tx, *domain.Composition) error) (*domain.PricedComposition, error) {
	pc := s.prepareChange(ctx, p, id, change)
	if pc == nil {
		return s.changeComposition(ctx, p, id, change)
	}
	var out *domain.PricedComposition
	var stored []byte // what the prepared change stored
	err := s.store.Update(ctx, func(tx Tx) error {
		stored = nil
		ok, err := pc.current(tx)
		if err != nil {
			return err
		}
		if ok {
			out = pc.out
			if err := tx.PutComposition(pc.c); err != nil {
				return err
			}
			if st, ok := compositionStamper(tx); ok {
				stored, err = st.CompositionStamp(id)
			}
			return err
		}
		out, err = s.changeIn(tx, p, id, change)
		return err
	})
	if err == nil {
		s.comps.put(id, stored, pc.c) // committed: the next change need not decode it
	}
	return out, err
}
