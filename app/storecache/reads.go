package storecache

import (
	"context"
	"sync"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Reads notes which of a company's compositions the read transactions of
// one request read, so that the HTTP layer may tag the answer of a GET of
// one composition with that composition's counter (generation.go), and
// that of a GET of own resources with none, rather than with every
// composition of the company: then a write of another composition leaves
// the answer cached and its ETag unchanged.
//
// The rule it serves: an answer is tagged by one composition's counter
// only if the only company composition its transactions read is that
// one, read by its id (Tx.Composition). Any other composition read by id,
// any read by code (an own item of the composition resolved by code: a
// code not found may be created later by a write of another composition)
// and any list of compositions make the answer depend on the company's
// compositions as a whole. Records that are not compositions are under the
// company's and the global counters, which tag every answer.
//
// Only the reads made through Store.View with the context WithReads gave
// are noted; the HTTP layer asks for it only on the routes that read one
// composition by its id (the v1 and v2 GET of a composition) or own
// resources (their GETs and lists) through the app's use cases, whose
// composition reads are the Tx methods noted here.
type Reads struct {
	mu    sync.Mutex
	id    string // the composition read by id, if one
	other bool   // another composition, one by code, or a list
}

type readsKey struct{}

// WithReads returns ctx carrying a new Reads, which the read transactions
// of the Store run with that context fill.
func WithReads(ctx context.Context) (context.Context, *Reads) {
	r := &Reads{}
	return context.WithValue(ctx, readsKey{}, r), r
}

func readsFrom(ctx context.Context) *Reads {
	r, _ := ctx.Value(readsKey{}).(*Reads)
	return r
}

// Only reports whether every company composition read was the one with
// the id, by its id.
func (r *Reads) Only(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.other && (r.id == "" || r.id == id)
}

// None reports whether no company composition was read.
func (r *Reads) None() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.other && r.id == ""
}

func (r *Reads) composition(id string) {
	r.mu.Lock()
	if r.id == "" {
		r.id = id
	} else if r.id != id {
		r.other = true
	}
	r.mu.Unlock()
}

func (r *Reads) any() {
	r.mu.Lock()
	r.other = true
	r.mu.Unlock()
}

// The composition reads of a read transaction, noted when its context
// carries Reads.

func (t *readTx) Composition(id string) (*domain.Composition, error) {
	if t.reads != nil {
		t.reads.composition(id)
	}
	return t.Tx.Composition(id)
}

func (t *readTx) CompositionByCode(companyID, code, state string) (*domain.Composition, error) {
	if t.reads != nil {
		t.reads.any()
	}
	return t.Tx.CompositionByCode(companyID, code, state)
}

func (t *readTx) Compositions(companyID string, q app.Query) ([]*domain.Composition, int, error) {
	if t.reads != nil {
		t.reads.any()
	}
	return t.Tx.Compositions(companyID, q)
}
