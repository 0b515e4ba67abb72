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
type lazyTx struct {
	conn  *pgxpool.Conn
	begin string // the BEGIN statement
	begun bool
}

func beginSQL(writable bool) string {
	if writable {
		return "BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE"
	}
	return "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY"
}

// SendBatch sends b, after BEGIN when the transaction has not begun.
func (l *lazyTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if l.begun {
		return l.conn.SendBatch(ctx, b)
	}
	l.begun = true
	nb := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(b.QueuedQueries)+1)}
	nb.Queue(l.begin)
	nb.QueuedQueries = append(nb.QueuedQueries, b.QueuedQueries...)
	br := l.conn.SendBatch(ctx, nb)
	if _, err := br.Exec(); err != nil {
		_ = br.Close()
		return failedBatch{err}
	}
	return br
}

// one sends sql alone, after BEGIN when the transaction has not begun.
func (l *lazyTx) one(ctx context.Context, sql string, args []any) pgx.BatchResults {
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	return l.SendBatch(ctx, b)
}

func (l *lazyTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if l.begun {
		return l.conn.Exec(ctx, sql, args...)
	}
	if len(args) == 0 {
		// pgx sends a statement without arguments as a simple query,
		// which may hold several statements: BEGIN is one more.
		l.begun = true
		return l.conn.Exec(ctx, l.begin+"; "+sql)
	}
	br := l.one(ctx, sql, args)
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

func (l *lazyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if l.begun {
		return l.conn.QueryRow(ctx, sql, args...)
	}
	return batchRow{l.one(ctx, sql, args)}
}

func (l *lazyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if l.begun {
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
	if !l.begun {
		l.begun = true
		if _, err := l.conn.Exec(ctx, l.begin); err != nil {
			return 0, err
		}
	}
	return l.conn.CopyFrom(ctx, table, columns, src)
}

// commit commits the transaction: a COMMIT that finds it failed rolls it
// back and is pgx.ErrTxCommitRollback, as pgx.Tx's Commit.
func (l *lazyTx) commit(ctx context.Context) error {
	if !l.begun {
		return nil
	}
	tag, err := l.conn.Exec(ctx, "COMMIT")
	if err == nil && tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return err
}

func (l *lazyTx) rollback(ctx context.Context) error {
	if !l.begun {
		return nil
	}
	_, err := l.conn.Exec(ctx, "ROLLBACK")
	return err
}

// open reports whether the connection is in a transaction that can
// commit: begun, and no statement of it failed.
func (l *lazyTx) open() bool {
	return l.begun && l.conn.Conn().PgConn().TxStatus() == 'T'
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
func (f failedBatch) QueryRow() pgx.Row                { return errRow{f.err} }
func (f failedBatch) Close() error                     { return f.err }
func (f failedBatch) Tx() pgx.Tx                       { return nil }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
