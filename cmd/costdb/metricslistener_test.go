package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestMetricsListener: --metrics-addr on every interface serves /metrics
// and the probes of a fresh server, where every metric docs/operations.md
// names is present before its first event, and answers nothing else (the
// operator commands stay on the loopback admin listener).
func TestMetricsListener(t *testing.T) {
	doc, err := os.ReadFile(repoRoot + "docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile("`(costdb_[a-z_]+)").FindAllStringSubmatch(string(doc), -1) {
		names[m[1]] = true
	}
	if len(names) < 10 {
		t.Fatalf("docs/operations.md names %d metrics: %v", len(names), names)
	}

	m, _ := startServer(t, t.TempDir()+"/c.db", func(m *Main) { m.MetricsAddr = "0.0.0.0:0" })
	base := m.MetricsURL()
	if base == "" {
		t.Fatal("no metrics listener")
	}
	r := do(t, "GET", base+"/metrics", "", "")
	if r.status != 200 {
		t.Fatalf("GET /metrics: %d", r.status)
	}
	for name := range names {
		if !regexp.MustCompile(`(?m)^` + name + `(_bucket|_count|_sum)?[{ ]`).MatchString(r.body) {
			t.Errorf("a fresh server's /metrics lacks %s", name)
		}
	}
	for _, want := range []string{
		`costdb_backups_total{outcome="ok"} 0`,
		`costdb_backups_total{outcome="error"} 0`,
		`costdb_store_transaction_retries_total{kind="update"} 0`,
		`costdb_store_transaction_retries_total{kind="view"} 0`,
		`costdb_imports_total{outcome="error"} 0`,
		`costdb_http_connections_closed_total{reason="refused"} 0`,
		`costdb_http_requests_total{method="GET",route="/readyz",status="503"} 0`,
		`costdb_http_request_duration_seconds_count{method="GET",route="/healthz"} 0`,
		`costdb_imports_running 0`,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("a fresh server's /metrics lacks %q", want)
		}
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := do(t, "GET", base+p, "", ""); r.status != 200 {
			t.Errorf("GET %s on the metrics listener: %d", p, r.status)
		}
	}
	// Nothing else: no operator command, no API.
	for _, c := range []struct{ method, path string }{
		{"GET", "/admin/ping"}, {"POST", "/admin/users/add"}, {"POST", "/admin/import"}, {"GET", "/admin/backup"},
		{"POST", "/api/public/v2/authenticate"}, {"GET", "/api/docs"},
	} {
		if r := do(t, c.method, base+c.path, "", `{}`); r.status != 404 {
			t.Errorf("%s %s on the metrics listener: %d, want 404", c.method, c.path, r.status)
		}
	}
	// The admin listener is still loopback-only.
	if err := checkLoopback("0.0.0.0:8081"); err == nil {
		t.Error("the admin listener accepts a non-loopback address")
	}
}

// TestMetricsAddrChecked: a malformed --metrics-addr stops serve before
// anything is opened.
func TestMetricsAddrChecked(t *testing.T) {
	code, _, stderr := cli(t, "serve", "--db", t.TempDir()+"/c.db", "--metrics-addr", "9090")
	if code == 0 || !strings.Contains(stderr, "--metrics-addr") {
		t.Errorf("serve --metrics-addr 9090: exit %d\n%s", code, stderr)
	}
}
