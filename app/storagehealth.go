package app

import (
	"sync/atomic"

	"github.com/costdb/costdb/domain"
)

// StorageHealth is what a store remembers of its last write, for its Ping:
// after a write failed because the storage is full (ESTORAGEFULL), Err
// returns that error until a write commits again. A store calls Wrote with
// the outcome of every write transaction and answers Ping with Err, so
// that readiness (/readyz) says the server cannot store while it cannot,
// and says it can again after the first write that succeeds. The zero
// value is healthy; it is safe for concurrent use.
//
// The rule lives here so that both engines keep it alike; each engine only
// says which of its errors mean "full" (boltstore: ENOSPC, EDQUOT;
// pgstore: SQLSTATE 53100).
type StorageHealth struct {
	full atomic.Pointer[domain.Error]
}

// Wrote notes the outcome of a write transaction: nil (committed) clears
// the fault, an ESTORAGEFULL error sets it, any other error leaves it as
// it is (a write refused for bad input says nothing about the disk).
func (h *StorageHealth) Wrote(err error) {
	switch domain.ErrorCode(err) {
	case "":
		if h.full.Load() != nil {
			h.full.Store(nil)
		}
	case domain.ESTORAGEFULL:
		h.full.Store(domain.Errorf(domain.ESTORAGEFULL, "%s", domain.ErrorMessage(err)))
	}
}

// Err returns the ESTORAGEFULL error of the last failed write while no
// write has committed since, else nil.
func (h *StorageHealth) Err() error {
	if e := h.full.Load(); e != nil {
		return e
	}
	return nil
}
