package memstore_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/memstore"
	"github.com/costdb/costdb/adapters/storetest"
	"github.com/costdb/costdb/app"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) app.Store { return memstore.New() })
}
