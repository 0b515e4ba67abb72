package boltstore

import (
	"bytes"
	"slices"
)

// A write transaction outside a batch holds the entries of the sort and
// uses indexes of the lists (<kind>_order, <kind>_uses) it puts and
// deletes, and writes them in key order when the Update's function
// returns, or before it reads a list. A record puts one entry per sort
// field (eight for a resource), each in another part of the index: put one
// by one, a transaction of 2,000 records inserts 16,000 keys at random
// places of nodes that bbolt splits only at commit. In key order each
// insert lands after the one before it. The entries are read only by the
// list queries (query.go), which write what is held first; inside a batch
// (batch.go) they are held there instead.

// orderOp is one held change of an order or uses entry.
type orderOp struct {
	bucket []byte
	key    []byte
	val    []byte
	del    bool
}

// heldOrder reports whether writes to bucket are held in t.orders.
func (t *tx) heldOrder(bucket []byte) bool {
	if t.held != nil || !t.writable {
		return false
	}
	for _, k := range listKinds {
		if bytes.Equal(bucket, k.order) || (k.uses != nil && bytes.Equal(bucket, k.uses)) {
			return true
		}
	}
	return false
}

// holdOrder records a put (or, del, a delete) of the entry k of bucket.
// The key and value are copied: callers reuse their buffers.
func (t *tx) holdOrder(bucket, k, v []byte, del bool) {
	t.orders = append(t.orders, orderOp{bucket: bucket, key: bytes.Clone(k), val: bytes.Clone(v), del: del})
}

// flushOrders writes the held order and uses entries, each bucket's keys
// in order; of the changes of one key the last is the one written.
func (t *tx) flushOrders() error {
	ops := t.orders
	if len(ops) == 0 {
		return nil
	}
	t.orders = nil
	slices.SortStableFunc(ops, func(a, b orderOp) int {
		if c := bytes.Compare(a.bucket, b.bucket); c != 0 {
			return c
		}
		return bytes.Compare(a.key, b.key)
	})
	for i, op := range ops {
		if i+1 < len(ops) && bytes.Equal(ops[i+1].bucket, op.bucket) && bytes.Equal(ops[i+1].key, op.key) {
			continue // a later change of the same entry wins
		}
		b := t.bucket(op.bucket)
		var err error
		if op.del {
			err = b.Delete(op.key)
		} else {
			err = b.Put(op.key, op.val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
