// Package boltstore implements the storage port (app.Store and app.Tx) on a
// single bbolt file. Each Update is one bbolt write transaction, committed
// with an fsync before Update returns; each View is one bbolt read
// transaction, which sees a consistent snapshot. Only one process can open
// the file at a time: bbolt holds an exclusive file lock while it is open.
//
// Records are stored as JSON-encoded private record types (decimals as
// strings, times as RFC 3339 in UTC), never as the domain structs
// themselves, so that the file format changes only on purpose. The layout of
// the buckets, the key formats and the schema version are described in
// docs/storage.md.
package boltstore

import (
	"context"
	"errors"
	"fmt"
	"github.com/costdb/costdb/adapters/internal/recordcache"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// SchemaVersion is the version of the on-disk layout this package writes and
// understands. A file with a newer version is refused; a file of version 1
// (before the list indexes) gets them built when it is opened; a file of
// version 2 or older gets its bank compositions' structures moved to the
// shared, reference-counted structures bucket (structures.go). Either
// becomes version 3.
const SchemaVersion = 3

// DefaultTimeout is how long Open waits for the file lock when
// Options.Timeout is zero.
const DefaultTimeout = 2 * time.Second

// ErrNewerSchema is wrapped by the error Open returns for a file written by
// a newer costdb, whose schema version this package does not understand.
var ErrNewerSchema = errors.New("database schema is newer than this costdb supports")

// Options tune Open.
type Options struct {
	// Timeout is how long Open waits for another process to release the
	// file lock before it gives up; zero means DefaultTimeout.
	Timeout time.Duration
	// MmapSize, when larger than the file, is the size the file is mapped
	// at from the start (bbolt's InitialMmapSize: address space, not
	// memory). A large import sets it to what the file will grow to, so
	// that bbolt does not remap mid-transaction, which copies every record
	// written so far onto the heap.
	MmapSize int
}

// Store is an app.Store on a bbolt file. It is safe for concurrent use.
type Store struct {
	db    *bolt.DB
	path  string
	queue commitQueue
	// commits counts the write transactions committed (Commits).
	commits atomic.Int64
	// health remembers a commit that failed for want of disk space, for
	// Ping, until a commit succeeds again.
	health app.StorageHealth
	// records keeps the contracts' measurements and amendments read
	// transactions decoded, by their bytes (recordcache).
	records *recordcache.Cache
	// resources keeps the resources read transactions decoded
	// (resourcecache.go).
	resources *recordcache.Cache
	// tokens remembers the tokens a filter word matched (tokenmemo.go).
	tokens *tokenMemo
}

var _ app.Store = (*Store)(nil)

// Bucket names.
var (
	bucketMeta = []byte("meta")

	bucketSettings = []byte("settings")

	bucketCompanies        = []byte("companies")
	bucketCompanyByName    = []byte("companies_by_name")
	bucketDepartments      = []byte("departments")
	bucketDepartmentByName = []byte("departments_by_name")
	bucketUsers            = []byte("users")
	bucketUserByEmail      = []byte("users_by_email")

	bucketGroups          = []byte("groups")
	bucketGroupsByCompany = []byte("groups_by_company")

	bucketResources          = []byte("resources")
	bucketResourceByCode     = []byte("resources_by_code")
	bucketResourcesByCompany = []byte("resources_by_company")

	bucketCompositions          = []byte("compositions")
	bucketCompositionByCode     = []byte("compositions_by_code")
	bucketCompositionsByCompany = []byte("compositions_by_company")

	bucketEditions         = []byte("editions")
	bucketBankResources    = []byte("bank_resources")
	bucketBankCompositions = []byte("bank_compositions")

	bucketBudgets          = []byte("budgets")
	bucketBudgetByCode     = []byte("budgets_by_code")
	bucketBudgetsByCompany = []byte("budgets_by_company")

	allBuckets = [][]byte{
		bucketMeta, bucketSettings,
		bucketCompanies, bucketCompanyByName, bucketDepartments, bucketDepartmentByName, bucketUsers, bucketUserByEmail,
		bucketGroups, bucketGroupsByCompany,
		bucketResources, bucketResourceByCode, bucketResourcesByCompany,
		bucketCompositions, bucketCompositionByCode, bucketCompositionsByCompany,
		bucketEditions, bucketBankResources, bucketBankCompositions, bucketStructures, bucketStructureRefs,
		bucketBudgets, bucketBudgetByCode, bucketBudgetsByCompany,
		bucketGroupsOrder, bucketResourcesOrder, bucketCompositionsOrder, bucketCompositionsUses,
		bucketBudgetsOrder, bucketBudgetsUses, bucketListCounts,
	}

	keySchemaVersion = []byte("schema_version")
)

// Open opens the database file at path, creating it (mode 0600) and its
// buckets when it does not exist. When another process holds the file, Open
// waits up to opts.Timeout and then returns an EUNAVAILABLE *domain.Error.
// A file with a newer schema version fails with an error wrapping
// ErrNewerSchema.
func Open(path string, opts Options) (*Store, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	// bbolt's defaults: fsync on every commit (no NoSync, no NoGrowSync).
	bopts := *bolt.DefaultOptions
	bopts.Timeout = timeout
	bopts.InitialMmapSize = opts.MmapSize
	db, err := bolt.Open(path, 0o600, &bopts)
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, domain.Errorf(domain.EUNAVAILABLE,
				"database %s is in use by another process (is a costdb server running?)", path)
		}
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	if err := db.Update(func(btx *bolt.Tx) error { return initSchema(btx, path) }); err != nil {
		_ = db.Close()
		return nil, err
	}
	return &Store{db: db, path: path, records: recordcache.New(recordcache.DefaultMax),
		resources: recordcache.New(resourceCacheMax), tokens: newTokenMemo()}, nil
}

// initSchema creates the buckets of a new file, or checks the schema version
// of an existing one.
func initSchema(btx *bolt.Tx, path string) error {
	meta := btx.Bucket(bucketMeta)
	upgrade, from := false, SchemaVersion
	if meta == nil {
		empty := true
		_ = btx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return fmt.Errorf("boltstore: %s is not a costdb database (it has no meta bucket)", path)
		}
		m, err := btx.CreateBucket(bucketMeta)
		if err != nil {
			return fmt.Errorf("boltstore: init %s: %w", path, err)
		}
		if err := m.Put(keySchemaVersion, []byte(strconv.Itoa(SchemaVersion))); err != nil {
			return fmt.Errorf("boltstore: init %s: %w", path, err)
		}
	} else {
		raw := meta.Get(keySchemaVersion)
		v, err := strconv.Atoi(string(raw))
		if err != nil || v < 1 {
			return fmt.Errorf("boltstore: %s has a bad schema version %q", path, raw)
		}
		if v > SchemaVersion {
			return fmt.Errorf("database %s has schema version %d, but this costdb supports only version %d (upgrade costdb): %w",
				path, v, SchemaVersion, ErrNewerSchema)
		}
		upgrade, from = v < SchemaVersion, v
	}
	for _, name := range allBuckets {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("boltstore: init %s: bucket %s: %w", path, name, err)
		}
	}
	if upgrade {
		// Version 1 had no list indexes: build them from the records.
		if from < 2 {
			if err := rebuildLists(btx); err != nil {
				return fmt.Errorf("boltstore: upgrade %s to schema version %d: %w", path, SchemaVersion, err)
			}
		}
		// Versions 1 and 2 stored each bank composition's structure inline.
		if err := shareStructures(btx); err != nil {
			return fmt.Errorf("boltstore: upgrade %s to schema version %d: %w", path, SchemaVersion, err)
		}
		if err := meta.Put(keySchemaVersion, []byte(strconv.Itoa(SchemaVersion))); err != nil {
			return fmt.Errorf("boltstore: upgrade %s: %w", path, err)
		}
	}
	// The search index of the editions held before it, or written by a
	// costdb that did not keep it (search.go). Its bucket is not one of
	// allBuckets: a backup made before it existed is still whole.
	if _, err := btx.CreateBucketIfNotExists(bucketSearch); err != nil {
		return fmt.Errorf("boltstore: init %s: bucket %s: %w", path, bucketSearch, err)
	}
	if err := buildSearch(btx); err != nil {
		return fmt.Errorf("boltstore: build the search index of %s: %w", path, err)
	}
	// The word index of the lists (listwords.go), likewise.
	if err := buildListWords(btx); err != nil {
		return fmt.Errorf("boltstore: build the word index of the lists of %s: %w", path, err)
	}
	return nil
}

// Path returns the path of the database file.
func (s *Store) Path() string { return s.path }

// View runs fn in a bbolt read transaction, which sees the snapshot
// committed when it starts. Writes inside fn return an error.
func (s *Store) View(ctx context.Context, fn func(app.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	btx, err := s.db.Begin(false)
	if err != nil {
		return fmt.Errorf("boltstore: begin read transaction: %w", err)
	}
	t := &tx{btx: btx, records: s.records, resources: s.resources, tokens: s.tokens}
	t.opened = t.openedArr[:0]
	defer func() {
		t.done = true
		_ = btx.Rollback()
	}()
	return fn(t)
}

// Settings reads the values under keys in one bbolt read transaction.
func (s *Store) Settings(ctx context.Context, keys []string) ([][]byte, error) {
	out := make([][]byte, len(keys))
	err := s.View(ctx, func(t app.Tx) error {
		for i, k := range keys {
			v, err := t.Setting(k)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Update runs fn in a bbolt write transaction and returns once it is
// committed and synced to disk (or rolled back: fn returned an error or
// panicked, and the panic goes on after the rollback).
//
// Writers are group-committed (issue 11; commitQueue): while one
// transaction is being committed, the Updates that arrive wait, and the
// next of them runs all the waiting ones, one after the other, in a single
// transaction with a single fsync. Each fn sees the writes of those before
// it, as it would have after their commits. When one fn fails, the batch
// is rolled back, the others are run again without it and it runs alone,
// so its answer is that of a transaction of its own: fn may run more than
// once and must set what it returns afresh each time.
func (s *Store) Update(ctx context.Context, fn func(app.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.queue.run(s, func(t *tx) error { return fn(t) })
}

// update is the write transaction of one or more fns in a row: nil when
// every fn returned nil and the commit succeeded. failed is the index of
// the first fn that failed (-1 when none did or the commit failed).
func (s *Store) update(fns []*call) (failed int, err error) {
	btx, err := s.db.Begin(true)
	if err != nil {
		return -1, fmt.Errorf("boltstore: begin write transaction: %w", err)
	}
	finished := false
	defer func() {
		if !finished {
			_ = btx.Rollback()
		}
	}()
	for i, c := range fns {
		if err := c.runIn(btx); err != nil {
			return i, err
		}
	}
	finished = true // Commit rolls back by itself when it fails
	if err := commitTx(btx); err != nil {
		err = commitError(err)
		s.health.Wrote(err)
		return -1, err
	}
	s.health.Wrote(nil)
	s.commits.Add(1)
	return -1, nil
}

// commitTx commits a write transaction (bbolt's Commit, which rolls back
// when it fails); tests replace it to fail as a full disk does.
var commitTx = (*bolt.Tx).Commit

// commitError is the error of a failed commit. Writing the pages or
// syncing them may fail for want of space (ENOSPC, or EDQUOT for a user
// over quota): that is ESTORAGEFULL, whose message the client sees; the
// system's error stays in the chain for the log. Nothing was written: the
// meta page is written last, and bbolt rolls the transaction back.
func commitError(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return &storageFull{domain.Errorf(domain.ESTORAGEFULL,
			"the server cannot store anything more: no space is left on the disk of its database; nothing was written"), err}
	}
	return fmt.Errorf("boltstore: commit: %w", err)
}

// storageFull is an ESTORAGEFULL error that keeps the system's error for
// the log (Error) while the client sees only the domain message.
type storageFull struct {
	full  *domain.Error
	cause error
}

func (e *storageFull) Error() string {
	return e.full.Message + " (boltstore: commit: " + e.cause.Error() + ")"
}
func (e *storageFull) Unwrap() []error { return []error{e.full, e.cause} }

// Commits returns how many write transactions the store has committed:
// with the Updates answered, how many writes one commit (one fsync)
// carried.
func (s *Store) Commits() int64 { return s.commits.Load() }

// Ping reports whether the store answers by running an empty read
// transaction, and whether it can store: after a commit failed for want of
// disk space, Ping returns that ESTORAGEFULL error until a commit succeeds
// again (app.StorageHealth).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.View(ctx, func(app.Tx) error { return nil }); err != nil {
		return err
	}
	return s.health.Err()
}

// Close closes the file and releases its lock. Transactions started later
// fail. It waits for running transactions to end.
func (s *Store) Close() error {
	return s.db.Close()
}
