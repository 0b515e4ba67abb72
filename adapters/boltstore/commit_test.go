package boltstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/google/go-cmp/cmp"
)

// TestGroupCommit runs many concurrent Updates, some of which fail or panic
// after writing, and checks that each answers as a transaction of its own
// would: the others' writes are all there, the failing ones' not at all,
// and fewer commits than Updates were needed.
func TestGroupCommit(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	const n = 200
	before := s.commits.Load()
	errs := make([]error, n)
	panics := make([]any, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = s.Update(ctx, func(tx app.Tx) error {
				if err := tx.PutSetting(fmt.Sprintf("k%03d", i), []byte{byte(i)}); err != nil {
					return err
				}
				switch i % 10 {
				case 3:
					return fmt.Errorf("refused %d", i)
				case 7:
					panic(fmt.Sprintf("boom %d", i))
				}
				return nil
			})
		}()
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		var wantErr error
		var wantPanic any
		switch i % 10 {
		case 3:
			wantErr = fmt.Errorf("refused %d", i)
		case 7:
			wantPanic = fmt.Sprintf("boom %d", i)
		}
		if fmt.Sprint(errs[i]) != fmt.Sprint(wantErr) || panics[i] != wantPanic {
			t.Errorf("Update %d: err %v, panic %v; want %v, %v", i, errs[i], panics[i], wantErr, wantPanic)
		}
	}
	var got, want []string
	err := s.View(ctx, func(tx app.Tx) error {
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%03d", i)
			if i%10 != 3 && i%10 != 7 {
				want = append(want, k)
			}
			v, err := tx.Setting(k)
			if err != nil {
				return err
			}
			if v != nil {
				got = append(got, k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("settings written (-want +got):\n%s", diff)
	}
	if commits := s.commits.Load() - before; commits >= n {
		t.Errorf("%d Updates took %d commits: nothing was grouped", n, commits)
	} else {
		t.Logf("%d Updates, %d commits", n, commits)
	}
	if err := s.Update(ctx, func(tx app.Tx) error { return errors.New("alone") }); err == nil || err.Error() != "alone" {
		t.Errorf("a lone failing Update: %v", err)
	}
}
