package storecache

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/costdb/costdb/domain"
)

// compositionCache keeps decoded compositions with the stamp of the stored
// record they are (app.CompositionStamper: on bbolt the stored bytes, on
// PostgreSQL a number drawn for each write), for the prepared writes
// (prepared.go, issue 11 R2): decoding the stored composition was a tenth
// of a write's CPU. An entry is used only when the stamp read now is the
// one it was kept with, so it is exact whatever wrote the record, in this
// process or another; a copy is handed out and kept, since a change works
// on its composition. A prepared write that commits keeps what it stored
// under its new stamp (write-through): the next change of a composition
// under write load does not decode it. Bounded; when full it starts again
// empty.
type compositionCache struct {
	mu    sync.Mutex
	m     map[string]cachedComposition
	bytes int // the entries' estimated sizes (compositionBytes)
	hits  atomic.Int64
}

type cachedComposition struct {
	stamp []byte
	c     *domain.Composition
	size  int
}

// maxCompositionCacheBytes bounds the cache by the estimated size of what
// it keeps (a composition of 20 items about 5 KB with its stamp: some 3,000
// of them; one of 2,000 items about 330 KB), so that large compositions
// cannot make it hold more memory than small ones.
const maxCompositionCacheBytes = 16 << 20

// compositionBytes estimates what an entry keeps: the stamp, the record's
// strings, and per item its struct, code and decimal.
func compositionBytes(stamp []byte, c *domain.Composition) int {
	n := 512 + len(stamp) + len(c.Code) + len(c.Description) + len(c.Unit) + len(c.Note)
	for _, it := range c.Items {
		n += 160 + len(it.Code) + len(it.Bank)
	}
	return n
}

func newCompositionCache() *compositionCache {
	return &compositionCache{m: map[string]cachedComposition{}}
}

// get returns a copy of the composition kept for id with exactly the stamp,
// or nil.
func (cc *compositionCache) get(id string, stamp []byte) *domain.Composition {
	if cc == nil {
		return nil
	}
	cc.mu.Lock()
	e, ok := cc.m[id]
	cc.mu.Unlock()
	if !ok || !bytes.Equal(e.stamp, stamp) {
		return nil
	}
	cc.hits.Add(1)
	return e.c.Clone()
}

// put keeps a copy of c, the stored record with the stamp.
func (cc *compositionCache) put(id string, stamp []byte, c *domain.Composition) {
	if cc == nil || stamp == nil {
		return
	}
	e := cachedComposition{stamp: stamp, c: c.Clone()}
	e.size = compositionBytes(stamp, e.c)
	if e.size > maxCompositionCacheBytes/4 {
		return // one entry never takes most of the cache
	}
	cc.mu.Lock()
	if old, ok := cc.m[id]; ok {
		cc.bytes -= old.size
	}
	if cc.bytes+e.size > maxCompositionCacheBytes {
		clear(cc.m)
		cc.bytes = 0
	}
	cc.m[id] = e
	cc.bytes += e.size
	cc.mu.Unlock()
}
