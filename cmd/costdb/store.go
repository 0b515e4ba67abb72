package main

import (
	"context"
	"net/url"
	"os"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
)

// defaultDB is the database every command uses without --db: COSTDB_DB
// when set, else ./costdb.db.
func defaultDB() string {
	if v := os.Getenv("COSTDB_DB"); v != "" {
		return v
	}
	return "./costdb.db"
}

// dbUsage is the help text of the --db flag.
const dbUsage = "database: a bbolt file path, or a postgres:// URL (env COSTDB_DB)"

// openStore opens the database that db names: a PostgreSQL database for a
// postgres:// or postgresql:// URL, else a bbolt file at that path.
func openStore(ctx context.Context, db string) (app.Store, error) {
	if pgstore.IsURL(db) {
		return pgstore.Open(ctx, db, pgstore.Options{})
	}
	return boltstore.Open(db, boltstore.Options{})
}

// redactDB names a database for a log line: a URL loses its password.
func redactDB(db string) string {
	if !pgstore.IsURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
