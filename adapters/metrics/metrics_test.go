package metrics_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/metrics"
	"github.com/costdb/costdb/app"
)

// TestMetricsExposed: requests, transactions (by outcome), retries,
// connections closed by the caps, an import's progress and the runtime all
// reach the text exposition.
func TestMetricsExposed(t *testing.T) {
	m := metrics.New()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "c.db"), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := m.Store(st)
	ctx := context.Background()
	_ = s.View(ctx, func(app.Tx) error { return nil })
	_ = s.Update(ctx, func(app.Tx) error { return errors.New("no") })
	m.ObserveRequest("GET", "/api/v1/base/mybase/resources/{id}", 404, 3*time.Millisecond)
	m.TxRetry("update")
	m.ConnectionClosed("idle")
	m.ConnectionClosed("idle")
	m.ConnectionClosed("refused")
	done := m.ImportStarted()
	m.ImportProgress(1, 3)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`costdb_http_requests_total{method="GET",route="/api/v1/base/mybase/resources/{id}",status="404"} 1`,
		`costdb_http_request_duration_seconds_count{method="GET",route="/api/v1/base/mybase/resources/{id}"} 1`,
		`costdb_store_transaction_duration_seconds_count{kind="view",outcome="ok"} 1`,
		`costdb_store_transaction_duration_seconds_count{kind="update",outcome="error"} 1`,
		`costdb_store_transaction_retries_total{kind="update"} 1`,
		`costdb_imports_running 1`,
		`costdb_http_connections_closed_total{reason="idle"} 2`,
		`costdb_http_connections_closed_total{reason="refused"} 1`,
		`costdb_import_editions{state="done"} 1`,
		`costdb_import_editions{state="total"} 3`,
		`go_goroutines `,
		`process_`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	done(10, nil)
	rec = httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{`costdb_imports_running 0`, `costdb_import_records_total 10`, `costdb_imports_total{outcome="ok"} 1`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("after the import, metrics lack %q", want)
		}
	}
}

// TestMetricsStartAtZero: before any event, every series with labels known
// beforehand is exposed at zero, and InitRoute adds a route's.
func TestMetricsStartAtZero(t *testing.T) {
	m := metrics.New()
	m.InitRoute("GET", "/readyz", 200, 503)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`costdb_backups_total{outcome="ok"} 0`,
		`costdb_backups_total{outcome="error"} 0`,
		`costdb_store_transaction_retries_total{kind="view"} 0`,
		`costdb_store_transaction_retries_total{kind="update"} 0`,
		`costdb_store_transaction_duration_seconds_count{kind="update",outcome="error"} 0`,
		`costdb_imports_total{outcome="ok"} 0`,
		`costdb_imports_total{outcome="error"} 0`,
		`costdb_import_editions{state="done"} 0`,
		`costdb_import_records_total 0`,
		`costdb_imports_running 0`,
		`costdb_http_connections_closed_total{reason="idle"} 0`,
		`costdb_http_requests_total{method="GET",route="/readyz",status="503"} 0`,
		`costdb_http_request_duration_seconds_count{method="GET",route="/readyz"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("a fresh registry lacks %q", want)
		}
	}
	m.Backup(nil)
	rec = httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `costdb_backups_total{outcome="ok"} 1`) {
		t.Error("the first backup is not counted on the zero series")
	}
}
