package main

import (
	"context"
	"net/url"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
)

// A postgres:// (postgresql://) --db opens PostgreSQL (see openStore).
func init() {
	openURLStore = func(ctx context.Context, db string) (app.Store, error) {
		return pgstore.Open(ctx, db, pgstore.Options{})
	}
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
