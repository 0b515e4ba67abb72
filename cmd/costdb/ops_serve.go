package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/adapters/metrics"
)

// serveOps is the operator side of a running server: metrics, the admin
// listener and its file, scheduled backups, the key ring.
type serveOps struct {
	metrics *metrics.Metrics
	tokens  *jwtauth.Tokens
	// adminDerived: AdminAddr was not given but derived from Addr, so a
	// taken port falls back to any free one.
	adminDerived bool
	keyFile      string
	draining     atomic.Bool

	admin       *http.Server
	adminLn     net.Listener
	adminSecret string
	adminPath   string // the admin file, "" when none was written

	metricsSrv *http.Server
	metricsLn  net.Listener

	stopBackups context.CancelFunc
	backupsDone chan struct{}
}

// openLog sets up the logger in the chosen format.
func (m *Main) openLog() error {
	switch m.LogFormat {
	case "", "text":
		m.log = slog.New(slog.NewTextHandler(m.Stderr, nil))
	case "json":
		m.log = slog.New(slog.NewJSONHandler(m.Stderr, nil))
	default:
		return fmt.Errorf("--log-format %q: want text or json", m.LogFormat)
	}
	return nil
}

// checkOps checks the operator settings before anything is opened.
func (m *Main) checkOps() error {
	m.metrics = metrics.New()
	// The probes' request series exist from the start (the other routes'
	// appear with their first request).
	m.metrics.InitRoute(http.MethodGet, "/healthz", http.StatusOK)
	m.metrics.InitRoute(http.MethodGet, "/readyz", http.StatusOK, http.StatusServiceUnavailable)
	if m.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(m.MetricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr %q: %v", m.MetricsAddr, err)
		}
	}
	if m.AdminAddr == "" {
		m.AdminAddr, m.adminDerived = defaultAdminAddr(m.Addr), true
	}
	if m.AdminAddr != "off" {
		if err := checkLoopback(m.AdminAddr); err != nil {
			return err
		}
	}
	if m.BackupDir != "" {
		if isDatabaseURL(m.DBPath) {
			return errors.New("--backup-dir backs up a bbolt file; back PostgreSQL up with pg_dump (docs/operations.md)")
		}
		if m.BackupEvery <= 0 || m.BackupKeep < 1 {
			return errors.New("--backup-every must be positive and --backup-keep at least 1")
		}
	}
	return nil
}

// ready is the server's own part of /readyz: not while draining.
func (m *Main) ready(context.Context) error {
	if m.draining.Load() {
		return errors.New("shutting down")
	}
	return nil
}

// AdminURL is the base URL of the admin listener, "" when there is none.
func (m *Main) AdminURL() string {
	if m.adminLn == nil {
		return ""
	}
	return "http://" + m.adminLn.Addr().String()
}

// MetricsURL is the base URL of the metrics listener (its address as
// bound; an unspecified host is reached on loopback), "" when there is none.
func (m *Main) MetricsURL() string {
	if m.metricsLn == nil {
		return ""
	}
	a := m.metricsLn.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port))
}

// openOps starts the admin listener, writes the admin file next to a bbolt
// database and schedules backups.
func (m *Main) openOps(_ context.Context, env *httpapi.Env) error {
	ops := &adminOps{svc: m.svc, metrics: m.metrics}
	if bs, ok := m.store.(*boltstore.Store); ok {
		ops.backup = bs.WriteTo
	}
	ops.rotate = func() (string, error) {
		kid, err := rotateKeyFile(m.keyFile, m.TokenTTL)
		if err != nil {
			return "", err
		}
		f, err := jwtauth.ReadKeyFile(m.keyFile)
		if err != nil {
			return "", err
		}
		if err := m.tokens.SetKeys(f.Ring()); err != nil {
			return "", err
		}
		m.log.Info("signing key rotated", "kid", kid)
		return kid, nil
	}
	if m.AdminAddr != "off" {
		secret, err := newAdminSecret()
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", m.AdminAddr)
		if err != nil && m.adminDerived {
			// The commands find the address in the admin file anyway.
			m.log.Warn("admin listener: default port taken, using a free one", "addr", m.AdminAddr, "err", err)
			ln, err = net.Listen("tcp", "127.0.0.1:0")
		}
		if err != nil {
			return fmt.Errorf("admin listener: %w", err)
		}
		m.adminLn, m.adminSecret = ln, secret
		srv := &http.Server{Handler: adminHandler(ops, secret, m.metrics, env, m.log), ReadHeaderTimeout: 5 * time.Second}
		m.admin = srv
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				m.log.Error("admin listener stopped", "err", err)
			}
		}()
		if !isDatabaseURL(m.DBPath) {
			path := adminFilePath(m.DBPath)
			if err := writeAdminFile(path, adminFile{Addr: ln.Addr().String(), Secret: secret, PID: os.Getpid()}); err != nil {
				return fmt.Errorf("admin file: %w", err)
			}
			m.adminPath = path
		}
		m.log.Info("admin listening", "addr", ln.Addr().String())
	}
	if m.MetricsAddr != "" {
		ln, err := net.Listen("tcp", m.MetricsAddr)
		if err != nil {
			return fmt.Errorf("metrics listener: %w", err)
		}
		srv := &http.Server{Handler: metricsHandler(m.metrics, env), ReadHeaderTimeout: 5 * time.Second}
		m.metricsLn, m.metricsSrv = ln, srv
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				m.log.Error("metrics listener stopped", "err", err)
			}
		}()
		m.log.Info("metrics listening", "addr", ln.Addr().String())
	}
	if m.BackupDir != "" {
		if err := os.MkdirAll(m.BackupDir, 0o700); err != nil {
			return fmt.Errorf("--backup-dir: %w", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		m.stopBackups, m.backupsDone = cancel, make(chan struct{})
		go m.scheduleBackups(ctx, ops)
	}
	return nil
}

// closeOps stops the backups and the admin listener and removes the admin
// file; the main listener has drained already.
func (m *Main) closeOps() {
	if m.stopBackups != nil {
		m.stopBackups()
		<-m.backupsDone
		m.stopBackups = nil
	}
	if m.metricsSrv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.ShutdownPeriod)
		_ = m.metricsSrv.Shutdown(ctx)
		cancel()
		m.metricsSrv = nil
	}
	if m.admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.ShutdownPeriod)
		_ = m.admin.Shutdown(ctx)
		cancel()
		m.admin = nil
	}
	if m.adminPath != "" {
		removeAdminFile(m.adminPath, m.adminSecret)
		m.adminPath = ""
	}
}

// scheduleBackups writes a backup into BackupDir every BackupEvery and
// keeps the newest BackupKeep.
func (m *Main) scheduleBackups(ctx context.Context, ops *adminOps) {
	defer close(m.backupsDone)
	t := time.NewTicker(m.BackupEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			path := filepath.Join(m.BackupDir, "costdb-"+now.UTC().Format(backupStamp)+".db")
			n, err := backupTo(ctx, ops, path)
			if err != nil {
				m.log.Error("scheduled backup failed", "path", path, "err", err)
				continue
			}
			m.log.Info("scheduled backup written", "path", path, "bytes", n)
			pruneBackups(m.BackupDir, m.BackupKeep, m.log)
		}
	}
}

// backupStamp is the time in a scheduled backup's name; the names sort by it.
const backupStamp = "20060102T150405.000Z"

// pruneBackups removes the scheduled backups beyond the newest keep.
func pruneBackups(dir string, keep int, log *slog.Logger) {
	names, _ := filepath.Glob(filepath.Join(dir, "costdb-*.db"))
	var ours []string
	for _, n := range names {
		stamp := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(n), "costdb-"), ".db")
		if _, err := time.Parse(backupStamp, stamp); err == nil {
			ours = append(ours, n)
		}
	}
	sort.Strings(ours) // the names sort by time
	for len(ours) > keep {
		if err := os.Remove(ours[0]); err != nil {
			log.Error("removing an old backup", "path", ours[0], "err", err)
		}
		ours = ours[1:]
	}
}
