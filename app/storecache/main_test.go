package storecache_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/cmd/enginetest"
)

var ctx = context.Background()

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestMain runs the layer's tests on both engines (cmd/enginetest).
func TestMain(m *testing.M) { enginetest.Main(m) }

// newStore opens an empty store of the engine under test, closed when the
// test ends.
func newStore(t testing.TB) app.Store { return enginetest.OpenStore(t) }
