package pgstore_test

import (
	"context"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/adapters/storetest"
	"github.com/costdb/costdb/app"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open opens a store on a new database, closed when the test ends.
func open(t *testing.T, opts pgstore.Options) *pgstore.Store {
	t.Helper()
	url := pgtest.NewDatabase(t)
	s, err := pgstore.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) app.Store { return open(t, pgstore.Options{}) })
}
