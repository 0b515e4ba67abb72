package v2_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
)

// TestMain runs every test of the package on each storage engine (bbolt
// and PostgreSQL): see apitest.Main.
func TestMain(m *testing.M) { apitest.Main(m) }
