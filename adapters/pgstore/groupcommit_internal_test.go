package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// openGroupStore opens a store on a new database; it returns its URL too.
func openGroupStore(t testing.TB, opts Options) (*Store, string) {
	t.Helper()
	url := pgtest.NewDatabaseFrom(t, "pgstore", func(url string) error {
		s, err := Open(context.Background(), url, Options{})
		if err != nil {
			return err
		}
		return s.Close()
	})
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, url
}

// txid is the ID of the top-level transaction tx runs in.
func txid(t *testing.T, atx app.Tx) int64 {
	t.Helper()
	var id int64
	if _, err := atx.(*tx).one(`SELECT txid_current()`, nil, &id); err != nil {
		t.Error(err)
	}
	return id
}

// blockWriter starts an Update that holds the store's only write slot
// until the returned release is called, and waits until it runs.
func blockWriter(t *testing.T, s *Store) (release func()) {
	t.Helper()
	running, done := make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- s.Update(context.Background(), func(app.Tx) error {
			close(running)
			<-done
			return nil
		})
	}()
	<-running
	return func() {
		close(done)
		if err := <-errc; err != nil {
			t.Errorf("the blocking writer: %v", err)
		}
	}
}

// waitQueued waits until n Updates wait in the store's queue.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	// A guard against a hang, not a measure.
	deadline := time.Now().Add(time.Minute)
	for {
		s.queue.mu.Lock()
		got := len(s.queue.waiting)
		s.queue.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Updates queued, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func setting(t *testing.T, s *Store, k string) []byte {
	t.Helper()
	var v []byte
	if err := s.View(context.Background(), func(tx app.Tx) error {
		var err error
		v, err = tx.Setting(k)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return v
}

// group runs fns as Updates queued behind a blocked writer, so that they
// run as one group, and returns each one's error (or its panic, as
// errPanic).
func group(t *testing.T, s *Store, ctxs []context.Context, fns ...func(app.Tx) error) []error {
	t.Helper()
	release := blockWriter(t, s)
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		ctx := context.Background()
		if ctxs != nil && ctxs[i] != nil {
			ctx = ctxs[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					errs[i] = errPanic{v}
				}
			}()
			errs[i] = s.Update(ctx, fn)
		}()
		waitQueued(t, s, i+1) // in this order
	}
	release()
	wg.Wait()
	return errs
}

type errPanic struct{ v any }

func (e errPanic) Error() string { return "panic" }

// TestGroupCommit checks that Updates queued behind the writer run in one
// transaction, each seeing the effects of those before it, and all commit.
func TestGroupCommit(t *testing.T) {
	s, _ := openGroupStore(t, Options{})
	ids := make([]int64, 3)
	var seen []byte
	errs := group(t, s, nil,
		func(tx app.Tx) error {
			ids[0] = txid(t, tx)
			return tx.PutSetting("a", []byte("1"))
		},
		func(tx app.Tx) error {
			ids[1] = txid(t, tx)
			v, err := tx.Setting("a")
			seen = v
			if err != nil {
				return err
			}
			return tx.PutSetting("b", []byte("2"))
		},
		func(tx app.Tx) error {
			ids[2] = txid(t, tx)
			return tx.PutSetting("c", []byte("3"))
		})
	for i, err := range errs {
		if err != nil {
			t.Errorf("Update %d: %v", i, err)
		}
	}
	if ids[0] == 0 || ids[0] != ids[1] || ids[1] != ids[2] {
		t.Errorf("transactions %v, want the three Updates in one", ids)
	}
	if string(seen) != "1" {
		t.Errorf("the second Update read a = %q, want the first one's 1", seen)
	}
	for k, want := range map[string]string{"a": "1", "b": "2", "c": "3"} {
		if got := setting(t, s, k); string(got) != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestGroupCommitFailedFn checks that a fn that fails, or panics, after
// writing leaves nothing, while the others of its group commit.
func TestGroupCommitFailedFn(t *testing.T) {
	s, _ := openGroupStore(t, Options{})
	bad := errors.New("bad input")
	ids := make([]int64, 4)
	var seen []byte
	errs := group(t, s, nil,
		func(tx app.Tx) error {
			ids[0] = txid(t, tx)
			if err := tx.PutSetting("a", []byte("1")); err != nil {
				return err
			}
			return tx.PutSetting("shared", []byte("a"))
		},
		func(tx app.Tx) error {
			ids[1] = txid(t, tx)
			if err := tx.PutSetting("b", []byte("2")); err != nil {
				return err
			}
			if err := tx.PutSetting("shared", []byte("b")); err != nil {
				return err
			}
			return bad
		},
		func(tx app.Tx) error {
			ids[2] = txid(t, tx)
			if err := tx.PutSetting("c", []byte("3")); err != nil {
				return err
			}
			panic("c panics")
		},
		func(atx app.Tx) error {
			// A statement of the server fails: the transaction refuses
			// every statement until it is rolled back to the savepoint.
			tx := atx.(*tx)
			if err := tx.PutSetting("e", []byte("5")); err != nil {
				return err
			}
			return tx.exec(`SELECT 1 / (SELECT count(*) FROM settings WHERE key = 'none')::int`)
		},
		func(atx app.Tx) error {
			ids[3] = txid(t, atx)
			// A statement new to the connection, prepared before it is sent.
			var n int
			if _, err := atx.(*tx).one(`SELECT $1::int + 41`, []any{1}, &n); err != nil || n != 42 {
				return fmt.Errorf("a new statement after a failed one: %d, %v", n, err)
			}
			tx := atx
			v, err := tx.Setting("shared")
			seen = v
			if err != nil {
				return err
			}
			return tx.PutSetting("d", []byte("4"))
		})
	if errs[0] != nil || errs[4] != nil {
		t.Errorf("the good Updates: %v, %v", errs[0], errs[4])
	}
	if errs[3] == nil {
		t.Error("the Update whose statement failed: nil error")
	}
	if !errors.Is(errs[1], bad) {
		t.Errorf("the failing Update: %v, want its own error", errs[1])
	}
	if p, ok := errs[2].(errPanic); !ok || p.v != "c panics" {
		t.Errorf("the panicking Update: %v, want its panic again", errs[2])
	}
	if ids[0] == 0 || ids[0] != ids[1] || ids[0] != ids[2] || ids[0] != ids[3] {
		t.Errorf("transactions %v, want the four Updates in one", ids)
	}
	if string(seen) != "a" {
		t.Errorf("the last Update read shared = %q, want a: the failed one's write must be gone", seen)
	}
	for k, want := range map[string]string{"a": "1", "d": "4", "shared": "a"} {
		if got := setting(t, s, k); string(got) != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"b", "c", "e"} {
		if got := setting(t, s, k); got != nil {
			t.Errorf("%s = %q, want nothing of a failed Update", k, got)
		}
	}
}

// TestGroupCommitRetry checks that a serialization failure of a group runs
// every fn of it again, each with exactly its own effect.
func TestGroupCommitRetry(t *testing.T) {
	var retries atomic.Int64
	s, url := openGroupStore(t, Options{OnRetry: func(int, error) { retries.Add(1) }})
	if err := s.Update(context.Background(), func(tx app.Tx) error { return tx.PutSetting("counter", []byte("0")) }); err != nil {
		t.Fatal(err)
	}
	other, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	var runsA, runsB atomic.Int64
	incr := func(tx app.Tx, k string) error {
		v, err := tx.Setting(k)
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(string(v))
		return tx.PutSetting(k, []byte(strconv.Itoa(n+1)))
	}
	errs := group(t, s, nil,
		func(tx app.Tx) error {
			v, err := tx.Setting("counter")
			if err != nil {
				return err
			}
			if runsA.Add(1) == 1 {
				// Another connection changes the counter and commits after
				// this transaction read it: its write must abort.
				if _, err := other.Exec(context.Background(), `UPDATE settings SET value = '10' WHERE key = 'counter'`); err != nil {
					t.Error(err)
				}
			}
			n, _ := strconv.Atoi(string(v))
			return tx.PutSetting("counter", []byte(strconv.Itoa(n+1)))
		},
		func(tx app.Tx) error {
			runsB.Add(1)
			return incr(tx, "b")
		})
	for i, err := range errs {
		if err != nil {
			t.Errorf("Update %d: %v", i, err)
		}
	}
	if retries.Load() == 0 || runsA.Load() < 2 || runsB.Load() < 2 {
		t.Errorf("retries %d, runs %d and %d: want the group aborted and both fns run again", retries.Load(), runsA.Load(), runsB.Load())
	}
	if got := setting(t, s, "counter"); string(got) != "11" {
		t.Errorf("counter = %s, want 11 (the other connection's 10, then the retried increment)", got)
	}
	if got := setting(t, s, "b"); string(got) != "1" {
		t.Errorf("b = %s, want 1: the retried fn's effect exactly once", got)
	}
}

// TestGroupCommitCancelled checks that a writer whose context ends, while
// it waits or while its fn runs, leaves nothing and does not fail the
// others of its group.
func TestGroupCommitCancelled(t *testing.T) {
	s, _ := openGroupStore(t, Options{})
	runCtx, cancelRun := context.WithCancel(context.Background())
	defer cancelRun()
	waitCtx, cancelWait := context.WithCancel(context.Background())
	defer cancelWait()
	release := blockWriter(t, s)
	var ran atomic.Bool
	waitErr := make(chan error, 1)
	go func() {
		waitErr <- s.Update(waitCtx, func(tx app.Tx) error {
			ran.Store(true)
			return tx.PutSetting("waiting", []byte("1"))
		})
	}()
	waitQueued(t, s, 1)
	cancelWait()
	// It leaves the queue at once, the writer still blocked.
	if err := <-waitErr; !errors.Is(err, context.Canceled) {
		t.Errorf("a writer cancelled while queued: %v, want context.Canceled", err)
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs[0] = s.Update(runCtx, func(tx app.Tx) error {
			if err := tx.PutSetting("cancelled", []byte("1")); err != nil {
				return err
			}
			cancelRun() // its caller gives up while it runs
			return nil
		})
	}()
	waitQueued(t, s, 1)
	go func() {
		defer wg.Done()
		errs[1] = s.Update(context.Background(), func(tx app.Tx) error {
			return tx.PutSetting("kept", []byte("1"))
		})
	}()
	waitQueued(t, s, 2)
	release()
	wg.Wait()
	if !errors.Is(errs[0], context.Canceled) {
		t.Errorf("the writer cancelled while it ran: %v, want context.Canceled", errs[0])
	}
	if errs[1] != nil {
		t.Errorf("the other writer of the group: %v", errs[1])
	}
	if ran.Load() {
		t.Error("the fn of a writer cancelled while queued ran")
	}
	for k, want := range map[string]string{"waiting": "", "cancelled": "", "kept": "1"} {
		got := setting(t, s, k)
		if want == "" && got != nil || want != "" && string(got) != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestGroupContext checks that the context of a group's statements ends
// only when every writer's context has ended, and keeps their values.
func TestGroupContext(t *testing.T) {
	type key struct{}
	a, cancelA := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	b, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	ctx, stop := groupContext([]*writeCall{{ctx: a}, {ctx: b}})
	defer stop()
	if ctx.Value(key{}) != "v" {
		t.Error("the group's context lost the first writer's values")
	}
	cancelA()
	select {
	case <-ctx.Done():
		t.Fatal("the group's context ended with one writer's")
	default:
	}
	cancelB()
	<-ctx.Done() // ends: a hang here is the failure
	ctx2, stop2 := groupContext([]*writeCall{{ctx: context.Background()}})
	stop2()
	if ctx2.Err() == nil {
		t.Error("stop did not end the group's context")
	}
}

// TestGroupCommitMany checks that many Updates queued at once, each
// incrementing one shared counter (as every add_items bumps its company's
// composition counter), run in groups of at most maxGroup, lose no
// increment, and leave the queue empty; with two writers too.
func TestGroupCommitMany(t *testing.T) {
	for _, writers := range []int{1, 2} {
		t.Run(strconv.Itoa(writers), func(t *testing.T) {
			s, _ := openGroupStore(t, Options{MaxWriters: writers})
			const n = 64
			var releases []func()
			for range writers {
				releases = append(releases, blockWriter(t, s))
			}
			var mu sync.Mutex
			ids := map[int64]bool{}
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = s.Update(context.Background(), func(atx app.Tx) error {
						tx := atx.(*tx)
						var id int64
						if _, err := tx.one(`SELECT txid_current()`, nil, &id); err != nil {
							return err // a serialization failure, with two writers
						}
						mu.Lock()
						ids[id] = true
						mu.Unlock()
						v, err := tx.Setting("counter")
						if err != nil {
							return err
						}
						c, _ := strconv.Atoi(string(v))
						return tx.PutSetting("counter", []byte(strconv.Itoa(c+1)))
					})
				}()
			}
			waitQueued(t, s, n)
			for _, r := range releases {
				r()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("Update %d: %v", i, err)
				}
			}
			if got := setting(t, s, "counter"); string(got) != strconv.Itoa(n) {
				t.Errorf("counter = %s after %d increments", got, n)
			}
			// Each committed group's transaction is counted once; with two
			// writers, a group aborted by the other is run again in a new one.
			if want := (n + maxGroup - 1) / maxGroup; writers == 1 && len(ids) > want {
				t.Errorf("%d transactions for %d queued Updates, want at most %d", len(ids), n, want)
			}
			s.queue.mu.Lock()
			leaders, waiting := s.queue.leaders, len(s.queue.waiting)
			s.queue.mu.Unlock()
			if leaders != 0 || waiting != 0 {
				t.Errorf("after the writes: %d leaders, %d waiting, want none", leaders, waiting)
			}
		})
	}
}

// TestGuessedStamp checks that a write transaction's guess that a
// composition has the stamp asked (stampcheck.go) never counts when it is
// wrong: the fn runs again on what is stored, alone or in a group, also
// when it failed on the guess without another statement.
func TestGuessedStamp(t *testing.T) {
	s, _ := openGroupStore(t, Options{})
	bg := context.Background()
	comp := &domain.Composition{ID: "cp1", CompanyID: "co1", Code: "C-1", State: "SP", Description: "first", CreatedAt: time.Now()}
	if err := s.Update(bg, func(tx app.Tx) error {
		if err := tx.PutCompany(&domain.Company{ID: "co1", Name: "Co", CreatedAt: time.Now()}); err != nil {
			return err
		}
		return tx.PutComposition(comp)
	}); err != nil {
		t.Fatal(err)
	}
	stamp := func() []byte {
		var st []byte
		if err := s.View(bg, func(tx app.Tx) error {
			var err error
			st, err = tx.(app.CompositionStamper).CompositionStamp("cp1")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return st
	}
	stale := stamp()
	// Another put draws a new stamp: stale is now wrong.
	if err := s.Update(bg, func(tx app.Tx) error { return tx.PutComposition(comp) }); err != nil {
		t.Fatal(err)
	}
	current := stamp()
	// putIf puts the composition described as desc when its stamp is st,
	// else writes the setting fallback; it counts its runs and answers.
	putIf := func(st []byte, desc, fallback string, runs *int, answers *[]bool) func(app.Tx) error {
		return func(tx app.Tx) error {
			*runs++
			ok, err := tx.(app.CompositionStamper).CompositionStamped("cp1", st)
			if err != nil {
				return err
			}
			*answers = append(*answers, ok)
			if !ok {
				return tx.PutSetting(fallback, []byte("1"))
			}
			c := *comp
			c.Description = desc
			return tx.PutComposition(&c)
		}
	}
	description := func() string {
		var d string
		if err := s.View(bg, func(tx app.Tx) error {
			c, err := tx.Composition("cp1")
			if c != nil {
				d = c.Description
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return d
	}

	var runs int
	var answers []bool
	if err := s.Update(bg, putIf(current, "right", "fb-right", &runs, &answers)); err != nil {
		t.Fatal(err)
	}
	if runs != 1 || description() != "right" || setting(t, s, "fb-right") != nil {
		t.Errorf("the right stamp: %d runs (answers %v), description %q", runs, answers, description())
	}
	current = stamp()

	runs, answers = 0, nil
	if err := s.Update(bg, putIf(stale, "wrong", "fb-wrong", &runs, &answers)); err != nil {
		t.Fatal(err)
	}
	if runs != 2 || answers[len(answers)-1] || description() != "right" || string(setting(t, s, "fb-wrong")) != "1" {
		t.Errorf("a stale stamp: %d runs (answers %v), description %q, want the put not made and the fallback written", runs, answers, description())
	}

	// A fn that fails on a guess, with no statement after it.
	runs = 0
	err := s.Update(bg, func(tx app.Tx) error {
		runs++
		ok, err := tx.(app.CompositionStamper).CompositionStamped("cp1", stale)
		if err != nil {
			return err
		}
		if ok {
			return errors.New("refused on the guess")
		}
		return tx.PutSetting("fb-error", []byte("1"))
	})
	if err != nil || runs != 2 || string(setting(t, s, "fb-error")) != "1" {
		t.Errorf("a failure on a wrong guess: %v after %d runs, want the fn run again and nil", err, runs)
	}

	// In a group: the misguessing fn runs again, the other once.
	var runsA, runsB int
	var answersA []bool
	errs := group(t, s, nil,
		putIf(stale, "wrong", "fb-group", &runsA, &answersA),
		func(tx app.Tx) error {
			runsB++
			return tx.PutSetting("other", []byte("1"))
		},
		putIf(current, "group", "fb-group-right", &runsB, new([]bool)))
	for i, err := range errs {
		if err != nil {
			t.Errorf("Update %d of the group: %v", i, err)
		}
	}
	if runsA != 2 || runsB != 2 || description() != "group" || string(setting(t, s, "fb-group")) != "1" ||
		string(setting(t, s, "other")) != "1" || setting(t, s, "fb-group-right") != nil {
		t.Errorf("in a group: runs %d and %d, description %q, want the stale guess run again and the others once", runsA, runsB, description())
	}
}
