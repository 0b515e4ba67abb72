package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
)

// TestAccessLogLine: one line per request with the request id (the
// client's, echoed; or a new one), method, route pattern, status, bytes,
// duration and company, and never the token, the secret or the body.
func TestAccessLogLine(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			u := addUser(t, db, "Alfa", "ana@alfa.example")
			m, logs := startServer(t, db, func(m *Main) { m.LogFormat = format })
			tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
			body := `{"code":"LOG-1","description":"Areia sigilosa","type":4,"unit":"M3","local":"MG","pnd":1,"pd":1,"pndi":0,"pdi":0,"status":true,"note":""}`
			req, _ := http.NewRequest("POST", m.URL()+"/api/v1/base/mybase/resources", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Request-Id", "req-42.a")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 201 || resp.Header.Get("X-Request-Id") != "req-42.a" {
				t.Fatalf("status %d, X-Request-Id %q; want 201 and the id echoed", resp.StatusCode, resp.Header.Get("X-Request-Id"))
			}
			line := ""
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "req-42.a") {
					if line != "" {
						t.Errorf("two lines carry the request id:\n%s\n%s", line, l)
					}
					line = l
				}
			}
			if line == "" {
				t.Fatalf("no access-log line with the request id:\n%s", logs.String())
			}
			want := map[string]string{
				"request_id": "req-42.a", "method": "POST", "route": "/api/v1/base/mybase/resources",
				"status": "201", "company_id": u["company_id"],
			}
			fields := map[string]string{}
			if format == "json" {
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("not one JSON object: %v\n%s", err, line)
				}
				for k, v := range rec {
					fields[k] = strings.TrimSuffix(strings.TrimSuffix(jsonText(v), ".0"), "")
				}
			} else {
				for _, m := range regexp.MustCompile(`(\w+)=("[^"]*"|\S+)`).FindAllStringSubmatch(line, -1) {
					fields[m[1]] = strings.Trim(m[2], `"`)
				}
			}
			for k, v := range want {
				if fields[k] != v {
					t.Errorf("%s = %q, want %q\n%s", k, fields[k], v, line)
				}
			}
			for _, k := range []string{"bytes", "duration"} {
				if fields[k] == "" || fields[k] == "0" {
					t.Errorf("%s missing or zero in %s", k, line)
				}
			}
			for _, secret := range []string{tok, u["secret_token"], "sigilosa", "Bearer"} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("the log holds %q", secret)
				}
			}
			// A route with an id is logged by its pattern; a bad request id is
			// replaced by a generated one.
			req, _ = http.NewRequest("GET", m.URL()+"/api/public/v2/banks/nope", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("X-Request-Id", "bad id!")
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			gen := resp.Header.Get("X-Request-Id")
			if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(gen) {
				t.Errorf("generated request id %q", gen)
			}
			access := ""
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, gen) && strings.Contains(l, "request") && strings.Contains(l, "route") {
					access = l
				}
			}
			if !strings.Contains(access, "/api/public/v2/banks/{id}") || strings.Contains(access, "banks/nope") {
				t.Errorf("the route is not logged as its pattern: %q\n%s", access, logs.String())
			}
		})
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// TestReadyzAndMetrics: /readyz answers 503 once the store is closed while
// /healthz still answers; /metrics on the admin listener shows requests by
// route and status, store transactions, imports and the Go runtime.
func TestReadyzAndMetrics(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)
	if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
		t.Fatalf("import sample through the server: %s", stderr)
	}
	for _, base := range []string{m.URL(), m.AdminURL()} {
		if r := do(t, "GET", base+"/readyz", "", ""); r.status != 200 {
			t.Errorf("%s/readyz: %d", base, r.status)
		}
	}
	r := do(t, "GET", m.AdminURL()+"/metrics", "", "")
	for _, want := range []string{
		`costdb_http_requests_total{method="GET",route="/readyz",status="200"} 1`,
		`costdb_http_request_duration_seconds_bucket{method="GET",route="/readyz"`,
		`costdb_store_transaction_duration_seconds_count{kind="update",outcome="ok"}`,
		`costdb_imports_total{outcome="ok"} 1`,
		`costdb_import_records_total `,
		`costdb_import_editions{state="done"} 2`,
		`costdb_import_editions{state="total"} 2`,
		`go_goroutines `,
	} {
		if !strings.Contains(r.body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if r := do(t, "GET", m.AdminURL()+"/admin/ping", "", ""); r.status != 401 {
		t.Errorf("admin command without the secret: %d, want 401", r.status)
	}
	if r := do(t, "GET", m.URL()+"/metrics", "", ""); r.status != 404 {
		t.Errorf("/metrics on the public listener: %d, want 404", r.status)
	}
	m.store.Close()
	if r := do(t, "GET", m.URL()+"/readyz", "", ""); r.status != 503 {
		t.Errorf("/readyz with the store closed: %d, want 503", r.status)
	}
	if r := do(t, "GET", m.URL()+"/healthz", "", ""); r.status != 200 {
		t.Errorf("/healthz with the store closed: %d, want 200", r.status)
	}
}

// TestDrainOnShutdown: Close lets an in-flight request finish, and /readyz
// turns 503 while draining.
func TestDrainOnShutdown(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	u := addUser(t, db, "Alfa", "ana@alfa.example")
	hold := &holdingStore{inside: make(chan struct{}), release: make(chan struct{})}
	m, _ := startServer(t, db, func(m *Main) {
		m.wrapStore = func(st app.Store) app.Store { hold.Store = st; return hold }
	})
	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
	hold.armed.Store(true)
	status := make(chan int, 1)
	go func() {
		status <- post(t, m.URL()+"/api/v1/base/mybase/resources", tok,
			`{"code":"D-1","description":"Areia","type":4,"unit":"M3","local":"MG","pnd":1,"pd":1,"pndi":0,"pdi":0,"status":true,"note":""}`).status
	}()
	<-hold.inside
	closed := make(chan error, 1)
	go func() { closed <- m.Close() }()
	deadline := time.Now().Add(5 * time.Second)
	for !m.draining.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if err := m.ready(context.Background()); err == nil {
		t.Error("ready while draining")
	}
	close(hold.release)
	if s := <-status; s != 201 {
		t.Errorf("in-flight request during shutdown: %d, want 201", s)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
	// The write is there.
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := os.Stat(adminFilePath(db)); err == nil {
		t.Error("the admin file outlived the server")
	}
}

// TestVersion builds the binary with VCS stamping and checks that
// --version and version print the revision checked out.
func TestVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout to take a revision from (%v): the version's revision is not tested", err)
	}
	if top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output(); err == nil {
		if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err == nil && !fi.IsDir() {
			t.Skip("a git worktree: go build stamps no VCS information there, so the version's revision is not tested (it is in a clone)")
		}
	}
	bin := filepath.Join(t.TempDir(), "costdb")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if !strings.Contains(string(out), "revision: "+strings.TrimSpace(string(head))) || !strings.Contains(string(out), "go: go1.") {
			t.Errorf("%s printed:\n%s\nwant the revision %s and the Go version", arg, out, head)
		}
	}
}

// TestSigningKeyMovedOutOfTheDatabase: a database whose key an older costdb
// kept inside gets a key file on first start holding that key, so its
// tokens keep working, and the database no longer holds it; rotation keeps
// old tokens valid and signs new ones with a new kid.
func TestSigningKeyMovedOutOfTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	u := addUser(t, db, "Alfa", "ana@alfa.example")
	// What an older costdb did: a key in the settings, tokens signed with it.
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	old, err := app.New(st, nil, app.Config{}).SigningKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	oldTokens, _ := jwtauth.New(old)
	now := time.Now()
	legacyTok, _ := oldTokens.Issue(app.Claims{UserID: u["user_id"], CompanyID: u["company_id"], TokenID: "t1", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	st.Close()

	m, _ := startServer(t, db, nil)
	get := func(tok string) int { return do(t, "GET", m.URL()+"/api/v1/base/mybase/resources", tok, "").status }
	if s := get(legacyTok); s != 200 {
		t.Errorf("a token signed with the database's key, after the move: %d", s)
	}
	fi, err := os.Stat(defaultKeyFile(db))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	plain := app.New(m.store, nil, app.Config{})
	if k, err := plain.LegacySigningKey(context.Background()); k != nil || err != nil {
		t.Errorf("the database still holds a signing key: %x %v", k, err)
	}

	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
	code, out, stderr := cli(t, "keys", "rotate", "--db", db)
	if code != 0 {
		t.Fatalf("keys rotate: %s", stderr)
	}
	kid := regexp.MustCompile(`new signing key (\w+)`).FindStringSubmatch(out)
	if kid == nil {
		t.Fatalf("keys rotate printed %q", out)
	}
	tok2 := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
	for name, tk := range map[string]string{"legacy": legacyTok, "before rotation": tok, "after rotation": tok2} {
		if s := get(tk); s != 200 {
			t.Errorf("%s token: %d", name, s)
		}
	}
	if h := tokenKid(t, tok2); h != kid[1] {
		t.Errorf("new token's kid %q, want %q", h, kid[1])
	}
	if h := tokenKid(t, tok); h == kid[1] || h == "" {
		t.Errorf("old token's kid %q", h)
	}
	// A restarted server still verifies both generations.
	m.Close()
	m2, _ := startServer(t, db, nil)
	for name, tk := range map[string]string{"before rotation": tok, "after rotation": tok2} {
		if s := do(t, "GET", m2.URL()+"/api/v1/base/mybase/resources", tk, "").status; s != 200 {
			t.Errorf("%s token after restart: %d", name, s)
		}
	}
	_, list, _ := cli(t, "keys", "list", "--db", db)
	if strings.Count(list, "\n") < 2 || strings.Contains(list, "secret") {
		t.Errorf("keys list: %s", list)
	}
}

func tokenKid(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	b, err := decodeSegment(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Kid string `json:"kid"`
	}
	_ = json.Unmarshal(b, &h)
	return h.Kid
}

func decodeSegment(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }

// TestSIGTERMStopsCleanly runs the real binary: SIGTERM makes it drain, close
// the store (the file can be opened at once) and remove its admin file, and
// exit 0.
func TestSIGTERMStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // waits on processes of its own: the three such tests overlap
	dir := t.TempDir()
	bin := builtBinary(t)
	db := filepath.Join(dir, "c.db")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--log-format", "json")
	var logs syncBuffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(adminFilePath(db)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no admin file; logs:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	addUser(t, db, "Alfa", "ana@alfa.example") // through the running server
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the server did not stop on SIGTERM")
	}
	if _, err := os.Stat(adminFilePath(db)); err == nil {
		t.Error("the admin file is left behind")
	}
	if !strings.Contains(logs.String(), "draining") {
		t.Errorf("no shutdown line:\n%s", logs.String())
	}
	code, out, stderr := cli(t, "users", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "ana@alfa.example") {
		t.Errorf("after the server stopped: exit %d %s %s", code, out, stderr)
	}
}
