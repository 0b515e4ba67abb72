// Package enginetest runs the HTTP tests on each storage engine. It wires a
// store (a bbolt file or a PostgreSQL database), the token issuer and the
// bundled sample banks under the HTTP harness of adapters/httpapi/apitest,
// as cmd/costdb wires them under the server. It sits beside the command
// rather than under adapters so that the HTTP layer stays above no store:
// only test files import it (the HTTP packages', app/storecache's).
//
// A package whose tests use the harness runs them from its TestMain:
//
//	func TestMain(m *testing.M) { enginetest.Main(m) }
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
)

// The storage engines the tests can run on.
const (
	EngineBolt     = "bolt"
	EnginePostgres = "postgres"
)

// engine is the engine the harnesses use: the one Run is running the tests
// for.
var engine = EngineBolt

// Engines lists the engines Main runs the tests on: both, unless the
// environment variable COSTDB_TEST_ENGINES names some ("bolt",
// "postgres", or both separated by a comma).
func Engines() []string {
	v := strings.TrimSpace(os.Getenv("COSTDB_TEST_ENGINES"))
	if v == "" {
		return []string{EngineBolt, EnginePostgres}
	}
	var out []string
	for _, e := range strings.Split(v, ",") {
		out = append(out, strings.TrimSpace(e))
	}
	return out
}

// Main runs the package's tests once per engine and exits.
//
// Each run is announced on a line of its own ("apitest: engine postgres"),
// so that a failure can be told apart. PostgreSQL runs when its server
// binaries are on the machine; without them it is skipped with one line
// saying so, except in CI (CI=true), where that fails.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is Main without the exit: it returns the exit code, for a TestMain
// that has more to do after the tests.
func Run(m *testing.M) int {
	apitest.Use(open)
	defer cleanup()
	code := 0
	for _, e := range Engines() {
		switch e {
		case EngineBolt:
		case EnginePostgres:
			if err := pgtest.Available(); err != nil {
				if errors.Is(err, pgtest.ErrNoServer) && os.Getenv("CI") != "true" {
					fmt.Printf("apitest: engine postgres skipped: %v\n", err)
					continue
				}
				fmt.Printf("apitest: engine postgres: %v\n", err)
				code = 1
				continue
			}
		default:
			fmt.Printf("apitest: unknown engine %q in COSTDB_TEST_ENGINES\n", e)
			code = 1
			continue
		}
		engine = e
		fmt.Printf("apitest: engine %s\n", e)
		if c := m.Run(); c != 0 {
			code = c
		}
	}
	return code
}

// OpenStore returns an empty store of the engine under test (a new bbolt
// file, a new PostgreSQL database), closed when the test ends: for the
// tests of what runs above the store port (app/storecache) on both engines.
func OpenStore(t testing.TB) app.Store {
	t.Helper()
	var st app.Store
	var err error
	switch engine {
	case EnginePostgres:
		st, err = pgstore.Open(context.Background(), pgtest.NewDatabase(t), pgstore.Options{})
	default:
		st, err = boltstore.Open(filepath.Join(t.TempDir(), "costdb.db"), boltstore.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// open is the apitest.Opener of the engine under test. Both engines copy a
// store prepared once per test binary (the sample banks imported, a
// signing key made): a PostgreSQL template database, a bbolt file.
func open(t *testing.T, cfg app.Config) apitest.Backend {
	t.Helper()
	var st app.Store
	var path string
	switch engine {
	case EnginePostgres:
		path = pgtest.NewDatabaseFrom(t, "apitest", func(url string) error {
			s, err := pgstore.Open(context.Background(), url, pgstore.Options{})
			if err != nil {
				return err
			}
			defer s.Close()
			return prepare(s)
		})
		pst, err := pgstore.Open(context.Background(), path, pgstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st = pst
	default:
		path = filepath.Join(t.TempDir(), "costdb.db")
		if err := copyFile(path, boltTemplate(t)); err != nil {
			t.Fatal(err)
		}
		bst, err := boltstore.Open(path, boltstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st = bst
	}
	t.Cleanup(func() { st.Close() })
	speed := storecache.New(st)
	key, err := app.New(speed, nil, app.Config{}).SigningKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := jwtauth.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return apitest.Backend{App: app.New(speed, tokens, cfg), Speed: speed, Store: st, Engine: engine, Path: path}
}

// prepare makes the signing key and imports the bundled sample banks: the
// content every harness starts from.
func prepare(st app.Store) error {
	svc := app.New(storecache.New(st), nil, app.Config{})
	if _, err := svc.SigningKey(context.Background()); err != nil {
		return err
	}
	eds, err := sample.Load()
	if err != nil {
		return err
	}
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	_, err = svc.ImportEditions(context.Background(), data)
	return err
}

var (
	boltOnce sync.Once
	boltDir  string // the template's directory, removed by cleanup
	boltFile string
	boltErr  error
)

// boltTemplate returns the bbolt file every bbolt harness of the test
// binary starts as a copy of, made the first time it is asked for.
func boltTemplate(t *testing.T) string {
	t.Helper()
	boltOnce.Do(func() {
		boltDir, boltErr = os.MkdirTemp("", "costdb-enginetest-")
		if boltErr != nil {
			return
		}
		boltFile = filepath.Join(boltDir, "template.db")
		s, err := boltstore.Open(boltFile, boltstore.Options{})
		if err != nil {
			boltErr = err
			return
		}
		boltErr = errors.Join(prepare(s), s.Close())
	})
	if boltErr != nil {
		t.Fatalf("enginetest: bbolt template: %v", boltErr)
	}
	return boltFile
}

// cleanup removes what the test binary made: the bbolt template, the
// PostgreSQL cluster.
func cleanup() {
	if boltDir != "" {
		_ = os.RemoveAll(boltDir)
	}
	pgtest.Stop()
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
