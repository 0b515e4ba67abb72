package apitest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore/pgtest"
)

// The storage engines a harness can run on.
const (
	EngineBolt     = "bolt"
	EnginePostgres = "postgres"
)

// engine is the engine New uses: the one Main is running the tests for.
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

// Main runs the package's tests once per engine and exits. A package whose
// tests use New calls it from TestMain:
//
//	func TestMain(m *testing.M) { apitest.Main(m) }
//
// Each run is announced on a line of its own ("apitest: engine postgres"),
// so that a failure can be told apart. PostgreSQL runs when its server
// binaries are on the machine; without them it is skipped with one line
// saying so, except in CI (CI=true), where that fails.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is Main without the exit: it returns the exit code, for a TestMain
// that has more to do after the tests.
func Run(m *testing.M) int {
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
	pgtest.Stop()
	return code
}

// Engine returns the engine the tests are running on.
func Engine() string { return engine }
