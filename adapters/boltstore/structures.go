package boltstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"

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

// putStructure stores items (unless an equal structure is there already),
// counts one more reference to it, and returns its key. A nil items is no
// structure: no key, nothing stored.
func putStructure(btx *bolt.Tx, items []structureItemRecord) ([]byte, error) {
	if items == nil {
		return nil, nil
	}
	data, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("boltstore: encode structure: %w", err)
	}
	sum := sha256.Sum256(data)
	k := append([]byte(nil), sum[:structureKeySize]...)
	b := btx.Bucket(bucketStructures)
	if old := b.Get(k); old == nil {
		if err := b.Put(k, data); err != nil {
			return nil, err
		}
	} else if !bytes.Equal(old, data) {
		return nil, fmt.Errorf("boltstore: structure %x is stored with other items (hash collision or corrupt file)", k)
	}
	return k, addStructureRef(btx, k, 1)
}

// releaseStructure counts one reference less to the structure k, deleting
// it when none is left. A nil k is no structure.
func releaseStructure(btx *bolt.Tx, k []byte) error {
	if k == nil {
		return nil
	}
	return addStructureRef(btx, k, -1)
}

func addStructureRef(btx *bolt.Tx, k []byte, delta int64) error {
	refs := btx.Bucket(bucketStructureRefs)
	var n int64
	if v := refs.Get(k); v != nil {
		if len(v) != 8 {
			return fmt.Errorf("boltstore: corrupt reference count %x in bucket %s", v, bucketStructureRefs)
		}
		n = int64(binary.BigEndian.Uint64(v))
	}
	n += delta
	switch {
	case n < 0:
		return fmt.Errorf("boltstore: structure %x released more often than stored", k)
	case n == 0:
		if err := refs.Delete(k); err != nil {
			return err
		}
		return btx.Bucket(bucketStructures).Delete(k)
	}
	v := make([]byte, 8)
	binary.BigEndian.PutUint64(v, uint64(n))
	return refs.Put(append([]byte(nil), k...), v)
}

// structureItems returns the structure items of r: its shared structure, or
// its inline items (a record written before version 3).
func structureItems(btx *bolt.Tx, r *bankCompositionRecord) ([]structureItemRecord, error) {
	if r.Structure == nil {
		return r.Items, nil
	}
	data := btx.Bucket(bucketStructures).Get(r.Structure)
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
// corrupt rather than returned without its items.
func joinStructure(btx *bolt.Tx, d *decoder, r *bankCompositionRecord) *domain.BankComposition {
	items, err := structureItems(btx, r)
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
		sk, err := putStructure(btx, r.Items)
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
	return nil
}
