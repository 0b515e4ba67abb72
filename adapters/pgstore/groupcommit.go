package pgstore

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Group commit of write transactions (issue 29, P6 on PostgreSQL). Write
// transactions of a process run at most Options.MaxWriters at a time (one
// by default): writers of one company bump the same counters, which under
// SERIALIZABLE would abort each other. Under load, every writer queued for
// the one running, and a write's latency was the queue's length times one
// transaction. Now the Updates that wait are run together, as bbolt's
// commit queue does (boltstore/commit.go): a writer that finds a free slot
// leads; the Updates that arrive while it runs wait, and the next leader
// takes them all (at most maxGroup) into one transaction. A lone writer
// waits for nothing and runs as before, in a transaction of its own.
//
// In a group, each Update's fn runs in a savepoint of its own. The
// SAVEPOINT goes with the fn's first statement and its RELEASE (or, when
// fn failed, its ROLLBACK TO) with the next fn's first statement or the
// COMMIT (lazyTx.later), so a group costs no round trip more than its
// Updates would alone, and one COMMIT (one WAL flush) serves them all.
//
// The semantics are each Update's own:
//   - Each fn sees the effects of the fns before it in the group, as it
//     would have seen them committed before it ran alone.
//   - A fn that returns an error, panics, or whose context is done when
//     it returns, is rolled back to its savepoint: it leaves nothing, and
//     the others of its group go on and commit. Its caller has its error
//     (or its panic again) once the group has committed, since under
//     SERIALIZABLE what a transaction read counts only if it commits.
//   - A serialization failure (or a deadlock) anywhere in the group, in a
//     fn or at COMMIT, rolls back the whole transaction and runs every fn
//     of the group again, from the start, MaxRetries times at most, as a
//     lone transaction's retries do.
//   - Nothing is acknowledged before the COMMIT has succeeded. A COMMIT
//     that fails, a connection lost, or a failure of a write another fn
//     deferred (a setting's put, which fails only for a full disk or a
//     lost server) fails every fn of the group, none written.
//   - The statements of a group run with a context of the group, which
//     ends when every caller's context has ended: a caller that gives up
//     does not cancel the others' statements. Its own fn, when its context
//     is done before it runs or when it returns, is rolled back and
//     answered with the context's error.

// maxGroup caps the Updates of one transaction. Each fn's savepoint and
// a put's savepoint inside it (writetrips.go) take a subtransaction ID
// each; PostgreSQL keeps up to 64 of a transaction's in shared memory
// before other connections' snapshots must look them up on disk.
const maxGroup = 24

// groupSavepoint names the savepoint of each fn of a group.
const groupSavepoint = "pgstore_group"

// writeQueue queues the write transactions of a Store.
type writeQueue struct {
	mu      sync.Mutex
	leaders int // groups running, at most max
	max     int
	waiting []*writeCall
}

// writeCall is one Update.
type writeCall struct {
	ctx      context.Context
	fn       func(app.Tx) error
	wake     chan struct{}
	lead     bool // woken to lead, not answered
	err      error
	panicked bool
	panic    any
}

func (c *writeCall) result() error {
	if c.panicked {
		panic(c.panic)
	}
	return c.err
}

// errUnfinished answers the Updates of a group whose leader's goroutine
// ended before the group did (a fn called runtime.Goexit).
var errUnfinished = errors.New("pgstore: the write transaction did not finish")

// runWrite runs fn in a write transaction, alone or in a group.
func (s *Store) runWrite(ctx context.Context, fn func(app.Tx) error) error {
	q := &s.queue
	c := &writeCall{ctx: ctx, fn: fn, wake: make(chan struct{})}
	q.mu.Lock()
	if q.leaders < q.max {
		q.leaders++
	} else {
		q.waiting = append(q.waiting, c)
		q.mu.Unlock()
		select {
		case <-c.wake:
		case <-ctx.Done():
			q.mu.Lock()
			if !c.lead {
				for i, w := range q.waiting {
					if w == c {
						// Still waiting: it leaves the queue.
						q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
						q.mu.Unlock()
						return ctx.Err()
					}
				}
			}
			q.mu.Unlock()
			<-c.wake // taken into a group, or to lead one
		}
		if !c.lead {
			return c.result()
		}
		q.mu.Lock()
	}
	// c leads: it takes what waits, in the order it came.
	n := min(len(q.waiting), maxGroup-1)
	group := append([]*writeCall{c}, q.waiting[:n]...)
	q.waiting = append(q.waiting[:0:0], q.waiting[n:]...)
	q.mu.Unlock()
	for _, g := range group {
		g.err = errUnfinished // unless the group says otherwise
	}
	defer func() {
		// The lead goes to the first call waiting, out of the queue.
		q.mu.Lock()
		if len(q.waiting) > 0 {
			next := q.waiting[0]
			q.waiting = q.waiting[1:]
			next.lead = true
			close(next.wake)
		} else {
			q.leaders--
		}
		q.mu.Unlock()
		for _, g := range group[1:] {
			close(g.wake)
		}
	}()
	if len(group) == 1 {
		c.err = s.retried(ctx, func() (error, bool) { return s.runOnce(ctx, true, fn) })
		return c.err
	}
	s.runGroup(group)
	return c.result()
}

// retried runs once until it succeeds, fails for good, or has been
// retried MaxRetries times; then the error is EUNAVAILABLE.
func (s *Store) retried(ctx context.Context, once func() (err error, retry bool)) error {
	max := s.maxRetries()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err, retry := once()
		if !retry {
			return err
		}
		if attempt >= max {
			return domain.Errorf(domain.EUNAVAILABLE, "the database is busy: the transaction was aborted by concurrent ones %d times, try again (%v)", attempt+1, err)
		}
		if s.opts.OnRetry != nil {
			s.opts.OnRetry(attempt+1, err)
		}
		// A short, growing, jittered pause lets the other transaction end.
		pause := time.Duration(1<<min(attempt, 6)) * time.Millisecond
		select {
		case <-time.After(pause/2 + time.Duration(rand.Int64N(int64(pause)))):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// groupContext is a context with the values of the group's first call
// that ends when every call's context has ended.
func groupContext(group []*writeCall) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(group[0].ctx))
	var mu sync.Mutex
	left := len(group)
	stops := make([]func() bool, 0, len(group))
	for _, c := range group {
		stops = append(stops, context.AfterFunc(c.ctx, func() {
			mu.Lock()
			left--
			last := left == 0
			mu.Unlock()
			if last {
				cancel()
			}
		}))
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// runGroup runs the calls of group in one transaction, again when the
// server aborts it, and answers each.
func (s *Store) runGroup(group []*writeCall) {
	ctx, stop := groupContext(group)
	defer stop()
	live := group
	var lastErr error
	// guessing is cleared when a guess was found wrong after its fn's
	// savepoint was let go: the group runs again without guessing.
	guessing := true
	max := s.maxRetries()
	for attempt := 0; ; attempt++ {
		// A call whose caller has given up is not run (again).
		kept := live[:0:0]
		for _, c := range live {
			if err := c.ctx.Err(); err != nil {
				c.err = err
			} else {
				kept = append(kept, c)
			}
		}
		live = kept
		if len(live) == 0 {
			return
		}
		if attempt > max {
			for _, c := range live {
				c.err = domain.Errorf(domain.EUNAVAILABLE, "the database is busy: the transaction was aborted by concurrent ones %d times, try again (%v)", attempt, lastErr)
			}
			return
		}
		if attempt > 0 {
			if s.opts.OnRetry != nil {
				s.opts.OnRetry(attempt, lastErr)
			}
			pause := time.Duration(1<<min(attempt-1, 6)) * time.Millisecond
			select {
			case <-time.After(pause/2 + time.Duration(rand.Int64N(int64(pause)))):
			case <-ctx.Done():
			}
		}
		err, retry := s.groupOnce(ctx, live, &guessing)
		if !retry {
			return
		}
		lastErr = err
	}
}

// groupOnce runs the calls in one transaction and answers each, unless
// retry: the server aborted the transaction, and every call is to run
// again. The answers are set only when the group has its outcome, so that
// a leader's goroutine that ends on the way leaves errUnfinished.
func (s *Store) groupOnce(ctx context.Context, calls []*writeCall, guessing *bool) (err error, retry bool) {
	failAll := func(err error) {
		for _, c := range calls {
			c.err, c.panicked, c.panic = err, false, nil
		}
	}
	conn, err := s.wpool.Acquire(ctx)
	if err != nil {
		if s.closed.Load() {
			err = errClosed
		} else {
			err = s.connErr("begin transaction", err)
		}
		failAll(err)
		return err, false
	}
	lt := newLazyTx(conn, true)
	finished := false
	defer func() {
		if !finished {
			_ = lt.rollback(context.WithoutCancel(ctx))
			conn.Release()
		}
	}()
	type answer struct {
		err      error
		panicked bool
		panic    any
	}
	answers := make([]answer, len(calls))
	// The settings read ahead with the first statement, as the fns that
	// kept their savepoint left them (settingsahead.go).
	var ahead map[string][]byte
	// rollbackFn undoes the fn that ran last. The ROLLBACK TO goes with
	// the next statement, unless a statement of the fn failed: the
	// transaction then refuses every statement, even the preparation of
	// the next one's (pgx prepares a statement new to the connection
	// before its batch), until it is sent.
	rollbackFn := func() error {
		if conn.Conn().PgConn().TxStatus() != 'E' {
			lt.later(`ROLLBACK TO SAVEPOINT `+groupSavepoint, nil)
			lt.later(`RELEASE SAVEPOINT `+groupSavepoint, nil)
			return nil
		}
		// What is pending is the failed fn's (its SAVEPOINT went with the
		// statement that failed). Both statements in one simple query: the
		// extended protocol's preparation of RELEASE would be refused
		// before ROLLBACK TO has run.
		lt.pending, lt.checks = nil, nil
		if _, err := conn.Exec(ctx, `ROLLBACK TO SAVEPOINT `+groupSavepoint+`; RELEASE SAVEPOINT `+groupSavepoint); err != nil {
			return s.connErr("write", err)
		}
		return nil
	}
	for i, c := range calls {
		a := &answers[i]
		lt.fn = i + 1
		for guess := *guessing; ; guess = false {
			if err := c.ctx.Err(); err != nil {
				a.err = err
				break
			}
			t := newTx(ctx, lt, true)
			t.guess, t.stampPool = guess, &s.stampPool
			if !lt.sent {
				t.readAhead(lt, &s.hotWrites)
				if read := lt.aheadRows; read != nil {
					lt.aheadRows = func(rows pgx.Rows) error {
						if err := read(rows); err != nil {
							return err
						}
						ahead = maps.Clone(t.ahead)
						return nil
					}
				}
			} else {
				t.hot, t.ahead = &s.hotWrites, maps.Clone(ahead)
			}
			lt.later(`SAVEPOINT `+groupSavepoint, nil)
			ferr := runFn(t, c.fn, &a.panicked, &a.panic)
			if len(lt.checks) > 0 && (ferr != nil || a.panicked) {
				// The guesses of a fn that failed are checked before its
				// answer counts and it is rolled back: its failure may come
				// from a wrong guess. Those of a fn that succeeds go with the
				// next statement or the COMMIT (its answer is given after it):
				// a wrong one then runs the group again without guessing.
				_ = lt.checkGuesses(ctx)
			}
			t.done = true
			if lt.checkFailed && lt.failedFn != lt.fn {
				// A guess of an earlier fn, whose savepoint is let go, was
				// wrong: the transaction has failed.
				lt.misguessed()
				*guessing = false
				return errGroupMisguess, true
			}
			if lt.misguessed() {
				// A stamp it guessed was not the stored one (stampcheck.go):
				// it runs again on what is stored.
				a.err, a.panicked, a.panic = nil, false, nil
				if err := rollbackFn(); err != nil {
					failAll(err)
					return err, false
				}
				if guess {
					continue
				}
				// Not guessing, it cannot misguess: the check failed for a
				// reason of its own, handled as any failure of the group.
				return errMisguess, true
			}
			if err := lt.pendingErr; err != nil {
				// A write an earlier fn deferred, or the group's BEGIN, failed:
				// the group's failure, not this fn's.
				if retryable(err) {
					return err, true
				}
				err = s.connErr("write", err)
				failAll(err)
				return err, false
			}
			if t.aborted || (ferr != nil && retryable(ferr)) {
				return ferr, true
			}
			if conn.Conn().IsClosed() {
				err := s.connErr("write", ferr)
				failAll(err)
				return err, false
			}
			if ferr == nil && !a.panicked {
				if err := c.ctx.Err(); err != nil {
					ferr = err // its caller has given up: it leaves nothing
				}
			}
			if ferr != nil || a.panicked {
				a.err = ferr
				if err := rollbackFn(); err != nil {
					failAll(err)
					return err, false
				}
				break
			}
			ahead = t.ahead
			lt.later(`RELEASE SAVEPOINT `+groupSavepoint, nil)
			break
		}
	}
	finished = true
	err = lt.commit(ctx)
	conn.Release()
	if err != nil {
		if lt.misguessed() {
			// A guess checked with the COMMIT was wrong.
			*guessing = false
			return err, true
		}
		if retryable(err) {
			return err, true
		}
		err = s.connErr("commit", err)
		failAll(err)
		return err, false
	}
	for i, c := range calls {
		c.err, c.panicked, c.panic = answers[i].err, answers[i].panicked, answers[i].panic
	}
	return nil, false
}

// errMisguess is a guess that failed in a transaction that made none: it
// cannot happen, and would run the group again.
var errMisguess = errors.New("pgstore: a stamp check failed without a guess")

// errGroupMisguess is a guess of a group's fn found wrong after the fn
// ended: the group runs again, without guessing.
var errGroupMisguess = errors.New("pgstore: a stamp guessed in the group was not the stored one")

// runFn runs fn on t and writes what t buffered, as runOnce does; a panic
// of fn is kept in panicked and v.
func runFn(t *tx, fn func(app.Tx) error, panicked *bool, v *any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			*panicked, *v = true, r
			err = nil
		}
	}()
	if err := fn(t); err != nil {
		return orFault(err)
	}
	if err := t.flush(); err != nil {
		return t.fail(err)
	}
	return nil
}
