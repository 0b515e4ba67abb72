package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// faultyStore is a store whose writes (and, when down is set, reads too)
// fail as a store meeting a full disk or a database gone away does, with
// the readiness rule the stores keep (app.StorageHealth).
type faultyStore struct {
	app.Store
	full   atomic.Bool
	down   atomic.Bool
	health app.StorageHealth
}

// Errors as the stores return them: a domain error with the system's or
// the server's own error beside it, for the log.
var (
	errFull = fmt.Errorf("%w (commit: write costdb.db: no space left on device)",
		domain.Errorf(domain.ESTORAGEFULL, "the server cannot store anything more: no space is left on the disk of its database; nothing was written"))
	errDown = fmt.Errorf("%w (dial tcp 127.0.0.1:5432: connect: connection refused)",
		domain.Errorf(domain.EUNAVAILABLE, "the database cannot be reached, or is starting or shutting down; try again shortly"))
)

func (s *faultyStore) Update(ctx context.Context, fn func(app.Tx) error) error {
	var err error
	switch {
	case s.down.Load():
		err = errDown
	case s.full.Load():
		err = s.Store.Update(ctx, func(tx app.Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			return errFull // at commit: what fn wrote is rolled back
		})
	default:
		err = s.Store.Update(ctx, fn)
	}
	s.health.Wrote(err)
	return err
}

func (s *faultyStore) View(ctx context.Context, fn func(app.Tx) error) error {
	if s.down.Load() {
		return errDown
	}
	return s.Store.View(ctx, fn)
}

func (s *faultyStore) Settings(ctx context.Context, keys []string) ([][]byte, error) {
	if s.down.Load() {
		return nil, errDown
	}
	return s.Store.Settings(ctx, keys)
}

func (s *faultyStore) Ping(ctx context.Context) error {
	if s.down.Load() {
		return errDown
	}
	if err := s.Store.Ping(ctx); err != nil {
		return err
	}
	return s.health.Err()
}

// faultyHarness is a harness whose service runs over a faultyStore
// wrapped around the harness's own store.
func faultyHarness(t *testing.T) (*apitest.Harness, *faultyStore) {
	var fs *faultyStore
	h := apitest.New(t, func(env *httpapi.Env) {
		fs = &faultyStore{Store: env.Speed}
		key, err := app.New(env.Speed, nil, app.Config{}).SigningKey(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		tokens, err := jwtauth.New(key)
		if err != nil {
			t.Fatal(err)
		}
		env.App = app.New(fs, tokens, env.App.Config())
		// The speed layer reads through the faulty store too, so that a
		// database gone away fails authorization as it would.
		env.Speed = nil
	})
	return h, fs
}

// TestDiskFullAnswers507: with the disk full, a write in either generation
// answers 507 in that generation's error shape, saying the server cannot
// store, with nothing written; reads still answer; /readyz answers 503
// until a write succeeds again. Every answer is checked against the
// OpenAPI description (apitest).
func TestDiskFullAnswers507(t *testing.T) {
	h, fs := faultyHarness(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 200 {
		t.Fatalf("/readyz before: %d", r.Status)
	}
	fs.full.Store(true)

	r := h.Do("POST", "/api/v1/base/mybase/groups", u.Token, `{"description":"Fundações"}`)
	if r.Status != 507 {
		t.Fatalf("v1 write on a full disk: %d, want 507\n%s", r.Status, r.Body)
	}
	var v1 struct {
		Message string              `json:"message"`
		Errors  map[string][]string `json:"errors"`
	}
	r.JSON(t, &v1)
	if !strings.Contains(v1.Message, "cannot store") || strings.Contains(v1.Message, "no space left on device") {
		t.Errorf("v1 message %q: want the domain message, not the system's", v1.Message)
	}
	if r.Header.Get("Retry-After") != "" {
		t.Errorf("507 with Retry-After %q: waiting does not make room", r.Header.Get("Retry-After"))
	}

	r = h.Do("POST", "/api/public/v2/my_database/groups", u.Token, `{"data":{"type":"groups","attributes":{"description":"Fundações"}}}`,
		"Content-Type", "application/vnd.api+json")
	if r.Status != 507 {
		t.Fatalf("v2 write on a full disk: %d, want 507\n%s", r.Status, r.Body)
	}
	var v2 struct {
		Errors []struct{ Status, Code, Title, Detail string } `json:"errors"`
	}
	r.JSON(t, &v2)
	if len(v2.Errors) != 1 || v2.Errors[0].Status != "507" || v2.Errors[0].Code != domain.ESTORAGEFULL ||
		v2.Errors[0].Title != "Insufficient storage" || !strings.Contains(v2.Errors[0].Detail, "cannot store") {
		t.Errorf("v2 errors: %+v", v2.Errors)
	}

	if r := h.Do("GET", "/readyz", "", ""); r.Status != 503 {
		t.Errorf("/readyz with the disk full: %d, want 503", r.Status)
	}
	if r := h.Do("GET", "/api/public/v2/my_database/groups", u.Token, ""); r.Status != 200 || strings.Contains(string(r.Body), "Fundações") {
		t.Errorf("read with the disk full: %d, want 200 and no group written\n%s", r.Status, r.Body)
	}

	fs.full.Store(false) // the operator made room
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 503 {
		t.Errorf("/readyz with room but no write yet: %d, want 503 (no write has succeeded)", r.Status)
	}
	if r := h.Do("POST", "/api/v1/base/mybase/groups", u.Token, `{"description":"Fundações"}`); r.Status != 201 {
		t.Fatalf("write once there is room: %d\n%s", r.Status, r.Body)
	}
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 200 {
		t.Errorf("/readyz after a write succeeded: %d, want 200", r.Status)
	}
}

// TestDatabaseDownAnswers503: with the database unreachable, every request
// that needs it answers 503 with Retry-After in its generation's shape,
// never 500, and /readyz 503; once it is back, requests succeed.
func TestDatabaseDownAnswers503(t *testing.T) {
	h, fs := faultyHarness(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	fs.down.Store(true)
	for _, tt := range []struct{ method, path, body string }{
		{"GET", "/api/v1/base/mybase/groups", ""},
		{"POST", "/api/v1/base/mybase/groups", `{"description":"Fundações"}`},
		{"GET", "/api/public/v2/my_database/groups", ""},
		{"POST", "/api/public/v2/authenticate", `{"email":"ana@alfa.com.br","secret_token":"` + u.Secret + `"}`},
	} {
		r := h.Do(tt.method, tt.path, u.Token, tt.body)
		if r.Status != 503 || r.Header.Get("Retry-After") != "5" {
			t.Errorf("%s %s with the database down: %d, Retry-After %q; want 503, 5\n%s", tt.method, tt.path, r.Status, r.Header.Get("Retry-After"), r.Body)
			continue
		}
		var body map[string]any
		_ = json.Unmarshal(r.Body, &body)
		text := string(r.Body)
		if strings.Contains(text, "connection refused") || !strings.Contains(text, "try again") {
			t.Errorf("%s %s: body %s: want the domain message, not the connection's error", tt.method, tt.path, text)
		}
		if strings.HasPrefix(tt.path, "/api/public/v2") && !strings.Contains(text, `"code":"unavailable"`) {
			t.Errorf("%s %s: v2 body %s: want code unavailable", tt.method, tt.path, text)
		}
	}
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 503 {
		t.Errorf("/readyz with the database down: %d, want 503", r.Status)
	}
	fs.down.Store(false)
	if r := h.Do("GET", "/api/v1/base/mybase/groups", u.Token, ""); r.Status != 200 {
		t.Errorf("read once the database is back: %d\n%s", r.Status, r.Body)
	}
	if r := h.Do("GET", "/readyz", "", ""); r.Status != 200 {
		t.Errorf("/readyz once the database is back: %d, want 200", r.Status)
	}
}
