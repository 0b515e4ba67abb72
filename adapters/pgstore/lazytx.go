package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgtx is what a transaction of the store sends its statements through:
// a pgx.Tx has these methods, and so has lazyTx.
type pgtx interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error)
}

// lazyTx is a transaction on a connection of the pool whose BEGIN is sent
// with its first statement, in the same round trip (pgx's batch, one
// pipeline): a BEGIN alone is a round trip whose answer tells nothing.
// PostgreSQL takes a transaction's snapshot at its first statement, not
// at BEGIN, so the transaction sees exactly what it saw when BEGIN was
// waited for, with the same isolation level and access mode. A
// transaction that sent nothing has nothing to commit.
//
// The same way, a write whose answer is only "done" (later: the put of a
// setting) is sent with the next statement, or with COMMIT: statements run
// in the order they were queued, and a failure of the deferred write is
// the failure of the statement it went with (or of the commit), which
// fails the transaction as it would have.
type lazyTx struct {
	conn    *pgxpool.Conn
	pending []*pgx.QueuedQuery // BEGIN until sent, then deferred writes
	sent    bool               // something was sent (BEGIN with it)
	// ahead, when set, is sent after BEGIN with the first statement, its
	// rows read by aheadRows (settingsahead.go).
	ahead     *pgx.QueuedQuery
	aheadRows func(pgx.Rows) error
	// pendingErr is the failure of a pending statement (BEGIN, the
	// settings read ahead, a deferred write), which the statement it went
	// with reports as its own (groupcommit.go tells them apart).
	pendingErr error
	// checks are the pending statements that check a guess (stampcheck.go),
	// with the number of the fn that guessed (fn, from 1: in a group, the
	// fn's place); checkFailed is set when one of them failed, failedFn to
	// its fn.
	checks      map[*pgx.QueuedQuery]int
	checkFailed bool
	fn          int
	failedFn    int
}

func newLazyTx(conn *pgxpool.Conn, writable bool) *lazyTx {
	begin := "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY"
	if writable {
		begin = "BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE"
	}
	return &lazyTx{conn: conn, pending: []*pgx.QueuedQuery{{SQL: begin}}, fn: 1}
}

// later queues a write to be sent with the next statement.
func (l *lazyTx) later(sql string, args []any) {
	l.pending = append(l.pending, &pgx.QueuedQuery{SQL: sql, Arguments: args})
}

// SendBatch sends b, after what is pending.
func (l *lazyTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if len(l.pending) == 0 {
		return l.conn.SendBatch(ctx, b)
	}
	pending := l.pending
	if !l.sent && l.ahead != nil {
		pending = append(pending[:1:1], append([]*pgx.QueuedQuery{l.ahead}, pending[1:]...)...)
	}
	checks := l.checks
	l.pending, l.sent, l.checks = nil, true, nil
	nb := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(pending)+len(b.QueuedQueries))}
	nb.QueuedQueries = append(append(nb.QueuedQueries, pending...), b.QueuedQueries...)
	br := l.conn.SendBatch(ctx, nb)
	for _, q := range pending {
		var err error
		if q == l.ahead {
			err = readRows(br, l.aheadRows)
		} else {
			_, err = br.Exec()
		}
		if err != nil {
			_ = br.Close()
			l.pendingErr = err
			l.checkFailed, l.failedFn = checks[q] != 0, checks[q]
			return failedBatch{err}
		}
	}
	return br
}

// readRows reads the rows of the next result of br with read.
func readRows(br pgx.BatchResults, read func(pgx.Rows) error) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := read(rows); err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}

// flush sends what is pending, alone.
func (l *lazyTx) flush(ctx context.Context) error {
	if len(l.pending) == 0 {
		return nil
	}
	return l.SendBatch(ctx, &pgx.Batch{}).Close()
}

// one sends sql alone, after what is pending.
func (l *lazyTx) one(ctx context.Context, sql string, args []any) pgx.BatchResults {
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	return l.SendBatch(ctx, b)
}

func (l *lazyTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(l.pending) == 0 {
		return l.conn.Exec(ctx, sql, args...)
	}
	if len(args) == 0 && !l.sent && len(l.pending) == 1 {
		// pgx sends a statement without arguments as a simple query,
		// which may hold several statements: BEGIN is one more.
		begin := l.pending[0].SQL
		l.pending, l.sent = nil, true
		return l.conn.Exec(ctx, begin+"; "+sql)
	}
	br := l.one(ctx, sql, args)
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

func (l *lazyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if len(l.pending) == 0 {
		return l.conn.QueryRow(ctx, sql, args...)
	}
	return batchRow{l.one(ctx, sql, args)}
}

func (l *lazyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(l.pending) == 0 {
		return l.conn.Query(ctx, sql, args...)
	}
	br := l.one(ctx, sql, args)
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return &aloneRows{Rows: rows, br: br}, nil
}

func (l *lazyTx) CopyFrom(ctx context.Context, table pgx.Identifier, columns []string, src pgx.CopyFromSource) (int64, error) {
	if err := l.flush(ctx); err != nil {
		return 0, err
	}
	return l.conn.CopyFrom(ctx, table, columns, src)
}

// commit commits the transaction, with what is pending: a COMMIT that
// finds it failed rolls it back and is pgx.ErrTxCommitRollback, as
// pgx.Tx's Commit. A transaction that failed is rolled back, so that its
// connection goes back to the pool idle.
func (l *lazyTx) commit(ctx context.Context) error {
	if !l.sent && len(l.pending) <= 1 {
		return nil // nothing was sent, nothing is to be written
	}
	var tag pgconn.CommandTag
	var err error
	if len(l.pending) == 0 {
		tag, err = l.conn.Exec(ctx, "COMMIT")
	} else {
		br := l.one(ctx, "COMMIT", nil)
		tag, err = br.Exec()
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && tag.String() == "ROLLBACK" {
		err = pgx.ErrTxCommitRollback
	}
	if err != nil && !l.conn.Conn().IsClosed() && l.conn.Conn().PgConn().TxStatus() != 'I' {
		_, _ = l.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
	}
	return err
}

func (l *lazyTx) rollback(ctx context.Context) error {
	l.pending, l.checks = nil, nil
	if !l.sent {
		return nil
	}
	_, err := l.conn.Exec(ctx, "ROLLBACK")
	return err
}

// open reports whether the connection is in a transaction that can
// commit with nothing pending: begun, and no statement of it failed.
func (l *lazyTx) open() bool {
	return l.sent && len(l.pending) == 0 && l.conn.Conn().PgConn().TxStatus() == 'T'
}

// batchRow is the row of a statement sent alone in a batch (after BEGIN).
type batchRow struct{ br pgx.BatchResults }

func (r batchRow) Scan(dest ...any) error {
	err := r.br.QueryRow().Scan(dest...)
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}

// aloneRows are the rows of a statement sent alone in a batch: closing them
// closes the batch.
type aloneRows struct {
	pgx.Rows
	br     pgx.BatchResults
	closed bool
	err    error
}

// Next is the rows' Next; after the last row the batch is closed, as pgx
// closes the rows of a query then, so that the connection is free for the
// next statement before Close.
func (r *aloneRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *aloneRows) Close() {
	r.Rows.Close()
	if !r.closed {
		r.closed = true
		r.err = r.br.Close()
	}
}

func (r *aloneRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// failedBatch answers every result of a batch whose BEGIN failed.
type failedBatch struct{ err error }

func (f failedBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, f.err }
func (f failedBatch) Query() (pgx.Rows, error)         { return nil, f.err }
func (f failedBatch) QueryRow() pgx.Row                { return errRow(f) }
func (f failedBatch) Close() error                     { return f.err }
func (f failedBatch) Tx() pgx.Tx                       { return nil }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
