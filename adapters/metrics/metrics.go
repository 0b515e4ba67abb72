// Package metrics exposes costdb's Prometheus metrics (client_golang):
// requests by route and status, their latency, store transaction durations
// and retries, import progress, and the Go runtime and process collectors.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors, registered in their own registry.
type Metrics struct {
	Registry *prometheus.Registry

	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	txDuration     *prometheus.HistogramVec
	txRetries      *prometheus.CounterVec
	importsRunning prometheus.Gauge
	importEditions *prometheus.GaugeVec
	importRecords  prometheus.Counter
	importsTotal   *prometheus.CounterVec
	backups        *prometheus.CounterVec
	connsClosed    *prometheus.CounterVec
}

// New returns the metrics with the Go runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "costdb_http_requests_total", Help: "HTTP requests answered, by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "costdb_http_request_duration_seconds", Help: "Time to answer an HTTP request, by method and route pattern.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		txDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "costdb_store_transaction_duration_seconds", Help: "Duration of store transactions, by kind (view, update) and outcome.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"kind", "outcome"}),
		txRetries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "costdb_store_transaction_retries_total", Help: "Store transactions run again after a conflict (serialisation failure), by kind.",
		}, []string{"kind"}),
		importsRunning: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "costdb_imports_running", Help: "Bank imports being written now.",
		}),
		importEditions: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "costdb_import_editions", Help: "Progress of the running (or last) import: editions in it (total) and written so far (done).",
		}, []string{"state"}),
		importRecords: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "costdb_import_records_total", Help: "Bank resources and compositions written by finished imports.",
		}),
		importsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "costdb_imports_total", Help: "Bank imports finished, by outcome (ok, error).",
		}, []string{"outcome"}),
		backups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "costdb_backups_total", Help: "Backups written, by outcome (ok, error).",
		}, []string{"outcome"}),
		connsClosed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "costdb_http_connections_closed_total", Help: "Connections the connection caps closed: idle ones closed to make room (idle), new ones refused with 503 (refused).",
		}, []string{"reason"}),
	}
	m.Registry.MustRegister(m.connsClosed)
	m.Registry.MustRegister(m.requests, m.latency, m.txDuration, m.txRetries,
		m.importsRunning, m.importEditions, m.importRecords, m.importsTotal, m.backups,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.zero()
	return m
}

// zero creates every series whose labels are known before the first event,
// at zero, so that a fresh server exposes every metric and rate() and
// increase() see the first event (Prometheus's advice: initialise the label
// values you know). The HTTP request series take their route from the
// router and appear with their first request, apart from those InitRoute
// creates.
func (m *Metrics) zero() {
	for _, kind := range []string{"view", "update"} {
		m.txRetries.WithLabelValues(kind)
		for _, o := range []string{"ok", "error"} {
			m.txDuration.WithLabelValues(kind, o)
		}
	}
	for _, o := range []string{"ok", "error"} {
		m.importsTotal.WithLabelValues(o)
		m.backups.WithLabelValues(o)
	}
	for _, s := range []string{"done", "total"} {
		m.importEditions.WithLabelValues(s)
	}
	for _, r := range []string{"idle", "refused"} {
		m.connsClosed.WithLabelValues(r)
	}
}

// InitRoute creates the request series of a route at zero: its latency
// histogram and its count for each status given. serve calls it for the
// probes (/healthz, /readyz), so that the HTTP metrics exist from the start.
func (m *Metrics) InitRoute(method, route string, statuses ...int) {
	m.latency.WithLabelValues(method, route)
	for _, s := range statuses {
		m.requests.WithLabelValues(method, route, strconv.Itoa(s))
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}

// ObserveRequest counts an answered request (httpapi.Observability).
func (m *Metrics) ObserveRequest(method, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method, route).Observe(d.Seconds())
}

// TxRetry counts a transaction run again; a store adapter that retries
// (PostgreSQL on a serialisation failure) calls it.
func (m *Metrics) TxRetry(kind string) { m.txRetries.WithLabelValues(kind).Inc() }

// ImportStarted marks an import as being written; call the returned func
// with the number of records written, or the error, when it ends.
func (m *Metrics) ImportStarted() func(records int, err error) {
	m.importsRunning.Inc()
	return func(records int, err error) {
		m.importsRunning.Dec()
		if err != nil {
			m.importsTotal.WithLabelValues("error").Inc()
			return
		}
		m.importsTotal.WithLabelValues("ok").Inc()
		m.importRecords.Add(float64(records))
	}
}

// ImportProgress records that done of total editions of the running import
// are written.
func (m *Metrics) ImportProgress(done, total int) {
	m.importEditions.WithLabelValues("done").Set(float64(done))
	m.importEditions.WithLabelValues("total").Set(float64(total))
}

// Backup counts a backup.
func (m *Metrics) Backup(err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.backups.WithLabelValues(outcome).Inc()
}

// ConnectionClosed counts a connection closed by the connection caps
// (server.ConnLimits.Closed): reason "idle" or "refused".
func (m *Metrics) ConnectionClosed(reason string) { m.connsClosed.WithLabelValues(reason).Inc() }

// Store wraps st so that every transaction's duration is observed.
func (m *Metrics) Store(st app.Store) app.Store { return &store{Store: st, m: m} }

type store struct {
	app.Store
	m *Metrics
}

func (s *store) View(ctx context.Context, fn func(app.Tx) error) error {
	start := time.Now()
	err := s.Store.View(ctx, fn)
	s.m.txDuration.WithLabelValues("view", outcome(err)).Observe(time.Since(start).Seconds())
	return err
}

func (s *store) Update(ctx context.Context, fn func(app.Tx) error) error {
	start := time.Now()
	err := s.Store.Update(ctx, fn)
	s.m.txDuration.WithLabelValues("update", outcome(err)).Observe(time.Since(start).Seconds())
	return err
}

// Unwrap returns the wrapped store.
func (s *store) Unwrap() app.Store { return s.Store }

func outcome(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}
