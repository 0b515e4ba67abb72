package boltstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/domain"
)

// Shared composition structures (schema version 3).
//
// A bank composition's structure (its items: kind, code, coefficient) is the
// same in every state's edition of a month: SINAPI publishes one national
// analytic sheet. Stored inline, a national import wrote it 27 times. It is
// stored once instead, content-addressed: the structures bucket maps the
// first 16 bytes of the SHA-256 of the structure's canonical encoding (the
// JSON of its []structureItemRecord, items in their order) to that encoding,
// and a bank composition record holds the key in its Structure field. Two
// compositions with equal items share one entry, whatever their edition.
//
// Each entry is reference counted: structure_refs maps the same key to the
// number of bank composition records that point to it (8 bytes, big
// endian). Putting a record adds one, replacing or deleting it takes one
// away, and the entry whose count falls to zero is deleted with its count,
// in the same transaction. So deleting or replacing one edition never
// removes a structure another edition still uses, and a re-import leaves no
// orphans behind. A key that is already there with a different encoding (a
// hash collision, or a corrupt file) is an error, never a silent share.

var (
	bucketStructures    = []byte("structures")
	bucketStructureRefs = []byte("structure_refs")
)

// structureKeySize is how many bytes of the SHA-256 make a structure's key.
const structureKeySize = 16

// structureWrites holds the structure changes of one write transaction
// (one Update, or Open's upgrade) until its end, then applies them in key
// order (flush). The keys are hashes: put as they come, each would land in
// the middle of what the transaction wrote so far, and bbolt, which splits
// its pages only at the commit, would move half the bucket's entries on
// every put (an import of 75,000 new structures spent 8 s there). Reads in
// the same transaction see the structures it put (lookup).
type structureWrites struct {
	btx     *bolt.Tx
	pending map[string]*pendingStructure
}

// pendingStructure is what a transaction did to one structure.
type pendingStructure struct {
	data    []byte // the encoding, when the bucket does not hold it yet
	checked bool   // data is known to match the bucket's (or was put here)
	delta   int64  // references added, less those released
}

func newStructureWrites(btx *bolt.Tx) *structureWrites {
	return &structureWrites{btx: btx, pending: map[string]*pendingStructure{}}
}

// entry returns the pending changes of k, made when new.
func (w *structureWrites) entry(k []byte) *pendingStructure {
	p := w.pending[string(k)]
	if p == nil {
		p = &pendingStructure{}
		w.pending[string(k)] = p
	}
	return p
}

// putStructure stores items (unless an equal structure is there already),
// counts one more reference to it, and returns its key. A nil items is no
// structure: no key, nothing stored. The bucket is written by flush.
func putStructure(w *structureWrites, items []structureItemRecord) ([]byte, error) {
	if items == nil {
		return nil, nil
	}
	data, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("boltstore: encode structure: %w", err)
	}
	sum := sha256.Sum256(data)
	k := append([]byte(nil), sum[:structureKeySize]...)
	p := w.entry(k)
	if !p.checked {
		if old := w.btx.Bucket(bucketStructures).Get(k); old == nil {
			p.data = data
		} else if !bytes.Equal(old, data) {
			return nil, fmt.Errorf("boltstore: structure %x is stored with other items (hash collision or corrupt file)", k)
		}
		p.checked = true
	} else if p.data != nil && !bytes.Equal(p.data, data) {
		return nil, fmt.Errorf("boltstore: structure %x is stored with other items (hash collision or corrupt file)", k)
	}
	p.delta++
	return k, nil
}

// releaseStructure counts one reference less to the structure k; flush
// deletes it when none is left. A nil k is no structure.
func releaseStructure(w *structureWrites, k []byte) error {
	if k != nil {
		w.entry(k).delta--
	}
	return nil
}

// lookup returns the encoding of the structure k: the bucket's, or the one
// this transaction put.
func (w *structureWrites) lookup(k []byte) []byte {
	if data := w.btx.Bucket(bucketStructures).Get(k); data != nil {
		return data
	}
	if p := w.pending[string(k)]; p != nil {
		return p.data
	}
	return nil
}

// flush writes the pending changes, in key order, and forgets them: a
// structure whose count falls to zero is deleted with its count.
func (w *structureWrites) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	keys := make([]string, 0, len(w.pending))
	for k := range w.pending {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	refs, structures := w.btx.Bucket(bucketStructureRefs), w.btx.Bucket(bucketStructures)
	fillPages(refs)
	fillPages(structures)
	for _, ks := range keys {
		p, k := w.pending[ks], []byte(ks)
		if p.delta == 0 {
			continue // put and released as often: nothing changes
		}
		var n int64
		if v := refs.Get(k); v != nil {
			if len(v) != 8 {
				return fmt.Errorf("boltstore: corrupt reference count %x in bucket %s", v, bucketStructureRefs)
			}
			n = int64(binary.BigEndian.Uint64(v))
		}
		n += p.delta
		switch {
		case n < 0:
			return fmt.Errorf("boltstore: structure %x released more often than stored", k)
		case n == 0:
			if err := refs.Delete(k); err != nil {
				return err
			}
			if err := structures.Delete(k); err != nil {
				return err
			}
			continue
		}
		if p.data != nil {
			if err := structures.Put(k, p.data); err != nil {
				return err
			}
		}
		v := make([]byte, 8)
		binary.BigEndian.PutUint64(v, uint64(n))
		if err := refs.Put(k, v); err != nil {
			return err
		}
	}
	clear(w.pending)
	return nil
}

// structureItems returns the structure items of r: its shared structure, or
// its inline items (a record written before version 3).
func structureItems(btx *bolt.Tx, w *structureWrites, r *bankCompositionRecord) ([]structureItemRecord, error) {
	if r.Structure == nil {
		return r.Items, nil
	}
	var data []byte
	if w != nil {
		data = w.lookup(r.Structure)
	} else {
		data = btx.Bucket(bucketStructures).Get(r.Structure)
	}
	if data == nil {
		return nil, fmt.Errorf("boltstore: composition %s: structure %x is missing", r.Code, r.Structure)
	}
	items := []structureItemRecord{}
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("boltstore: corrupt structure %x in bucket %s: %w", r.Structure, bucketStructures, err)
	}
	return items, nil
}

// joinStructure converts r with its structure items; a structure that is
// missing or does not decode fails d, so that the record is reported as
// corrupt rather than returned without its items. w is the transaction's
// pending structures (nil for none).
func joinStructure(btx *bolt.Tx, w *structureWrites, d *decoder, r *bankCompositionRecord) *domain.BankComposition {
	items, err := structureItems(btx, w, r)
	if err != nil && d.err == nil {
		d.err = err
	}
	return r.domain(d, items)
}

// recordStructure returns the structure key of an encoded bank composition
// record (nil for none or for inline items).
func recordStructure(data []byte) ([]byte, error) {
	var r struct {
		Structure []byte `json:"structure"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return r.Structure, nil
}

// shareStructures upgrades a file of schema version 2 or older: every bank
// composition record with its items inline gets them moved to the shared
// structures. It runs in Open's transaction, so a crash leaves the file at
// its old version, upgraded again at the next Open.
func shareStructures(btx *bolt.Tx) error {
	w := newStructureWrites(btx)
	b := btx.Bucket(bucketBankCompositions)
	var keys [][]byte
	if err := b.ForEach(func(k, v []byte) error {
		var r bankCompositionRecord
		// A record that does not decode is left as it is: reading it
		// reports it, as before, rather than the file failing to open.
		if err := json.Unmarshal(v, &r); err == nil && r.Structure == nil && r.Items != nil {
			keys = append(keys, append([]byte(nil), k...))
		}
		return nil
	}); err != nil {
		return err
	}
	fillPages(b)
	for _, k := range keys {
		var r bankCompositionRecord
		if err := json.Unmarshal(b.Get(k), &r); err != nil {
			return fmt.Errorf("corrupt record %q in bucket %s: %w", k, bucketBankCompositions, err)
		}
		sk, err := putStructure(w, r.Items)
		if err != nil {
			return err
		}
		r.Items, r.Structure = nil, sk
		data, err := json.Marshal(&r)
		if err != nil {
			return err
		}
		if err := b.Put(k, data); err != nil {
			return err
		}
	}
	return w.flush()
}
