// Package pgstore implements the storage port (app.Store and app.Tx) on
// PostgreSQL through pgx, so that several costdb processes can share one
// database. Each View and each Update is one SERIALIZABLE transaction; a
// transaction the server aborts with a serialization failure (SQLSTATE
// 40001) or a deadlock (40P01) is run again from the start, a bounded number
// of times (Options.MaxRetries), so the function given to View or Update may
// run more than once and must have no effect outside the transaction but
// on its own variables (app's use cases keep to that: see docs/storage.md).
//
// The schema is normalised (one table per record kind, child tables for
// prices, bank references, items and budget trees, with foreign keys to
// their parents), every record of a company is keyed by (company_id, id),
// and every uniqueness rule of the port is a unique index, mapped to
// ECONFLICT as the bbolt store reports it. The schema is created and
// upgraded by numbered migrations embedded in the binary (migrations/*.sql),
// applied when the store opens; two processes opening one database at once
// are safe (see migrate). The SQL keeps to what CockroachDB also runs: no
// advisory locks, no LISTEN/NOTIFY, no extensions.
package pgstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	neturl "net/url"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/costdb/costdb/adapters/internal/recordcache"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// DefaultMaxRetries is how many times a transaction aborted by a
// serialization failure runs again when Options.MaxRetries is zero.
const DefaultMaxRetries = 10

// ErrNewerSchema is wrapped by the error Open returns for a database
// migrated by a newer costdb.
var ErrNewerSchema = errors.New("database schema is newer than this costdb supports")

// Options tune Open.
type Options struct {
	// MaxRetries bounds how many times a transaction aborted by a
	// serialization failure runs again; zero means DefaultMaxRetries, a
	// negative value none.
	MaxRetries int
	// OnRetry, when set, is called before each new run of a transaction
	// (attempt counts from 1). Tests use it.
	OnRetry func(attempt int, err error)
	// MaxWriters bounds how many write transactions of this process run
	// at once; zero means the URL's max_writers parameter, else
	// DefaultMaxWriters. Writers of one company touch the same index
	// pages, and PostgreSQL's serializable isolation aborts (and the store
	// runs again) more of them the more run together: a queue in the
	// process costs less than those runs (see docs/performance.md). Reads
	// are not limited.
	MaxWriters int
}

// DefaultMaxWriters is Options.MaxWriters when neither it nor the URL sets
// it: one write transaction at a time per process, as with bbolt; other
// processes on the same database write at the same time.
const DefaultMaxWriters = 1

// Store is an app.Store on a PostgreSQL database. It is safe for concurrent
// use by many goroutines and by many processes.
type Store struct {
	pool   *pgxpool.Pool
	wpool  *pgxpool.Pool // the write transactions' (writerpool.go)
	opts   Options
	closed atomic.Bool
	queue  writeQueue // the write transactions (groupcommit.go)
	// health remembers a write that failed for a full disk, for Ping,
	// until a write commits again.
	health app.StorageHealth
	// records keeps the contracts' measurements and amendments read
	// transactions decoded, by their bytes (recordcache).
	records *recordcache.Cache
	// trips counts the round trips to the server (roundtrips.go).
	trips *tripCounter
	// hot and hotWrites are the settings read-only and write transactions
	// read ahead (settingsahead.go).
	hot, hotWrites hotSettings
	// stampPool are composition stamps drawn ahead for the grouped
	// writes' deferred puts (compdelta.go).
	stampPool stampPool
	// wordPlans choose the plans of the one-word list pages (wordplan.go).
	wordPlans wordPlans
}

var _ app.Store = (*Store)(nil)

// IsURL reports whether s names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than a bbolt file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DefaultMaxConns is the size of the read transactions' pool when the URL
// gives none (pool_max_conns): two connections per core this process may
// use and two more, at least 4. More connections than the cores can run
// only time-slice the same work: on a 2-core machine serving the rendered
// list page (issue 29, P5), 6 connections served 1,195–1,225 pages a
// second with a p99 of 92–100 ms where 16 served 1,033–1,094 with 107–116 ms
// (docs/performance.md). Documents hold theirs longest, and at most
// --max-exports of them run at once (2 by default).
func DefaultMaxConns() int32 { return int32(max(4, 2*runtime.GOMAXPROCS(0)+2)) }

// Open connects to the database at url (a postgres:// URL; pool settings
// such as pool_max_conns may be given in it), applies the migrations it
// lacks and returns the store. A database the server cannot be reached for
// is an EUNAVAILABLE *domain.Error.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	url, writers, err := takeMaxWriters(url)
	if err != nil {
		return nil, err
	}
	if opts.MaxWriters == 0 {
		opts.MaxWriters = writers
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns()
	}
	trips := &tripCounter{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, domain.Errorf(domain.EUNAVAILABLE, "database %s does not answer: %v", redact(cfg), err)
	}
	n := opts.MaxWriters
	if n <= 0 {
		n = DefaultMaxWriters
	}
	wpool, err := openWriterPool(ctx, cfg, n)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool, wpool: wpool, opts: opts, queue: writeQueue{max: n}, records: recordcache.New(recordcache.DefaultMax), trips: trips}
	s.stampPool.pool = pool
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.fillSearchWords(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// takeMaxWriters removes the parameter max_writers (costdb's, not the
// server's) from a database URL and returns its value (0 when absent).
func takeMaxWriters(raw string) (string, int, error) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "", 0, fmt.Errorf("pgstore: bad database URL: %w", err)
	}
	q := u.Query()
	v := q.Get("max_writers")
	if v == "" {
		return raw, 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("pgstore: max_writers=%q is not a positive number", v)
	}
	q.Del("max_writers")
	u.RawQuery = q.Encode()
	return u.String(), n, nil
}

// redact names a database without its password.
func redact(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("postgres://%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// Pool returns the connection pool (for tools such as costdb migrate).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// migration is one numbered file of migrations/.
type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	entries, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("pgstore: migration file %s is not NNNN_name.sql", e.Name())
		}
		b, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("pgstore: migrations are not numbered 1, 2, 3…: %s", m.name)
		}
	}
	return out, nil
}

// SchemaVersion is the schema version this package writes and understands:
// the number of its last migration.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate brings the schema up to date. The version table is made with
// CREATE TABLE IF NOT EXISTS; each migration runs in one transaction that
// first inserts its version (a primary key) and then runs its DDL. When two
// processes start at once, one of them commits; the other's insert waits
// for it and then fails with a unique violation (or a serialization
// failure), its transaction is rolled back with its DDL, and it reads the
// versions again and finds the migration applied. No advisory lock is
// needed.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.migrateOnce(ctx, ms)
		if err == nil {
			return nil
		}
		if !retryableDDL(err) || attempt >= 20 {
			return err
		}
		time.Sleep(time.Duration(10+rand.IntN(40)) * time.Millisecond)
	}
}

func retryableDDL(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	// 23505: another process inserted the version (or created a catalog
	// row of the version table) first; 40001, 40P01: aborted by the server;
	// 42P07, 42710: the table or its type exists (created by the other
	// process meanwhile).
	switch pe.Code {
	case "23505", "40001", "40P01", "42P07", "42710":
		return true
	}
	return false
}

func (s *Store) migrateOnce(ctx context.Context, ms []migration) error {
	if _, err := s.pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version int PRIMARY KEY,
		name text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return fmt.Errorf("pgstore: create schema_migrations: %w", err)
	}
	var current int
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("pgstore: read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("database has schema version %d, but this costdb supports only version %d (upgrade costdb): %w",
			current, len(ms), ErrNewerSchema)
	}
	for _, m := range ms[current:] {
		err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.Serializable}, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, m.sql)
			return err
		})
		if err != nil {
			return fmt.Errorf("pgstore: migration %s: %w", m.name, err)
		}
	}
	return nil
}

// View runs fn in a read-only SERIALIZABLE transaction, again when the
// server aborts it with a serialization failure.
func (s *Store) View(ctx context.Context, fn func(app.Tx) error) error {
	return s.run(ctx, false, fn)
}

// Update runs fn in a SERIALIZABLE transaction that is committed when fn
// returns nil and rolled back otherwise (or when fn panics; the panic goes
// on after the rollback). A transaction aborted by a serialization failure,
// in fn or at commit, runs again from the start, at most MaxRetries times;
// then Update returns an EUNAVAILABLE error.
func (s *Store) Update(ctx context.Context, fn func(app.Tx) error) error {
	return s.run(ctx, true, fn)
}

func (s *Store) maxRetries() int {
	switch {
	case s.opts.MaxRetries < 0:
		return 0
	case s.opts.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return s.opts.MaxRetries
}

// errClosed is what a transaction on a closed store returns: a fault of
// the program, as with the bbolt store, not an unavailable database.
var errClosed = errors.New("pgstore: the store is closed")

func (s *Store) run(ctx context.Context, writable bool, fn func(app.Tx) error) error {
	if !writable {
		return s.runRetried(ctx, writable, fn)
	}
	err := s.runRetried(ctx, writable, fn)
	s.health.Wrote(err)
	return err
}

func (s *Store) runRetried(ctx context.Context, writable bool, fn func(app.Tx) error) error {
	if s.closed.Load() {
		return errClosed
	}
	if writable {
		return s.runWrite(ctx, fn)
	}
	return s.retried(ctx, func() (error, bool) { return s.runOnce(ctx, false, fn) })
}

// runOnce runs fn in one transaction. retry says whether the transaction
// was aborted by the server for a reason that running it again may cure.
// The transaction's BEGIN goes with its first statement (lazyTx); the
// COMMIT of a read-only transaction is sent after runOnce has returned
// (commitLater).
func (s *Store) runOnce(ctx context.Context, writable bool, fn func(app.Tx) error) (err error, retry bool) {
	err, retry, misguessed := s.runAttempt(ctx, writable, fn, writable)
	if misguessed {
		// A stamp guessed was not the stored one (stampcheck.go): the
		// transaction was rolled back; fn runs again on what is stored.
		err, retry, _ = s.runAttempt(ctx, writable, fn, false)
	}
	return err, retry
}

// runAttempt is runOnce, letting the transaction guess stamps when guess
// is set; misguessed reports a wrong guess (and nothing committed).
func (s *Store) runAttempt(ctx context.Context, writable bool, fn func(app.Tx) error, guess bool) (err error, retry, misguessed bool) {
	conn, err := s.txPool(writable).Acquire(ctx)
	if err != nil {
		if s.closed.Load() {
			return errClosed, false, false
		}
		return s.connErr("begin transaction", err), false, false
	}
	lt := newLazyTx(conn, writable)
	t := newTx(ctx, lt, writable)
	t.guess, t.plans = guess, &s.wordPlans
	if !writable {
		t.records = s.records
		t.readAhead(lt, &s.hot)
	} else {
		t.readAhead(lt, &s.hotWrites)
	}
	finished := false
	defer func() {
		t.done = true
		if !finished {
			_ = lt.rollback(context.WithoutCancel(ctx))
			conn.Release()
		}
	}()
	if err := fn(t); err != nil {
		_ = lt.checkGuesses(ctx)
		if lt.misguessed() {
			return nil, false, true
		}
		return orFault(err), t.aborted || retryable(err), false
	}
	if writable {
		if err := t.flush(); err != nil {
			_ = lt.checkGuesses(ctx)
			if lt.misguessed() {
				return nil, false, true
			}
			return t.fail(err), t.aborted, false
		}
	}
	t.done = true
	if !writable && lt.open() {
		finished = true
		go commitLater(context.WithoutCancel(ctx), lt)
		return nil, false, false
	}
	finished = true
	err = lt.commit(ctx)
	conn.Release()
	if err != nil {
		if lt.misguessed() {
			return nil, false, true
		}
		return s.connErr("commit", err), retryable(err), false
	}
	return nil, false, false
}

// commitLater commits a read-only transaction whose every statement
// succeeded and releases its connection, while its caller goes on with
// what it read. Nothing can make that COMMIT fail but the connection: a
// read-only transaction under SERIALIZABLE isolation is never the one
// PostgreSQL cancels at commit (it cancels a transaction that others read
// the writes of, and this one wrote nothing; the anomalies a read-only
// transaction can take part in are reported by its statements, which
// have all succeeded), and it has nothing to make durable. A connection
// that fails is closed by the pool when it is released.
func commitLater(ctx context.Context, lt *lazyTx) {
	ctx, cancel := context.WithTimeout(unwaited(ctx), commitLaterTimeout)
	defer cancel()
	_ = lt.commit(ctx)
	lt.conn.Release()
}

// commitLaterTimeout bounds how long commitLater holds a connection for a
// server that does not answer (pgx then closes the connection).
const commitLaterTimeout = time.Minute

// connErr wraps an error of the connection or the server.
func (s *Store) connErr(what string, err error) error {
	if retryable(err) {
		return err
	}
	if f := fault(err); f != nil {
		return f
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("pgstore: %s: %w", what, err)
	}
	return domain.Errorf(domain.EUNAVAILABLE, "the database does not answer (%s): %v", what, err)
}

// retryable reports whether err is a serialization failure or a deadlock,
// which a new run of the transaction may not meet.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// Settings reads the values under keys in one statement outside a
// transaction block (one round trip, no BEGIN or COMMIT): a single
// statement runs in a snapshot of its own, taken when it starts, which
// holds every transaction committed before it was sent. The statement is
// prepared once per connection (pgx caches it).
func (s *Store) Settings(ctx context.Context, keys []string) ([][]byte, error) {
	if s.closed.Load() {
		return nil, errClosed
	}
	out := make([][]byte, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	want := make([][]byte, len(keys))
	for i, k := range keys {
		want[i] = []byte(k)
	}
	rows, err := s.pool.Query(ctx, `SELECT key, value FROM settings WHERE key = ANY($1)`, want)
	if err != nil {
		return nil, s.connErr("read settings", err)
	}
	defer rows.Close()
	var k, v []byte
	for rows.Next() {
		if err := rows.Scan(&k, &v); err != nil {
			return nil, s.connErr("read settings", err)
		}
		for i, key := range keys {
			if key == string(k) {
				out[i] = append([]byte{}, v...)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.connErr("read settings", err)
	}
	return out, nil
}

// Ping reports whether the database answers, and whether it can store:
// after a write failed for a full disk (SQLSTATE 53100), Ping returns that
// ESTORAGEFULL error until a write commits again (app.StorageHealth).
func (s *Store) Ping(ctx context.Context) error {
	if s.closed.Load() {
		return errClosed
	}
	if err := s.pool.Ping(ctx); err != nil {
		return domain.Errorf(domain.EUNAVAILABLE, "the database does not answer: %v", err)
	}
	return s.health.Err()
}

// Close closes every connection. Transactions started later fail. It is
// safe to call more than once.
func (s *Store) Close() error {
	s.closed.Store(true)
	s.pool.Close()
	if s.wpool != nil {
		s.wpool.Close()
	}
	return nil
}

// Tables lists the tables of the records, in the order costdb migrate
// reports their counts.
var Tables = []string{
	"settings", "companies", "departments", "users", "groups", "resources", "compositions",
	"editions", "bank_resources", "bank_compositions", "budgets",
	"budget_versions", "contracts", "contract_measurements", "contract_amendments", "bank_changes", "charges_tables",
	"webhooks", "webhook_deliveries",
}

// Counts returns the number of rows of each table of Tables, in one
// transaction.
func (s *Store) Counts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		for _, table := range Tables {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
				return err
			}
			out[table] = n
		}
		return nil
	})
	return out, err
}
