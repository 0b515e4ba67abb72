package boltstore

import (
	"errors"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// commitQueue group-commits Updates (Store.Update). There is at most one
// leader at a time; it takes every Update waiting, runs them in one
// transaction, answers them, and hands the lead to the first Update that
// arrived meanwhile. A lone writer waits for nothing: its transaction
// starts at once, as before. Under load, one fsync serves every writer that
// arrived during the previous commit.
type commitQueue struct {
	mu      sync.Mutex
	leading bool
	waiting []*call
}

// maxBatch caps the Updates of one transaction.
const maxBatch = 256

// call is one Update in the queue.
type call struct {
	fn    func(tx *tx) error
	wake  chan struct{}
	lead  bool // woken to lead, not answered
	err   error
	panic any
	// panicked is set when fn panicked; panic holds the value.
	panicked bool
}

// errPanicked stands for a fn's panic inside the batch.
var errPanicked = errors.New("boltstore: update panicked")

// runIn runs the fn in btx, turning a panic into errPanicked (kept in c).
func (c *call) runIn(btx *bolt.Tx) (err error) {
	t := &tx{btx: btx, writable: true}
	defer func() {
		t.done = true
		if v := recover(); v != nil {
			c.panicked, c.panic = true, v
			err = errPanicked
		}
	}()
	if err := c.fn(t); err != nil {
		return err
	}
	return t.flush()
}

func (q *commitQueue) run(s *Store, fn func(appTx *tx) error) error {
	c := &call{fn: fn, wake: make(chan struct{})}
	q.mu.Lock()
	q.waiting = append(q.waiting, c)
	if q.leading {
		q.mu.Unlock()
		<-c.wake
		if !c.lead {
			return c.result()
		}
	} else {
		q.leading = true
		q.mu.Unlock()
	}
	// c leads: take what is waiting (c among it).
	q.mu.Lock()
	n := min(len(q.waiting), maxBatch)
	batch := append([]*call(nil), q.waiting[:n]...)
	q.waiting = append(q.waiting[:0:0], q.waiting[n:]...)
	q.mu.Unlock()
	for _, b := range batch {
		// Unless commit says otherwise (it does not when the leader's fn
		// ends its goroutine, as t.FailNow does), nothing was committed.
		b.err = errUnfinished
	}
	defer func() {
		q.mu.Lock()
		if len(q.waiting) > 0 {
			next := q.waiting[0]
			next.lead = true
			close(next.wake)
		} else {
			q.leading = false
		}
		q.mu.Unlock()
		for _, b := range batch {
			if b != c {
				close(b.wake)
			}
		}
	}()
	s.commit(batch)
	return c.result()
}

// errUnfinished answers the Updates of a batch whose leader stopped before
// committing.
var errUnfinished = errors.New("boltstore: the write transaction did not finish")

// commit runs batch in as few transactions as it can and sets every call's
// answer.
func (s *Store) commit(batch []*call) {
	for len(batch) > 0 {
		failed, err := s.update(batch)
		if failed < 0 {
			for _, c := range batch {
				c.err = err
			}
			return
		}
		if len(batch) == 1 {
			batch[0].err = err
			return
		}
		// The fn at failed failed after those before it wrote: run it
		// alone, and the others again without it.
		bad := batch[failed]
		bad.panicked, bad.panic = false, nil
		_, bad.err = s.update([]*call{bad})
		rest := make([]*call, 0, len(batch)-1)
		for i, c := range batch {
			if i != failed {
				c.panicked, c.panic = false, nil
				rest = append(rest, c)
			}
		}
		batch = rest
	}
}

// result is the answer of the call: its error, or its panic again.
func (c *call) result() error {
	if c.panicked {
		panic(c.panic)
	}
	return c.err
}
