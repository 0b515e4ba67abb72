package pgstore

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// Round trips (issue 29, item 4). Every statement, batch or COPY the store
// sends is one round trip to the server: the request waits for its answer.
// The store counts them with a pgx tracer installed on every connection of
// its pool, so that tests can assert how many a request makes and the
// load script can print it. A statement prepared for a connection's
// statement cache (the first use of a query on that connection) is a round
// trip of its own and is counted too.
//
// Round trips the request does not wait for (the COMMIT of a read-only
// transaction, sent after View has returned: lazytx.go) are counted apart.

// RoundTrips are the counts of a Store since it was opened.
type RoundTrips struct {
	// Waited are the round trips a caller of the store waited for.
	Waited int64
	// Unwaited are the round trips sent after the caller had its answer
	// (the COMMIT of a read-only transaction).
	Unwaited int64
}

// Sub is r minus an earlier reading.
func (r RoundTrips) Sub(before RoundTrips) RoundTrips {
	return RoundTrips{Waited: r.Waited - before.Waited, Unwaited: r.Unwaited - before.Unwaited}
}

// RoundTrips returns the round trips the store has made since it was opened.
func (s *Store) RoundTrips() RoundTrips {
	return RoundTrips{Waited: s.trips.waited.Load(), Unwaited: s.trips.unwaited.Load()}
}

// tripCounter is the pgx tracer that counts.
type tripCounter struct {
	waited, unwaited atomic.Int64
}

// unwaitedKey marks the context of a round trip nobody waits for.
type unwaitedKey struct{}

func unwaited(ctx context.Context) context.Context {
	return context.WithValue(ctx, unwaitedKey{}, true)
}

// traceSQL, when set, sees every round trip's first statement (a debugging
// aid for who works on this file).
var traceSQL func(sql string)

func (c *tripCounter) count(ctx context.Context) {
	if ctx.Value(unwaitedKey{}) != nil {
		c.unwaited.Add(1)
		return
	}
	c.waited.Add(1)
}

var (
	_ pgx.QueryTracer    = (*tripCounter)(nil)
	_ pgx.BatchTracer    = (*tripCounter)(nil)
	_ pgx.CopyFromTracer = (*tripCounter)(nil)
	_ pgx.PrepareTracer  = (*tripCounter)(nil)
)

func (c *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if traceSQL != nil {
		traceSQL(d.SQL)
	}
	c.count(ctx)
	return ctx
}

func (c *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	if traceSQL != nil && d.Batch.Len() > 0 {
		traceSQL("batch: " + d.Batch.QueuedQueries[0].SQL)
	}
	c.count(ctx)
	return ctx
}

func (c *tripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (c *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (c *tripCounter) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	c.count(ctx)
	return ctx
}

func (c *tripCounter) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

func (c *tripCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	c.count(ctx)
	return ctx
}

func (c *tripCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}
