package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The writers' connections (issue 29, item 4). Write transactions run one
// at a time per process (Options.MaxWriters), so the time a write holds
// its slot bounds every write of the process. When they took their
// connection from the pool the reads use, a write that had its slot then
// waited for a connection behind every read queued for one (64 clients on
// a pool of 16): the slot was held while nothing was sent. The write
// transactions therefore have a pool of their own, of MaxWriters
// connections (the same settings and tracer), which only a write that
// holds a slot asks for: it never waits for a connection. Reads, the
// generation reads and the tools keep the main pool.

// openWriterPool opens the writers' pool of n connections on cfg.
func openWriterPool(ctx context.Context, cfg *pgxpool.Config, n int) (*pgxpool.Pool, error) {
	w := cfg.Copy()
	w.MaxConns = int32(n)
	w.MinConns = 0
	pool, err := pgxpool.NewWithConfig(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	return pool, nil
}

// txPool is the pool a transaction takes its connection from.
func (s *Store) txPool(writable bool) *pgxpool.Pool {
	if writable && s.wpool != nil {
		return s.wpool
	}
	return s.pool
}
