package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/adapters/storetest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var bg = context.Background()

// newDatabase makes a database with the schema applied (a copy of a
// template migrated once).
func newDatabase(t *testing.T) string {
	t.Helper()
	return pgtest.NewDatabaseFrom(t, "pgstore", func(url string) error {
		s, err := pgstore.Open(bg, url, pgstore.Options{})
		if err != nil {
			return err
		}
		return s.Close()
	})
}

// open opens a store on a new database, closed when the test ends.
func open(t *testing.T, opts pgstore.Options) *pgstore.Store {
	t.Helper()
	return openURL(t, newDatabase(t), opts)
}

func openURL(t *testing.T, url string, opts pgstore.Options) *pgstore.Store {
	t.Helper()
	s, err := pgstore.Open(bg, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) app.Store { return open(t, pgstore.Options{}) })
}

func TestContractReopen(t *testing.T) {
	var mu sync.Mutex
	urls := map[string]string{} // the "path" of a store → its database
	storetest.RunReopen(t, func(t *testing.T, path string) app.Store {
		mu.Lock()
		url, ok := urls[path]
		if !ok {
			url = newDatabase(t)
			urls[path] = url
		}
		mu.Unlock()
		s, err := pgstore.Open(bg, url, pgstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestSerializationRetry makes two transactions read a counter and then
// both write it, so that the server must abort one of them (40001): the
// aborted one runs again, sees the other's write, and no increment is
// lost.
func TestSerializationRetry(t *testing.T) {
	var retries atomic.Int64
	// Two writers at once: a process runs one at a time unless told.
	s := open(t, pgstore.Options{MaxWriters: 2, OnRetry: func(int, error) { retries.Add(1) }})
	if err := s.Update(bg, func(tx app.Tx) error { return tx.PutSetting("counter", []byte("0")) }); err != nil {
		t.Fatal(err)
	}
	var read sync.WaitGroup
	read.Add(2)
	var once [2]sync.Once
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Update(bg, func(tx app.Tx) error {
				v, err := tx.Setting("counter")
				if err != nil {
					return err
				}
				n, _ := strconv.Atoi(string(v))
				// The first run of each waits until both have read.
				once[i].Do(func() { read.Done(); read.Wait() })
				return tx.PutSetting("counter", []byte(strconv.Itoa(n+1)))
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	var got []byte
	if err := s.View(bg, func(tx app.Tx) error {
		var err error
		got, err = tx.Setting("counter")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if string(got) != "2" {
		t.Errorf("counter = %s after two increments, want 2 (an update was lost)", got)
	}
	if retries.Load() == 0 {
		t.Errorf("no transaction was run again, want one aborted by the server and retried")
	}
}

// TestRetryBounded checks that a transaction that keeps failing with a
// serialization failure runs MaxRetries+1 times and then fails with
// EUNAVAILABLE, and that other errors are not retried.
func TestRetryBounded(t *testing.T) {
	s := open(t, pgstore.Options{MaxRetries: 3})
	runs := 0
	err := s.Update(bg, func(tx app.Tx) error {
		runs++
		return &pgconn.PgError{Code: "40001", Message: "could not serialize access"}
	})
	if runs != 4 {
		t.Errorf("fn ran %d times, want 4 (1 + MaxRetries)", runs)
	}
	if got := domain.ErrorCode(err); got != domain.EUNAVAILABLE {
		t.Errorf("error %v has code %q, want %q", err, got, domain.EUNAVAILABLE)
	}
	runs = 0
	err = s.View(bg, func(tx app.Tx) error {
		runs++
		return domain.Errorf(domain.ECONFLICT, "no")
	})
	if runs != 1 || domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("a domain error: fn ran %d times and View returned %v, want once and the error", runs, err)
	}
}

// TestMigrationsConcurrent opens one empty database from several stores at
// once: every Open succeeds and each migration is recorded once.
func TestMigrationsConcurrent(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := pgstore.Open(bg, url, pgstore.Options{})
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
		}
	}
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(bg)
	var count, max int
	if err := conn.QueryRow(bg, `SELECT count(*), max(version) FROM schema_migrations`).Scan(&count, &max); err != nil {
		t.Fatal(err)
	}
	if want := pgstore.SchemaVersion(); count != want || max != want {
		t.Errorf("schema_migrations has %d rows up to version %d, want %d", count, max, want)
	}
	// A database a newer costdb migrated is refused.
	if _, err := conn.Exec(bg, `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')`); err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.Open(bg, url, pgstore.Options{}); !errors.Is(err, pgstore.ErrNewerSchema) {
		t.Errorf("Open of a newer schema: %v, want ErrNewerSchema", err)
	}
}

// TestBankBulk writes an edition the way an import does (each row read
// first, then put), twice, so that the second run reads every row back
// through the whole-edition read; then every row reads back exactly.
func TestBankBulk(t *testing.T) {
	s := open(t, pgstore.Options{})
	key := domain.EditionKey("SINAPI", "MG", "08/2026", "")
	want := make([]*domain.BankResource, 300)
	for i := range want {
		want[i] = &domain.BankResource{Code: fmt.Sprintf("%05d", i), Description: "Item " + strconv.Itoa(i), Unit: "UN", Type: 1,
			Prices: domain.PriceLine{PND: decimal.RequireFromString(fmt.Sprintf("%d.50", i)), PD: decimal.RequireFromString("1.000"),
				PNDI: decimal.RequireFromString("0"), PDI: decimal.RequireFromString("0.0000001")}}
	}
	comps := []*domain.BankComposition{{Code: "C1", Description: "Comp", Unit: "M2", Class: "X",
		Cost:  domain.UnitPrice{PND: decimal.RequireFromString("10.00"), PD: decimal.RequireFromString("9.9")},
		Items: []domain.StructureItem{{Kind: domain.ItemKind("resource"), Code: "00001", Coefficient: decimal.RequireFromString("0.25")}}}}
	for round := range 2 {
		err := s.Update(bg, func(tx app.Tx) error {
			for _, r := range want {
				_, err := tx.BankResource(key, r.Code)
				if round == 0 && domain.ErrorCode(err) != domain.ENOTFOUND {
					return fmt.Errorf("BankResource before the first put: %v", err)
				}
				if round == 1 && err != nil {
					return err
				}
				if err := tx.PutBankResource(key, r); err != nil {
					return err
				}
			}
			for _, c := range comps {
				if err := tx.PutBankComposition(key, c); err != nil {
					return err
				}
			}
			// Read your writes, from the buffer and after a flush.
			got, err := tx.BankResource(key, "00007")
			if err != nil {
				return err
			}
			if d := cmp.Diff(want[7].Prices.PND.String(), got.Prices.PND.String()); d != "" {
				t.Errorf("buffered read: %s", d)
			}
			all, err := tx.BankResources(key)
			if err != nil {
				return err
			}
			if len(all) != len(want) {
				t.Errorf("BankResources in the transaction: %d rows, want %d", len(all), len(want))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	err := s.View(bg, func(tx app.Tx) error {
		all, err := tx.BankResources(key)
		if err != nil {
			return err
		}
		if d := cmp.Diff(want, all, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.String() == b.String() })); d != "" {
			t.Errorf("bank resources (-want +got):\n%s", d)
		}
		cs, err := tx.BankCompositions(key)
		if err != nil {
			return err
		}
		if d := cmp.Diff(comps, cs, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.String() == b.String() })); d != "" {
			t.Errorf("bank compositions (-want +got):\n%s", d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMaxWritersURL checks that the URL parameter max_writers is costdb's:
// taken out of the URL (the server would refuse it) and applied.
func TestMaxWritersURL(t *testing.T) {
	url := newDatabase(t)
	s := openURL(t, url+"&max_writers=3", pgstore.Options{})
	if err := s.Ping(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.Open(bg, url+"&max_writers=none", pgstore.Options{}); err == nil {
		t.Error("max_writers=none was accepted")
	}
}

// TestDiskFullTurnsPingUntilAWriteCommits: a write failing with SQLSTATE
// 53100 (disk_full) answers ESTORAGEFULL and makes Ping (readiness) fail
// with it; a refused write leaves it so; a write that commits clears it.
func TestDiskFullTurnsPingUntilAWriteCommits(t *testing.T) {
	s := open(t, pgstore.Options{})
	full := &pgconn.PgError{Severity: "ERROR", Code: "53100", Message: `could not extend file "base/1/2": No space left on device`}
	err := s.Update(bg, func(tx app.Tx) error {
		if err := tx.PutSetting("k", []byte("v")); err != nil {
			return err
		}
		return full // as the statement that met the full disk would
	})
	if domain.ErrorCode(err) != domain.ESTORAGEFULL {
		t.Fatalf("write meeting a full disk: %v, want ESTORAGEFULL", err)
	}
	if err := s.Ping(bg); domain.ErrorCode(err) != domain.ESTORAGEFULL {
		t.Fatalf("Ping after it: %v, want ESTORAGEFULL", err)
	}
	if err := s.View(bg, func(tx app.Tx) error {
		if v, err := tx.Setting("k"); err != nil || v != nil {
			return fmt.Errorf("the failed write is there: %q, %v", v, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(bg, func(app.Tx) error { return domain.Errorf(domain.EINVALID, "no") }); domain.ErrorCode(err) != domain.EINVALID {
		t.Fatal(err)
	}
	if err := s.Ping(bg); domain.ErrorCode(err) != domain.ESTORAGEFULL {
		t.Fatalf("Ping after a refused write: %v, want ESTORAGEFULL still", err)
	}
	if err := s.Update(bg, func(tx app.Tx) error { return tx.PutSetting("k", []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(bg); err != nil {
		t.Fatalf("Ping after a write committed: %v, want nil", err)
	}
}
