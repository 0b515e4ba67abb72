package app

// BatchTx is an optional part of a write Tx (reached with Optional): Batch
// runs fn, whose puts of new records the store may hold back and write
// together when fn returns, in the order that suits it (bbolt: each
// index's keys sorted, so that a transaction putting many records does
// not shift one ever larger page node; PostgreSQL: COPY). Inside fn only
// puts (and the point reads they make) are made: a list query there may
// not see the records fn put. A record put in a batch must be new (its id
// not stored yet): PostgreSQL refuses one that is not with ECONFLICT. A
// code taken, by a stored record or one put before in the batch, is
// ECONFLICT as with single puts. An error of fn or of the writes ends the
// transaction, which then writes nothing.
type BatchTx interface {
	Batch(fn func() error) error
}

// inBatch runs fn through tx's BatchTx, or directly when it has none.
func inBatch(tx Tx, fn func() error) error {
	if b, ok := Optional[BatchTx](tx); ok {
		return b.Batch(fn)
	}
	return fn()
}
