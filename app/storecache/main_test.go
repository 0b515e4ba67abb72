package storecache_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
)

var ctx = context.Background()

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// newStore opens a store on a new file in the test's temporary directory,
// closed when the test ends.
func newStore(t testing.TB) app.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "costdb.db"), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}
