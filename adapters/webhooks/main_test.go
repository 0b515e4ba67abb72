package webhooks_test

import (
	"testing"

	"github.com/costdb/costdb/cmd/enginetest"
)

// TestMain runs every test of the package on each storage engine (bbolt
// and PostgreSQL): see enginetest.Main.
func TestMain(m *testing.M) { enginetest.Main(m) }
