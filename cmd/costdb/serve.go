package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/webhooks"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// errUsage reports bad flags; the flag package has printed why.
var errUsage = errors.New("usage")

// Main is the costdb server: its settings, and once running, its store and
// listener. An end-to-end test starts one on port 0 and reads Addr.
type Main struct {
	Addr           string
	DBPath         string
	Demo           bool
	TimeZone       string
	MaxBodyBytes   int64
	TokenTTL       time.Duration
	MaxItems       int
	MaxBudgetLines int
	MaxBudgetDepth int
	MaxCompItems   int
	AuthFailures   int
	AuthWindow     time.Duration
	Timeouts       server.Timeouts
	ShutdownPeriod time.Duration
	// SigningKeyFile holds the token signing keys; default: the database's
	// path + ".keys", created on first start (keys.go).
	SigningKeyFile string

	// AdminAddr is the loopback address of the admin listener (operator
	// commands, /metrics); default: the API's port + 1; "off": none.
	AdminAddr string
	// MetricsAddr, when set, is the address (any interface) of a listener
	// serving only /metrics, /healthz and /readyz, for a Prometheus that
	// cannot reach loopback (a container's); default: none.
	MetricsAddr string
	// LogFormat is "text" or "json".
	LogFormat string
	// BackupDir, when set, receives a verified backup every BackupEvery,
	// of which the newest BackupKeep are kept.
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int

	// AuthAddressFailures is the per-address limit of the login throttle
	// (httpapi.AuthLimiter.MaxAddressFailures).
	AuthAddressFailures int
	// TrustedProxies are the proxies whose X-Forwarded-For is believed;
	// MaxConnsPerClient does not apply to their connections.
	TrustedProxies []netip.Prefix
	// MaxConns and MaxConnsPerClient cap the open connections of the API
	// listener, in all and per client address; 0: derived from the
	// descriptor limit (conns.go).
	MaxConns          int
	MaxConnsPerClient int
	// MaxExports is how many XLSX and PDF documents the server writes at
	// once (httpapi.ExportLimit).
	MaxExports int
	// MemoryLimit is --memory-limit (memlimit.go): auto, off or a size.
	MemoryLimit string
	// ResponseCache is --response-cache (respcache.go): auto, off or a size.
	ResponseCache string
	// PublicURL is the server's URL as its clients reach it, which
	// webhook deliveries name resources under; default http:// and Addr.
	PublicURL string
	// WebhooksAllowPrivate lets webhooks reach private, loopback and
	// link-local addresses; WebhookTimeout cuts one delivery.
	WebhooksAllowPrivate bool
	WebhookTimeout       time.Duration
	// webhookRetry.Base is the first retry's wait (--webhook-retry-base).
	webhookRetry domain.RetryPolicy
	stopWebhooks context.CancelFunc
	webhooksDone chan struct{}

	Stdout, Stderr io.Writer

	store    app.Store
	svc      *app.Service
	nofile   uint64 // the descriptor limit after raising it; 0: unknown
	listener net.Listener
	server   *http.Server
	log      *slog.Logger

	// wrapStore, when set (by tests), wraps the store the service uses.
	wrapStore func(app.Store) app.Store

	serveOps // the operator side: admin listener, metrics, backups (ops_serve.go)
}

// NewMain returns a Main with the documented defaults.
func NewMain(stdout, stderr io.Writer) *Main {
	return &Main{
		Addr:           "127.0.0.1:8080",
		DBPath:         "./costdb.db",
		TimeZone:       "America/Sao_Paulo",
		MaxBodyBytes:   1 << 20,
		TokenTTL:       24 * time.Hour,
		MaxItems:       500,
		MaxBudgetLines: domain.DefaultMaxBudgetLines,
		MaxBudgetDepth: domain.DefaultMaxBudgetDepth,
		MaxCompItems:   2000,
		AuthFailures:   10,
		AuthWindow:     time.Minute,
		Timeouts:       server.DefaultTimeouts,
		ShutdownPeriod: 10 * time.Second,
		LogFormat:      "text",
		BackupEvery:    24 * time.Hour,
		BackupKeep:     7,
		Stdout:         stdout,
		Stderr:         stderr,

		// A proxy or NAT address may serve many users.
		AuthAddressFailures: 100,
		MaxExports:          2,
		WebhookTimeout:      10 * time.Second,
		MemoryLimit:         "auto",
		ResponseCache:       "auto",
	}
}

// ParseFlags reads the serve flags, with COSTDB_* environment variables as
// defaults.
func (m *Main) ParseFlags(args []string) error {
	fs := flag.NewFlagSet("costdb serve", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.StringVar(&m.Addr, "addr", m.Addr, "address to listen on (env COSTDB_ADDR)")
	fs.StringVar(&m.DBPath, "db", m.DBPath, "bbolt database file or postgres:// URL (env COSTDB_DB)")
	fs.BoolVar(&m.Demo, "demo", m.Demo, "load the bundled sample banks and create a demo user when there is none (env COSTDB_DEMO)")
	fs.StringVar(&m.TimeZone, "tz", m.TimeZone, "time zone of created_at in responses (env COSTDB_TZ)")
	fs.Int64Var(&m.MaxBodyBytes, "max-body", m.MaxBodyBytes, "largest accepted request body, in bytes (env COSTDB_MAX_BODY)")
	fs.DurationVar(&m.TokenTTL, "token-ttl", m.TokenTTL, "lifetime of access tokens (env COSTDB_TOKEN_TTL)")
	fs.IntVar(&m.MaxItems, "max-items", m.MaxItems, "most items or banks in one add/remove request (env COSTDB_MAX_ITEMS)")
	fs.IntVar(&m.MaxCompItems, "max-composition-items", m.MaxCompItems, "most items one composition may hold (env COSTDB_MAX_COMPOSITION_ITEMS)")
	fs.IntVar(&m.MaxBudgetLines, "max-budget-lines", m.MaxBudgetLines, "most lines in one budget (env COSTDB_MAX_BUDGET_LINES)")
	fs.IntVar(&m.MaxBudgetDepth, "max-budget-depth", m.MaxBudgetDepth, "most levels of a budget's tree, lines included (env COSTDB_MAX_BUDGET_DEPTH)")
	fs.IntVar(&m.AuthFailures, "auth-failures", m.AuthFailures, "failed authentications allowed per e-mail and client address within auth-window (env COSTDB_AUTH_FAILURES)")
	fs.IntVar(&m.AuthAddressFailures, "auth-address-failures", m.AuthAddressFailures, "failed authentications per client address within auth-window after which the address is refused to the accounts that failed from it (env COSTDB_AUTH_ADDRESS_FAILURES)")
	fs.DurationVar(&m.AuthWindow, "auth-window", m.AuthWindow, "window of the failed-authentication limits (env COSTDB_AUTH_WINDOW)")
	fs.Func("trusted-proxies", "proxies (IPs or CIDR networks, comma-separated) whose X-Forwarded-For names the client; default none (env COSTDB_TRUSTED_PROXIES)", func(v string) error {
		p, err := httpapi.ParseTrustedProxies(v)
		if err != nil {
			return err
		}
		m.TrustedProxies = p
		return nil
	})
	fs.IntVar(&m.MaxConns, "max-conns", m.MaxConns, "most open connections to the API; over it the longest idle is closed, or the new one refused 503 when none is idle; default 0: the descriptor limit less 256, at most 65536 (env COSTDB_MAX_CONNS)")
	fs.IntVar(&m.MaxConnsPerClient, "max-conns-per-client", m.MaxConnsPerClient, "most open connections from one client address, trusted proxies excepted; default 0: a tenth of max-conns, at least 64 (env COSTDB_MAX_CONNS_PER_CLIENT)")
	fs.IntVar(&m.MaxExports, "max-exports", m.MaxExports, "XLSX and PDF documents written at once; another waits up to 2s for a slot, then answers 503 (env COSTDB_MAX_EXPORTS)")
	fs.StringVar(&m.MemoryLimit, "memory-limit", m.MemoryLimit, "soft memory limit of the Go runtime: auto (90% of the cgroup's memory limit when there is one and GOMEMLIMIT is not set), off, or a size such as 800MiB (env COSTDB_MEMORY_LIMIT)")
	fs.StringVar(&m.ResponseCache, "response-cache", m.ResponseCache, "bytes of answers kept to serve GETs again while nothing they show has changed: auto (256MiB, or a quarter of the memory limit when that is lower), off, or a size such as 512MiB (env COSTDB_RESPONSE_CACHE)")
	fs.StringVar(&m.PublicURL, "public-url", m.PublicURL, "the server's URL as clients reach it, which webhook deliveries name resources under; default: http:// and --addr (env COSTDB_PUBLIC_URL)")
	fs.BoolVar(&m.WebhooksAllowPrivate, "webhooks-allow-private", m.WebhooksAllowPrivate, "let webhooks reach private, loopback and link-local addresses (a receiver on the server's own network); default: refused (env COSTDB_WEBHOOKS_ALLOW_PRIVATE)")
	fs.DurationVar(&m.WebhookTimeout, "webhook-timeout", m.WebhookTimeout, "time one webhook delivery may take, connecting and answering (env COSTDB_WEBHOOK_TIMEOUT)")
	fs.DurationVar(&m.webhookRetry.Base, "webhook-retry-base", domain.DefaultRetryPolicy.Base, "wait before a failed webhook delivery's first retry, doubling with each (at most 1h apart, for 24h) (env COSTDB_WEBHOOK_RETRY_BASE)")
	fs.StringVar(&m.SigningKeyFile, "signing-key-file", m.SigningKeyFile, "file holding the token signing keys (a key ring written by costdb, or one raw key of at least 32 bytes); default: the database's path + .keys, created on first start (env COSTDB_SIGNING_KEY_FILE)")
	fs.StringVar(&m.AdminAddr, "admin-addr", m.AdminAddr, "loopback address of the admin listener (operator commands, /metrics, /healthz, /readyz); default: 127.0.0.1 on the API's port + 1; off: none (env COSTDB_ADMIN_ADDR)")
	fs.StringVar(&m.MetricsAddr, "metrics-addr", m.MetricsAddr, "address of a listener serving only /metrics, /healthz and /readyz, on any interface (such as 0.0.0.0:9090 in a container, for Prometheus); default: none, /metrics is on the admin listener (env COSTDB_METRICS_ADDR)")
	fs.StringVar(&m.LogFormat, "log-format", m.LogFormat, "log format: text or json (env COSTDB_LOG_FORMAT)")
	fs.DurationVar(&m.ShutdownPeriod, "shutdown-timeout", m.ShutdownPeriod, "on SIGTERM, how long in-flight requests may take to finish before the store is closed (env COSTDB_SHUTDOWN_TIMEOUT)")
	fs.StringVar(&m.BackupDir, "backup-dir", m.BackupDir, "directory for scheduled backups of a bbolt database; default: none (env COSTDB_BACKUP_DIR)")
	fs.DurationVar(&m.BackupEvery, "backup-every", m.BackupEvery, "interval of scheduled backups (env COSTDB_BACKUP_EVERY)")
	fs.IntVar(&m.BackupKeep, "backup-keep", m.BackupKeep, "scheduled backups kept, the newest (env COSTDB_BACKUP_KEEP)")
	fs.DurationVar(&m.Timeouts.ReadHeader, "read-header-timeout", m.Timeouts.ReadHeader, "time to read a request's headers (env COSTDB_READ_HEADER_TIMEOUT)")
	fs.DurationVar(&m.Timeouts.Body, "body-timeout", m.Timeouts.Body, "time to read a request's body, after which the connection is closed (env COSTDB_BODY_TIMEOUT)")
	fs.DurationVar(&m.Timeouts.Read, "read-timeout", m.Timeouts.Read, "time to read a whole request, headers and body; 0: none, the header and body timeouts apply (env COSTDB_READ_TIMEOUT)")
	fs.DurationVar(&m.Timeouts.Write, "write-timeout", m.Timeouts.Write, "time to answer, from the end of the request's headers (env COSTDB_WRITE_TIMEOUT)")
	fs.DurationVar(&m.Timeouts.Idle, "idle-timeout", m.Timeouts.Idle, "time a keep-alive connection may wait for its next request (env COSTDB_IDLE_TIMEOUT)")
	if err := applyEnv(fs); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "costdb serve: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	return nil
}

// applyEnv sets each flag from COSTDB_<NAME> when that variable is set.
func applyEnv(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := "COSTDB_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %v", name, v, e)
			}
		}
	})
	return err
}

// Open opens the database, loads the demo data when asked and starts
// listening. It returns once the server accepts connections.
func (m *Main) Open(ctx context.Context) error {
	if err := m.openLog(); err != nil {
		return err
	}
	loc, err := time.LoadLocation(m.TimeZone)
	if err != nil {
		return fmt.Errorf("time zone %q: %v", m.TimeZone, err)
	}
	if err := m.checkOps(); err != nil {
		return err
	}
	if err := m.applyMemoryLimit(); err != nil {
		return err
	}
	// Every connection holds a descriptor: take all the system allows,
	// before the store opens its files (the caps are set below it).
	before, after, err := raiseDescriptorLimit()
	switch {
	case err != nil:
		m.log.Warn("could not raise the descriptor limit", "limit", before, "err", err)
	case after != before:
		m.log.Info("descriptor limit raised to the hard limit", "from", before, "to", after)
	}
	m.nofile = after
	st, err := openStore(ctx, m.DBPath, boltstore.Options{MmapSize: serveMmapSize(m.DBPath)}) // servemmap.go
	if err != nil {
		return err
	}
	m.store = st
	keyFile, err := keyFileFor(m.DBPath, m.SigningKeyFile)
	if err != nil {
		return err
	}
	if m.SigningKeyFile == "" && isDatabaseURL(m.DBPath) {
		m.log.Warn("no --signing-key-file: keys in ./"+urlKeyFile+"; servers sharing the database must share one key file", "path", keyFile)
	}
	tokens, err := signingKeys(ctx, st, keyFile, m.log)
	if err != nil {
		return err
	}
	m.tokens, m.keyFile = tokens, keyFile
	cfg := app.Config{TokenTTL: m.TokenTTL, MaxItemsPerRequest: m.MaxItems, MaxItemsPerComposition: m.MaxCompItems}
	cfg.MaxBudgetLines, cfg.MaxBudgetDepth = m.MaxBudgetLines, m.MaxBudgetDepth
	cfg.WebhookURLCheck = webhooks.CheckURL(m.WebhooksAllowPrivate, nil)
	svcStore := m.metrics.Store(st)
	if m.wrapStore != nil {
		svcStore = m.wrapStore(svcStore)
	}
	speed := storecache.New(svcStore) // every write through it bumps the generations
	svc := app.New(speed, tokens, cfg)
	m.svc = svc
	if m.Demo {
		if err := m.loadDemo(ctx, svc); err != nil {
			return err
		}
	}
	env := &httpapi.Env{
		App:          svc,
		Speed:        speed,
		Location:     loc,
		MaxBodyBytes: m.MaxBodyBytes,
		Limiter:      httpapi.NewAuthLimiter(m.AuthFailures, m.AuthWindow),
		Log:          m.log,
	}
	env.Limiter.MaxAddressFailures = m.AuthAddressFailures
	env.TrustedProxies = m.TrustedProxies
	env.Exports = httpapi.NewExportLimit(m.MaxExports)
	if err := m.applyResponseCache(env); err != nil {
		return err
	}
	env.Observability = httpapi.Observability{AccessLog: m.log, ObserveRequest: m.metrics.ObserveRequest, Ready: m.ready}
	ln, err := net.Listen("tcp", m.Addr)
	if err != nil {
		return err
	}
	m.listener = ln
	m.server = server.New(m.Addr, server.Handler(env), m.Timeouts)
	limits := m.connLimits(m.nofile)
	limits.Closed = m.metrics.ConnectionClosed
	m.log.Info("connection caps", "max_conns", limits.Max, "max_conns_per_client", limits.PerClient, "descriptor_limit", m.nofile)
	if m.MaxConns > 0 && m.nofile > 0 && uint64(limits.Max) > m.nofile-min(m.nofile, descriptorReserve) {
		m.log.Warn("--max-conns leaves fewer than 256 descriptors for the store and the rest: raise the descriptor limit (ulimit -n) or lower --max-conns", "max_conns", limits.Max, "descriptor_limit", m.nofile)
	}
	served := server.Limit(ln, m.server, limits)
	go func() {
		if err := m.server.Serve(served); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.log.Error("server stopped", "err", err)
		}
	}()
	m.log.Info("costdb listening", "addr", ln.Addr().String(), "db", redactDB(m.DBPath))
	m.startWebhooks(svc)
	return m.openOps(ctx, env)
}

// startWebhooks starts delivering the outbox's events (adapters/webhooks);
// Close stops it.
func (m *Main) startWebhooks(svc *app.Service) {
	base := m.PublicURL
	if base == "" {
		base = m.URL()
	}
	policy := domain.DefaultRetryPolicy
	if m.webhookRetry.Base > 0 {
		policy.Base = m.webhookRetry.Base
	}
	d := &webhooks.Dispatcher{App: svc, BaseURL: base, Timeout: m.WebhookTimeout, AllowPrivate: m.WebhooksAllowPrivate,
		Policy: policy, Log: m.log}
	ctx, cancel := context.WithCancel(context.Background())
	m.stopWebhooks, m.webhooksDone = cancel, make(chan struct{})
	go func() {
		defer close(m.webhooksDone)
		d.Run(ctx)
	}()
}

// URL is the base URL of the running server.
func (m *Main) URL() string { return "http://" + m.listener.Addr().String() }

// Serve opens the server and runs it until ctx is cancelled.
func (m *Main) Serve(ctx context.Context) error {
	if err := m.Open(ctx); err != nil {
		m.Close()
		return err
	}
	<-ctx.Done()
	return m.Close()
}

// Close shuts the server down gracefully and closes the database.
func (m *Main) Close() error {
	var first error
	m.draining.Store(true)
	if m.server != nil {
		m.log.Info("shutting down: draining requests", "timeout", m.ShutdownPeriod)
		ctx, cancel := context.WithTimeout(context.Background(), m.ShutdownPeriod)
		defer cancel()
		if err := m.server.Shutdown(ctx); err != nil {
			first = err
		}
	}
	if m.stopWebhooks != nil {
		m.stopWebhooks() // a delivery cut here is tried again once its lease ends
		<-m.webhooksDone
	}
	m.closeOps()
	if m.store != nil {
		if err := m.store.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// loadDemo imports the bundled sample and creates the demo user when the
// database has none, printing its secret token once.
func (m *Main) loadDemo(ctx context.Context, svc *app.Service) error {
	if _, err := importSample(ctx, svc); err != nil {
		return err
	}
	u, err := svc.EnsureDemoUser(ctx)
	if err != nil || u == nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "demo user created (shown once):\n  email:        %s\n  secret_token: %s\n", u.User.Email, u.SecretToken)
	return nil
}

// importSample loads the bundled sample banks in one transaction.
func importSample(ctx context.Context, svc *app.Service) ([]app.ImportSummary, error) {
	data, err := sampleData()
	if err != nil {
		return nil, err
	}
	return svc.ImportEditions(ctx, data)
}

// sampleData is the bundled sample banks, ready to import.
func sampleData() ([]app.EditionData, error) {
	eds, err := sample.Load()
	if err != nil {
		return nil, err
	}
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	return data, nil
}

// itoa is strconv.Itoa, for messages.
func itoa(i int) string { return strconv.Itoa(i) }
