package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/google/go-cmp/cmp"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer opens a server on db with an admin listener on a free
// loopback port; it is closed when the test ends.
func startServer(t *testing.T, db string, tune func(*Main)) (*Main, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	m := NewMain(io.Discard, logs)
	m.Addr, m.DBPath, m.AdminAddr = "127.0.0.1:0", db, "127.0.0.1:0"
	if tune != nil {
		tune(m)
	}
	if err := m.Open(context.Background()); err != nil {
		m.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, logs
}

// addUser runs `users add` and returns its printed JSON.
func addUser(t *testing.T, db, company, email string) map[string]string {
	t.Helper()
	code, out, stderr := cli(t, "users", "add", "--db", db, "--company", company, "--email", email)
	if code != 0 {
		t.Fatalf("users add: exit %d: %s", code, stderr)
	}
	var u map[string]string
	if err := json.Unmarshal([]byte(out), &u); err != nil || u["secret_token"] == "" {
		t.Fatalf("users add printed %q", out)
	}
	return u
}

// login authenticates through v2 and returns the access token.
func login(t *testing.T, base, email, secret string) string {
	t.Helper()
	r := post(t, base+"/api/public/v2/authenticate", "", `{"email":"`+email+`","secret_token":"`+secret+`"}`)
	var doc struct {
		Data struct {
			Attributes struct {
				AccessToken string `json:"access_token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	_ = json.Unmarshal([]byte(r.body), &doc)
	if doc.Data.Attributes.AccessToken == "" {
		t.Fatalf("authenticate %s: %d %s", email, r.status, r.body)
	}
	return doc.Data.Attributes.AccessToken
}

// holdingStore holds the first write transaction after it is armed open
// until the test lets it go, so the test can read while it is open.
type holdingStore struct {
	app.Store
	armed   atomic.Bool
	inside  chan struct{}
	release chan struct{}
}

func (h *holdingStore) Update(ctx context.Context, fn func(app.Tx) error) error {
	return h.Store.Update(ctx, func(tx app.Tx) error {
		if h.armed.CompareAndSwap(true, false) {
			close(h.inside)
			<-h.release
		}
		return fn(tx)
	})
}

// TestOperatorCommandsWhileServing: `users add` and an import run while a
// server holds the bbolt file, through its admin listener; reads are
// answered while the import's write transaction is open.
func TestOperatorCommandsWhileServing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	hold := &holdingStore{inside: make(chan struct{}), release: make(chan struct{})}
	m, _ := startServer(t, db, func(m *Main) {
		m.wrapStore = func(st app.Store) app.Store { hold.Store = st; return hold }
	})
	if _, err := os.Stat(adminFilePath(db)); err != nil {
		t.Fatalf("no admin file next to the database: %v", err)
	}
	if fi, _ := os.Stat(adminFilePath(db)); fi.Mode().Perm() != 0o600 {
		t.Errorf("admin file mode %v, want 0600", fi.Mode().Perm())
	}
	u := addUser(t, db, "Construtora Alfa", "ana@alfa.example")
	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])

	hold.armed.Store(true)
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024"}, pe...), &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	select {
	case <-hold.inside:
	case r := <-done:
		t.Fatalf("the import ended without a write transaction: exit %d %s", r.code, r.stderr)
	case <-time.After(60 * time.Second):
		t.Fatal("the import's write transaction did not start")
	}
	// The import's write transaction is open now: reads go on.
	for _, path := range []string{"/api/public/v2/banks", "/api/v1/base/mybase/resources", "/readyz"} {
		if r := do(t, "GET", m.URL()+path, tok, ""); r.status != 200 {
			t.Errorf("GET %s during the import: %d %s", path, r.status, r.body)
		}
	}
	if r := do(t, "GET", m.URL()+"/api/public/v2/banks", tok, ""); strings.Contains(r.body, "10/2024") {
		t.Errorf("the import's edition is visible before it commits: %s", r.body)
	}
	close(hold.release)
	r := <-done
	if r.code != 0 {
		t.Fatalf("import through the server: exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "SINAPI PE 10/2024") {
		t.Errorf("import summary: %s", r.stdout)
	}
	if r := do(t, "GET", m.URL()+"/api/public/v2/banks", tok, ""); !strings.Contains(r.body, "10/2024") {
		t.Errorf("the imported edition is not served: %d %s", r.status, r.body)
	}
	// A second user, while serving, can log in at once.
	u2 := addUser(t, db, "Construtora Alfa", "bia@alfa.example")
	login(t, m.URL(), "bia@alfa.example", u2["secret_token"])
	// users list shows both, never a secret.
	code, out, stderr := cli(t, "users", "list", "--db", db, "--company", "Construtora Alfa")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "bia@alfa.example") {
		t.Errorf("users list: exit %d %s %s", code, out, stderr)
	}
	if strings.Contains(out, u["secret_token"]) || strings.Contains(out, "secret") {
		t.Errorf("users list shows a secret: %s", out)
	}
	// A bad request through the admin listener is refused with its reason.
	code, _, stderr = cli(t, "users", "add", "--db", db, "--company", "Construtora Alfa", "--email", "bia@alfa.example")
	if code != 1 || !strings.Contains(stderr, "/email: is already in use") {
		t.Errorf("duplicate e-mail through the server: exit %d, stderr %q", code, stderr)
	}
}

// TestAccountCommandsRevokeAtOnce: revoke-tokens, disable and reset-secret
// make a live token fail on its next request, through a running server.
func TestAccountCommandsRevokeAtOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)
	u := addUser(t, db, "Alfa", "ana@alfa.example")
	other := addUser(t, db, "Beta", "bia@beta.example")
	get := func(tok string) int { return do(t, "GET", m.URL()+"/api/v1/base/mybase/resources", tok, "").status }

	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])
	otherTok := login(t, m.URL(), "bia@beta.example", other["secret_token"])
	if s := get(tok); s != 200 {
		t.Fatalf("live token: %d", s)
	}
	if code, out, stderr := cli(t, "users", "revoke-tokens", "--db", db, "--email", "ana@alfa.example"); code != 0 {
		t.Fatalf("revoke-tokens: exit %d %s %s", code, out, stderr)
	}
	if s := get(tok); s != 401 {
		t.Errorf("revoked token: %d, want 401", s)
	}
	if r := do(t, "GET", m.URL()+"/api/public/v2/banks", tok, ""); r.status != 401 {
		t.Errorf("revoked token on v2: %d, want 401", r.status)
	}
	if s := get(otherTok); s != 200 {
		t.Errorf("another user's token after a revocation: %d, want 200", s)
	}
	tok = login(t, m.URL(), "ana@alfa.example", u["secret_token"]) // at once, the same second
	if s := get(tok); s != 200 {
		t.Errorf("a token issued after the revocation: %d, want 200", s)
	}

	// Disable the whole company Alfa: its token fails; enable: the old
	// token stays revoked, a new login works.
	if code, _, stderr := cli(t, "users", "disable", "--db", db, "--company", "Alfa"); code != 0 {
		t.Fatalf("disable: %s", stderr)
	}
	if s := get(tok); s != 401 {
		t.Errorf("token of a disabled user: %d, want 401", s)
	}
	if r := post(t, m.URL()+"/api/public/v2/authenticate", "", `{"email":"ana@alfa.example","secret_token":"`+u["secret_token"]+`"}`); r.status != 401 {
		t.Errorf("a disabled user authenticates: %d", r.status)
	}
	if code, _, stderr := cli(t, "users", "enable", "--db", db, "--email", "ana@alfa.example"); code != 0 {
		t.Fatalf("enable: %s", stderr)
	}
	if s := get(tok); s != 401 {
		t.Errorf("a token from before the disable, after enable: %d, want 401", s)
	}
	tok = login(t, m.URL(), "ana@alfa.example", u["secret_token"])

	// reset-secret prints a new secret once; the old one and its tokens fail.
	code, out, stderr := cli(t, "users", "reset-secret", "--db", db, "--email", "ana@alfa.example")
	if code != 0 {
		t.Fatalf("reset-secret: %s", stderr)
	}
	var reset map[string]string
	if err := json.Unmarshal([]byte(out), &reset); err != nil || reset["secret_token"] == "" || reset["secret_token"] == u["secret_token"] {
		t.Fatalf("reset-secret printed %q", out)
	}
	if s := get(tok); s != 401 {
		t.Errorf("token after reset-secret: %d, want 401", s)
	}
	if r := post(t, m.URL()+"/api/public/v2/authenticate", "", `{"email":"ana@alfa.example","secret_token":"`+u["secret_token"]+`"}`); r.status != 401 {
		t.Errorf("the old secret after reset: %d, want 401", r.status)
	}
	login(t, m.URL(), "ana@alfa.example", reset["secret_token"])

	// Unknown e-mail: a clear error, nothing changed.
	if code, _, stderr := cli(t, "users", "revoke-tokens", "--db", db, "--email", "zed@alfa.example"); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("unknown e-mail: exit %d %q", code, stderr)
	}
	if code, _, _ := cli(t, "users", "revoke-tokens", "--db", db); code != 1 {
		t.Errorf("revoke-tokens without a selector: exit %d, want 1", code)
	}
}

// TestAccountCommandsWithoutServer: the same commands open the file when no
// server runs.
func TestAccountCommandsWithoutServer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	addUser(t, db, "Alfa", "ana@alfa.example")
	for _, args := range [][]string{
		{"users", "revoke-tokens", "--db", db, "--email", "ana@alfa.example"},
		{"users", "disable", "--db", db, "--email", "ana@alfa.example"},
		{"users", "enable", "--db", db, "--company", "Alfa"},
		{"users", "reset-secret", "--db", db, "--email", "ana@alfa.example"},
	} {
		if code, _, stderr := cli(t, args...); code != 0 {
			t.Errorf("%v: exit %d %s", args, code, stderr)
		}
	}
	code, out, _ := cli(t, "users", "list", "--db", db)
	var info app.UserInfo
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info.Email != "ana@alfa.example" || info.Disabled || info.TokensRevokedAt.IsZero() || info.Company != "Alfa" {
		t.Errorf("users list: exit %d %s", code, out)
	}
}

// TestBackupUnderLoadThenRestore takes a backup through the admin listener
// while clients write, restores it, and finds every write acknowledged
// before the backup began.
func TestBackupUnderLoadThenRestore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	m, _ := startServer(t, db, nil)
	u := addUser(t, db, "Alfa", "ana@alfa.example")
	tok := login(t, m.URL(), "ana@alfa.example", u["secret_token"])

	type ack struct {
		id string
		at time.Time
	}
	var (
		mu    sync.Mutex
		acked []ack
		stop  atomic.Bool
		wg    sync.WaitGroup
		n     atomic.Int64
	)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				code := "W" + itoa(w) + "-" + itoa(i)
				r := post(t, m.URL()+"/api/v1/base/mybase/resources", tok,
					`{"code":"`+code+`","description":"Areia","type":4,"unit":"M3","local":"MG","pnd":1,"pd":1,"pndi":0,"pdi":0,"status":true,"note":""}`)
				if r.status != 201 {
					t.Errorf("write %s: %d %s", code, r.status, r.body)
					return
				}
				var got map[string]any
				_ = json.Unmarshal([]byte(r.body), &got)
				mu.Lock()
				acked = append(acked, ack{got["id"].(string), time.Now()})
				mu.Unlock()
				n.Add(1)
			}
		}(w)
	}
	for n.Load() < 20 {
		time.Sleep(5 * time.Millisecond)
	}
	began := time.Now()
	out := filepath.Join(dir, "backup.db")
	code, stdout, stderr := cli(t, "backup", "--db", db, "--out", out)
	for n.Load() < 60 { // writes go on after the backup too
		time.Sleep(5 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	if code != 0 || !strings.Contains(stdout, "verified") {
		t.Fatalf("backup while serving: exit %d %s %s", code, stdout, stderr)
	}
	if fi, _ := os.Stat(out); fi == nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup file mode: %v", fi)
	}

	// Restore refuses the database the server holds.
	if code, _, stderr := cli(t, "restore", "--from", out, "--db", db, "--force"); code != 1 || !strings.Contains(stderr, "server") {
		t.Errorf("restore over a served database: exit %d %q", code, stderr)
	}
	// It refuses a damaged file.
	bad := filepath.Join(dir, "bad.db")
	b, _ := os.ReadFile(out)
	_ = os.WriteFile(bad, b[:len(b)/2], 0o600)
	restored := filepath.Join(dir, "restored.db")
	if code, _, stderr := cli(t, "restore", "--from", bad, "--db", restored); code != 1 {
		t.Errorf("restore of a truncated backup: exit %d %q", code, stderr)
	}
	if _, err := os.Stat(restored); err == nil {
		t.Errorf("a refused restore left a database behind")
	}
	if code, _, stderr := cli(t, "restore", "--from", out, "--db", restored); code != 0 {
		t.Fatalf("restore: exit %d %s", code, stderr)
	}
	if code, _, stderr := cli(t, "restore", "--from", out, "--db", restored); code != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("restore over an existing database without --force: exit %d %q", code, stderr)
	}

	m2, _ := startServer(t, restored, nil)
	// The key file was not restored with the database, but the secret was.
	tok2 := login(t, m2.URL(), "ana@alfa.example", u["secret_token"])
	before := 0
	for _, a := range acked {
		if !a.at.Before(began) {
			continue
		}
		before++
		if r := do(t, "GET", m2.URL()+"/api/v1/base/mybase/resources/"+a.id, tok2, ""); r.status != 200 {
			t.Errorf("write %s acknowledged before the backup is missing after restore: %d", a.id, r.status)
		}
	}
	if before < 20 {
		t.Errorf("only %d writes before the backup; the test proves little", before)
	}
}

// TestBackupWithoutServer backs a file up directly, and the scheduled
// backups keep the newest N.
func TestBackupWithoutServer(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	addUser(t, db, "Alfa", "ana@alfa.example")
	out := filepath.Join(dir, "b.db")
	if code, _, stderr := cli(t, "backup", "--db", db, "--out", out); code != 0 {
		t.Fatalf("backup: %s", stderr)
	}
	if err := boltstore.Verify(out); err != nil {
		t.Fatal(err)
	}
	bdir := filepath.Join(dir, "backups")
	_ = os.Mkdir(bdir, 0o700)
	m, logs := startServer(t, db, func(m *Main) { m.BackupDir, m.BackupEvery, m.BackupKeep = bdir, 150*time.Millisecond, 2 })
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(logs.String(), "scheduled backup written") < 4 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	m.Close()
	files, _ := filepath.Glob(filepath.Join(bdir, "costdb-*.db"))
	if len(files) != 2 {
		t.Fatalf("scheduled backups kept: %v, want the newest 2\n%s", files, logs.String())
	}
	for _, f := range files {
		if err := boltstore.Verify(f); err != nil {
			t.Error(err)
		}
	}
}

// TestAdminAddress: the default admin address follows the API's port, a
// taken default port falls back to a free one, and a non-loopback address
// is refused.
func TestAdminAddress(t *testing.T) {
	for in, want := range map[string]string{"127.0.0.1:8080": "127.0.0.1:8081", "0.0.0.0:9000": "127.0.0.1:9001", ":0": "127.0.0.1:0", "bad": "127.0.0.1:0"} {
		if got := defaultAdminAddr(in); got != want {
			t.Errorf("defaultAdminAddr(%q) = %q, want %q", in, got, want)
		}
	}
	for addr, ok := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "localhost:1": true, "0.0.0.0:1": false, "10.0.0.1:1": false, ":1": false} {
		if err := checkLoopback(addr); (err == nil) != ok {
			t.Errorf("checkLoopback(%q) = %v", addr, err)
		}
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	_, port, _ := net.SplitHostPort(taken.Addr().String())
	p, _ := strconv.Atoi(port)
	db := filepath.Join(t.TempDir(), "c.db")
	m := NewMain(io.Discard, io.Discard)
	m.Addr, m.DBPath = "127.0.0.1:"+strconv.Itoa(p-1), db
	if err := m.Open(context.Background()); err != nil {
		m.Close()
		t.Skipf("the port before a free one is taken too: %v", err)
	}
	defer m.Close()
	if m.AdminURL() == "" || strings.HasSuffix(m.AdminURL(), ":"+port) {
		t.Errorf("admin listener at %q", m.AdminURL())
	}
	addUser(t, db, "Alfa", "ana@alfa.example") // through the fallback address
	m2 := NewMain(io.Discard, io.Discard)
	m2.Addr, m2.DBPath, m2.AdminAddr = "127.0.0.1:0", filepath.Join(t.TempDir(), "d.db"), "0.0.0.0:0"
	if err := m2.Open(context.Background()); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a non-loopback admin address: %v", err)
	}
	m2.Close()
}

// TestEditionsCrossTheAdminListenerIntact: an import through the admin
// listener sends editions as JSON; what arrives equals what was read.
func TestEditionsCrossTheAdminListenerIntact(t *testing.T) {
	data, err := sampleData()
	if err != nil {
		t.Fatal(err)
	}
	im, err := bankfiles.NewImporter(bankfiles.OfficialSinapi(), "PE", "10/2024")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pe {
		if _, err := im.AddFile(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	eds, err := im.Editions()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		data = append(data, app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions, Replace: true})
	}
	var buf bytes.Buffer
	if err := (importStream{context.Background(), len(data), func(i int) (*app.EditionData, error) { return &data[i], nil }}).encode(&buf); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&buf)
	var head importHead
	if err := dec.Decode(&head); err != nil || head.Editions != len(data) {
		t.Fatalf("header %+v %v", head, err)
	}
	for i := range data {
		var got app.EditionData
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(data[i], got); diff != "" {
			t.Errorf("edition %d changed on the way (-sent +received):\n%s", i, diff)
		}
	}
	var end importEnd
	if err := dec.Decode(&end); err != nil || !end.End {
		t.Fatalf("the stream's end mark: %+v %v", end, err)
	}
}

// TestImportThroughServerIsAllOrNothing: an import whose second edition
// fails on the way writes nothing, not even the first.
func TestImportThroughServerIsAllOrNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)
	data, err := sampleData()
	if err != nil || len(data) < 2 {
		t.Fatalf("sample: %v", err)
	}
	c, err := dialAdmin(context.Background(), adminFilePath(db))
	if err != nil || c == nil {
		t.Fatalf("dialAdmin: %v %v", c, err)
	}
	_, err = c.Import(context.Background(), 2, func(i int) (*app.EditionData, error) {
		if i == 1 {
			return nil, io.ErrUnexpectedEOF // the command failed building it
		}
		return &data[0], nil
	})
	if err == nil {
		t.Fatal("a broken import succeeded")
	}
	count := func() (int, error) {
		var n int
		err := m.store.View(context.Background(), func(tx app.Tx) error {
			eds, err := tx.Editions()
			n = len(eds)
			return err
		})
		return n, err
	}
	if n, err := count(); err != nil || n != 0 {
		t.Errorf("after a failed import the store holds %d editions (%v), want none", n, err)
	}
	if _, err := importAll(context.Background(), c, data); err != nil {
		t.Fatalf("the whole import: %v", err)
	}
	if n, _ := count(); n != len(data) {
		t.Errorf("editions after the import: %d, want %d", n, len(data))
	}
}

// TestImportWithoutEndMarkWritesNothing: a body that carries every edition
// but stops before the end mark (the command was stopped after sending its
// last edition) writes nothing.
func TestImportWithoutEndMarkWritesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)
	data, err := sampleData()
	if err != nil || len(data) < 1 {
		t.Fatalf("sample: %v", err)
	}
	c, err := dialAdmin(context.Background(), adminFilePath(db))
	if err != nil || c == nil {
		t.Fatalf("dialAdmin: %v %v", c, err)
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	_ = enc.Encode(importHead{Editions: len(data)})
	for i := range data {
		_ = enc.Encode(&data[i])
	}
	req, _ := http.NewRequest("POST", c.base+"/admin/import", &body)
	req.Header.Set("Authorization", "Bearer "+c.secret)
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err = readAdminError(resp); resp.StatusCode == http.StatusOK || !strings.Contains(err.Error(), "end mark") {
		t.Fatalf("an import body without its end mark: %v, want an error naming the end mark", err)
	}
	var n int
	if err := m.store.View(context.Background(), func(tx app.Tx) error {
		eds, err := tx.Editions()
		n = len(eds)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("editions after an import without its end mark: %d, want 0", n)
	}
}

// TestStaleAdminFile: a file left by a server that died does not stop a
// command from opening the database itself; COSTDB_DB names the database.
func TestStaleAdminFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close() // nothing listens there any more
	if err := writeAdminFile(adminFilePath(db), adminFile{Addr: addr, Secret: "gone", PID: 1}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COSTDB_DB", db)
	code, out, stderr := cli(t, "users", "add", "--company", "Alfa", "--email", "ana@alfa.example")
	if code != 0 {
		t.Fatalf("users add beside a stale admin file: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(db); err != nil || !strings.Contains(out, "ana@alfa.example") {
		t.Errorf("COSTDB_DB not used: %v %s", err, out)
	}
}
