package boltstore

import (
	"slices"

	"github.com/costdb/costdb/app"
)

// A write transaction that puts many new records of one company inserts
// their index keys (code, list rows, sort orders, uses) in an order
// unrelated to the keys. bbolt splits a page's node only at commit, so
// every key put lands in the one node where the company's keys begin and
// each insert shifts the keys after it: the time grows with the square of
// the records (a company import of 100,000 resources took minutes). Inside
// Batch the index writes are held, by bucket, and written when its
// function returns, each bucket's keys in order: every insert is then
// after the ones before it.

var _ app.BatchTx = (*tx)(nil)

// Batch is app.BatchTx: it runs fn holding the index writes of the puts fn
// makes, then writes them, each bucket's keys sorted. Point reads of those
// indexes (lookup, the stored list row) see what is held; list queries
// inside fn do not.
func (t *tx) Batch(fn func() error) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if t.held != nil {
		return fn() // already inside a batch
	}
	t.held = map[string]map[string][]byte{}
	err := fn()
	held := t.held
	t.held = nil
	if err != nil {
		return err
	}
	names := make([]string, 0, len(held))
	for name := range held {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := held[name]
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b := t.bucket([]byte(name))
		for _, k := range keys {
			if err := b.Put([]byte(k), m[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// iput puts k in the index bucket, or holds it inside a batch.
func (t *tx) iput(bucket, k, v []byte) error {
	if t.held == nil {
		return t.bucket(bucket).Put(k, v)
	}
	m := t.held[string(bucket)]
	if m == nil {
		m = map[string][]byte{}
		t.held[string(bucket)] = m
	}
	m[string(k)] = v
	return nil
}

// idelete deletes k from the index bucket and from what a batch holds.
func (t *tx) idelete(bucket, k []byte) error {
	if m := t.held[string(bucket)]; m != nil {
		delete(m, string(k))
	}
	return t.bucket(bucket).Delete(k)
}

// iget reads k of the index bucket, what a batch holds first.
func (t *tx) iget(bucket, k []byte) []byte {
	if m := t.held[string(bucket)]; m != nil {
		if v, ok := m[string(k)]; ok {
			return v
		}
	}
	return t.bucket(bucket).Get(k)
}
