package apitest

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
)

// Backend is what a harness serves: a service over a store of the test's
// own, with the bundled sample banks imported and a signing key made, the
// store closed when the test ends.
type Backend struct {
	App *app.Service
	// Speed is the speed layer App's store is wrapped in (Env.Speed).
	Speed *storecache.Store
	Store app.Store
	// Engine names the storage engine of Store ("bolt", "postgres"), Path
	// the bbolt file or the database URL.
	Engine string
	Path   string
}

// Opener makes the backend of one harness; cfg holds the service's
// settings (zero values take the defaults).
type Opener func(t *testing.T, cfg app.Config) Backend

// opener is the Opener New uses.
var opener Opener

// Use sets the Opener of the harnesses that the tests started after it
// make. The HTTP layer knows no storage engine: the wiring of one (the
// engine matrix of cmd/enginetest, which a package's TestMain runs) calls
// Use before it runs the tests.
func Use(o Opener) { opener = o }
