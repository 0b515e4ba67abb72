package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// cli runs a command line in-process and returns its exit status and output.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsersAddPrintsOneJSONObject(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "users", "add", "--db", db, "--company", "Construtora Alfa", "--email", "Eng@Alfa.com.br", "--name", "Eng")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	keys := []string{"company_id", "department_id", "email", "secret_token", "user_id"}
	for _, k := range keys {
		if got[k] == "" {
			t.Errorf("%s is empty in %s", k, out)
		}
	}
	if len(got) != len(keys) {
		t.Errorf("keys = %v, want exactly %v", got, keys)
	}
	if got["email"] != "eng@alfa.com.br" {
		t.Errorf("email = %q, want it normalised", got["email"])
	}
	// The same e-mail again is refused, naming the field.
	code, _, stderr = cli(t, "users", "add", "--db", db, "--company", "Construtora Alfa", "--email", "eng@alfa.com.br")
	if code != 1 || !strings.Contains(stderr, "/email: is already in use") {
		t.Errorf("duplicate e-mail: exit %d, stderr %q", code, stderr)
	}
	// A second user of the same company joins it.
	_, out2, _ := cli(t, "users", "add", "--db", db, "--company", "Construtora Alfa", "--email", "b@alfa.com.br")
	var got2 map[string]string
	_ = json.Unmarshal([]byte(out2), &got2)
	if got2["company_id"] != got["company_id"] {
		t.Errorf("second user's company = %q, want %q", got2["company_id"], got["company_id"])
	}
}

func TestImportSampleIsIdempotent(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, first, stderr := cli(t, "import", "sample", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(first, "SINAPI MG 08/2026:") || !strings.Contains(first, "SICRO3 AL 01/2024:") {
		t.Fatalf("summary does not name both editions:\n%s", first)
	}
	_, second, _ := cli(t, "import", "sample", "--db", db)
	if first != second {
		t.Errorf("second import changed the counts:\nfirst:  %s\nsecond: %s", first, second)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"users"}, {"import", "nope"}, {"serve", "--no-such-flag"}} {
		if code, _, _ := cli(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// TestLockedDatabase: a command that cannot open the database because a
// server without an admin listener holds it fails within seconds with a
// clear message.
func TestLockedDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m := NewMain(io.Discard, io.Discard)
	m.Addr, m.DBPath, m.AdminAddr = "127.0.0.1:0", db, "off"
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	start := time.Now()
	code, _, stderr := cli(t, "users", "add", "--db", db, "--company", "X", "--email", "x@x.com")
	if code != 1 || !strings.Contains(stderr, "in use") {
		t.Errorf("exit %d, stderr %q; want a clear 'in use' message", code, stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s; a held database must fail fast, not hang", d)
	}
}

// TestServeDemo starts the server in-process with --demo and uses the demo
// user's printed secret token.
func TestServeDemo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	var out bytes.Buffer
	m := NewMain(&out, io.Discard)
	if err := m.ParseFlags([]string{"--addr", "127.0.0.1:0", "--db", db, "--demo"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	secret := regexp.MustCompile(`secret_token: (\S+)`).FindStringSubmatch(out.String())
	if secret == nil {
		t.Fatalf("no secret token printed:\n%s", out.String())
	}
	resp := post(t, m.URL()+"/api/public/v2/authenticate", "", `{"email":"demo@costdb.local","secret_token":"`+secret[1]+`"}`)
	if resp.status != 200 {
		t.Fatalf("authenticate: %d %s", resp.status, resp.body)
	}
	if r, _ := http.Get(m.URL() + "/healthz"); r == nil || r.StatusCode != 200 {
		t.Errorf("healthz did not answer 200")
	}
}

func TestEnvironmentSetsFlags(t *testing.T) {
	t.Setenv("COSTDB_ADDR", "127.0.0.1:9999")
	t.Setenv("COSTDB_DEMO", "true")
	m := NewMain(io.Discard, io.Discard)
	if err := m.ParseFlags([]string{"--db", "x.db"}); err != nil {
		t.Fatal(err)
	}
	if m.Addr != "127.0.0.1:9999" || !m.Demo || m.DBPath != "x.db" {
		t.Errorf("got addr %q demo %v db %q", m.Addr, m.Demo, m.DBPath)
	}
	t.Setenv("COSTDB_MAX_BODY", "lots")
	if err := NewMain(io.Discard, io.Discard).ParseFlags(nil); err == nil {
		t.Error("a bad COSTDB_MAX_BODY was accepted")
	}
}

type answer struct {
	status int
	body   string
}

func post(t *testing.T, url, token, body string) answer {
	t.Helper()
	return do(t, "POST", url, token, body)
}

func do(t *testing.T, method, url, token, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, string(b)}
}

// TestKill9LosesNothingAcknowledged builds the real binary, writes through
// the API, kills the process with SIGKILL and checks that a new process
// serves every acknowledged write.
func TestKill9LosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // waits on processes of its own: the three such tests overlap
	dir := t.TempDir()
	bin := builtBinary(t)
	db := filepath.Join(dir, "c.db")
	out, err := exec.Command(bin, "users", "add", "--db", db, "--company", "Alfa", "--email", "a@alfa.com").Output()
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]string
	_ = json.Unmarshal(out, &u)

	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		addr := make(chan string, 1)
		var once sync.Once
		go func() {
			sc := bufio.NewScanner(stderr)
			re := regexp.MustCompile(`addr=(\S+)`)
			for sc.Scan() {
				if m := re.FindStringSubmatch(sc.Text()); m != nil {
					once.Do(func() { addr <- m[1] })
				}
			}
		}()
		select {
		case a := <-addr:
			return cmd, "http://" + a
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("server did not start")
		}
		return nil, ""
	}
	login := func(base string) string {
		r := post(t, base+"/api/public/v2/authenticate", "", `{"email":"a@alfa.com","secret_token":"`+u["secret_token"]+`"}`)
		var doc struct {
			Data struct {
				Attributes struct {
					AccessToken string `json:"access_token"`
				} `json:"attributes"`
			} `json:"data"`
		}
		_ = json.Unmarshal([]byte(r.body), &doc)
		if doc.Data.Attributes.AccessToken == "" {
			t.Fatalf("authenticate: %d %s", r.status, r.body)
		}
		return doc.Data.Attributes.AccessToken
	}

	cmd, base := start()
	tok := login(base)
	var ids []string
	for i := 0; i < 20; i++ {
		code := "K9-" + strings.Repeat("0", 3-len(itoa(i))) + itoa(i)
		r := post(t, base+"/api/v1/base/mybase/resources", tok,
			`{"code":"`+code+`","description":"Areia média","type":4,"unit":"M3","local":"MG","pnd":101.25,"pd":101.25,"pndi":0,"pdi":0,"status":true,"note":""}`)
		if r.status != 201 {
			cmd.Process.Kill()
			t.Fatalf("create resource: %d %s", r.status, r.body)
		}
		var got map[string]any
		_ = json.Unmarshal([]byte(r.body), &got)
		ids = append(ids, got["id"].(string))
	}
	// SIGKILL: no shutdown hook runs.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	cmd2, base2 := start()
	defer func() { cmd2.Process.Kill(); cmd2.Wait() }()
	tok2 := login(base2) // the signing key survived too: a new token works
	for _, id := range ids {
		if r := do(t, "GET", base2+"/api/v1/base/mybase/resources/"+id, tok2, ""); r.status != 200 || !strings.Contains(r.body, "101.25") {
			t.Errorf("resource %s after kill -9: %d %s", id, r.status, r.body)
		}
	}
	// The first process's token is still valid: the key file next to the database kept it.
	if r := do(t, "GET", base2+"/api/v1/base/mybase/resources", tok, ""); r.status != 200 {
		t.Errorf("old token after restart: %d", r.status)
	}
}

func TestSigningKeyFromFile(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewMain(io.Discard, io.Discard)
	m.Addr, m.DBPath, m.SigningKeyFile = "127.0.0.1:0", filepath.Join(dir, "c.db"), keyFile
	err := m.Open(context.Background())
	m.Close()
	if err == nil || !strings.Contains(err.Error(), "32 bytes") {
		t.Fatalf("a short key file: err = %v, want a clear refusal", err)
	}
	os.WriteFile(keyFile, []byte("0123456789abcdef0123456789abcdef"), 0o600)
	m = NewMain(io.Discard, io.Discard)
	m.Addr, m.DBPath, m.SigningKeyFile = "127.0.0.1:0", filepath.Join(dir, "c.db"), keyFile
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Close()
}

// TestBudgetCapSettings checks the budget caps' defaults, that the flags and
// the environment set them, and that the service runs with them.
func TestBudgetCapSettings(t *testing.T) {
	m := NewMain(io.Discard, io.Discard)
	if m.MaxBudgetLines != 100_000 || m.MaxBudgetDepth != 10 {
		t.Errorf("defaults: lines %d, depth %d; want 100000 and 10", m.MaxBudgetLines, m.MaxBudgetDepth)
	}
	t.Setenv("COSTDB_MAX_BUDGET_LINES", "250")
	db := filepath.Join(t.TempDir(), "c.db")
	if err := m.ParseFlags([]string{"--addr", "127.0.0.1:0", "--db", db, "--max-budget-depth", "4"}); err != nil {
		t.Fatal(err)
	}
	if m.MaxBudgetLines != 250 || m.MaxBudgetDepth != 4 {
		t.Errorf("parsed: lines %d, depth %d; want 250 and 4", m.MaxBudgetLines, m.MaxBudgetDepth)
	}
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if cfg := m.svc.Config(); cfg.MaxBudgetLines != 250 || cfg.MaxBudgetDepth != 4 {
		t.Errorf("service settings: lines %d, depth %d; want 250 and 4", cfg.MaxBudgetLines, cfg.MaxBudgetDepth)
	}
	t.Setenv("COSTDB_MAX_BUDGET_DEPTH", "deep")
	if err := NewMain(io.Discard, io.Discard).ParseFlags(nil); err == nil {
		t.Error("a bad COSTDB_MAX_BUDGET_DEPTH was accepted")
	}
}
