package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/adapters/webhooks"
)

// hookReceiver counts the deliveries it gets by id, checking each
// signature once the secret is known.
type hookReceiver struct {
	mu     sync.Mutex
	secret string
	count  map[string]int
	events []string // ids in arrival order
	bad    []string
	srv    *http.Server
	addr   string
}

// listen starts the receiver on addr ("127.0.0.1:0" for any port).
func (h *hookReceiver) listen(t *testing.T, addr string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	h.addr = ln.Addr().String()
	h.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var d struct{ ID string }
		_ = json.Unmarshal(body, &d)
		h.mu.Lock()
		defer h.mu.Unlock()
		if err := webhooks.Verify(h.secret, r.Header.Get(webhooks.HeaderSignature), body, time.Now(), 5*time.Minute); err != nil {
			h.bad = append(h.bad, err.Error())
		}
		h.count[d.ID]++
		h.events = append(h.events, d.ID)
	})}
	go h.srv.Serve(ln)
	t.Cleanup(func() { h.srv.Close() })
}

func (h *hookReceiver) distinct() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.count)
}

// waitFor polls cond until it holds or the time is up.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// createHook registers a webhook for budget.frozen at url and returns its
// secret.
func createHook(t *testing.T, base, tok, url string) string {
	t.Helper()
	r := post(t, base+"/api/public/v2/webhooks", tok, `{"url":"`+url+`","events":["budget.frozen"]}`)
	if r.status != 201 {
		t.Fatalf("webhook: %d %s", r.status, r.body)
	}
	var doc struct {
		Data struct {
			Attributes struct{ Secret string } `json:"attributes"`
		} `json:"data"`
	}
	_ = json.Unmarshal([]byte(r.body), &doc)
	return doc.Data.Attributes.Secret
}

// freeze creates a budget over the sample and freezes it n times.
func freeze(t *testing.T, bases []string, tok string, n int) {
	t.Helper()
	r := post(t, bases[0]+"/api/public/v2/budgets", tok, `{"code":"ORC-H","description":"Obra","location":"MG","bdi":25,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":10}]}`)
	if r.status != 201 {
		t.Fatalf("budget: %d %s", r.status, r.body)
	}
	var doc struct{ Data struct{ ID string } }
	_ = json.Unmarshal([]byte(r.body), &doc)
	for i := range n {
		if v := post(t, bases[i%len(bases)]+"/api/public/v2/budgets/"+doc.Data.ID+"/versions", tok, ""); v.status != 201 {
			t.Fatalf("freeze: %d %s", v.status, v.body)
		}
	}
}

// TestWebhooksTwoServersOnePostgres: two servers on one database, both
// delivering: each event reaches the receiver once, signed.
func TestWebhooksTwoServersOnePostgres(t *testing.T) {
	db := pgtest.NewDatabase(t)
	if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
		t.Fatalf("import sample: %d %s", code, stderr)
	}
	keys := filepath.Join(t.TempDir(), "keys")
	start := func() *Main {
		m := NewMain(io.Discard, io.Discard)
		if err := m.ParseFlags([]string{"--addr", "127.0.0.1:0", "--admin-addr", "off", "--db", db, "--signing-key-file", keys,
			"--webhooks-allow-private"}); err != nil {
			t.Fatal(err)
		}
		if err := m.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		return m
	}
	a, b := start(), start()
	tok := pgUser(t, db, "Construtora Alfa", "a@alfa.com", a.URL())
	rc := &hookReceiver{count: map[string]int{}}
	rc.listen(t, "127.0.0.1:0")
	rc.mu.Lock()
	rc.secret = createHook(t, a.URL(), tok, "http://"+rc.addr+"/hook")
	rc.mu.Unlock()
	const events = 12
	freeze(t, []string{a.URL(), b.URL()}, tok, events)
	waitFor(t, "every event delivered", 60*time.Second, func() bool { return rc.distinct() == events })
	time.Sleep(1500 * time.Millisecond) // both dispatchers poll again: nothing more may come
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for id, n := range rc.count {
		if n != 1 {
			t.Errorf("event %s delivered %d times", id, n)
		}
	}
	if len(rc.events) != events || len(rc.bad) != 0 {
		t.Errorf("%d deliveries of %d events, bad signatures %v", len(rc.events), events, rc.bad)
	}
}

// TestWebhookKill9: events written while the receiver is unreachable, the
// server killed with SIGKILL before any delivery: a new process delivers
// each event once, in order; on both engines.
func TestWebhookKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	t.Run("bolt", func(t *testing.T) { webhookKill9(t, filepath.Join(t.TempDir(), "c.db")) })
	t.Run("postgres", func(t *testing.T) { webhookKill9(t, pgtest.NewDatabase(t)) })
}

func webhookKill9(t *testing.T, db string) {
	bin := builtBinary(t)
	keys := filepath.Join(t.TempDir(), "keys")
	out, err := exec.Command(bin, "users", "add", "--db", db, "--company", "Alfa", "--email", "a@alfa.com").Output()
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]string
	_ = json.Unmarshal(out, &u)
	start := func() (*exec.Cmd, string) {
		return startBinary(t, bin, "serve", "--addr", "127.0.0.1:0", "--admin-addr", "off", "--db", db, "--demo",
			"--signing-key-file", keys, "--webhooks-allow-private", "--webhook-retry-base", "200ms")
	}
	cmd, base := start()
	tok := login(t, base, "a@alfa.com", u["secret_token"])
	// The receiver's address, reserved and released: nothing listens
	// there until after the kill, so every attempt before it fails.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	recvAddr := ln.Addr().String()
	ln.Close()
	secret := createHook(t, base, tok, "http://"+recvAddr+"/hook")
	const events = 5
	freeze(t, []string{base}, tok, events)
	_ = cmd.Process.Kill() // SIGKILL
	_ = cmd.Wait()

	rc := &hookReceiver{count: map[string]int{}, secret: secret}
	rc.listen(t, recvAddr)
	cmd2, _ := start()
	defer func() { _ = cmd2.Process.Kill(); _ = cmd2.Wait() }()
	waitFor(t, "every event delivered after the restart", 30*time.Second, func() bool { return rc.distinct() == events })
	time.Sleep(1500 * time.Millisecond)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.events) != events || len(rc.bad) != 0 {
		t.Errorf("%d deliveries of %d events (%v), bad signatures %v", len(rc.events), events, rc.count, rc.bad)
	}
	ordered := append([]string(nil), rc.events...)
	for i := 1; i < len(ordered); i++ {
		if strings.Compare(ordered[i-1], ordered[i]) >= 0 {
			t.Errorf("out of order: %v", ordered)
		}
	}
}
