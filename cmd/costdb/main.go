// Command costdb runs the costdb service and its administration commands.
//
//	costdb serve [--addr 127.0.0.1:8080] [--db ./costdb.db] [--demo] …
//	costdb users list|add|reset-secret|disable|enable|revoke-tokens --db PATH …
//	costdb import sample|sinapi|sicro --db PATH … (--dry-run: check only)
//	costdb backup --db PATH --out FILE
//	costdb restore --from FILE --db PATH [--force]
//	costdb keys rotate|list --db PATH
//	costdb migrate --from PATH --to postgres://…
//	costdb version
//
// --db is a bbolt file path (./costdb.db by default) or a postgres://
// (postgresql://) URL, for every command.
//
// The operator commands (users, import, backup, keys rotate) reach a
// running server through its admin listener when one holds the database,
// and open the database themselves otherwise. Every flag of every command
// can also be given in the environment as COSTDB_<FLAG> (COSTDB_ADDR,
// COSTDB_DB, COSTDB_DEMO, …); a flag on the command line wins.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // the time zone database, for hosts without one
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `costdb: a construction cost database service

Usage:
  costdb serve [--addr ADDR] [--db PATH] [--demo] [--admin-addr ADDR] [--log-format text|json] ...
  costdb users list [--db PATH] [--company NAME|ID | --email EMAIL]
  costdb users add --db PATH --company NAME --email EMAIL [--name NAME] [--department NAME]
  costdb users reset-secret --db PATH --email EMAIL
  costdb users disable|enable|revoke-tokens --db PATH (--email EMAIL | --company NAME|ID)
  costdb import sample --db PATH
  costdb import sinapi --db PATH [--states UF,UF...] [--month MM/YYYY] [--dry-run] WORKBOOK
  costdb import sinapi --db PATH --state UF --month MM/YYYY [--regime desonerado|nao-desonerado] [--dry-run] FILE|DIR...
  costdb import sinapi --db PATH --state UF,UF...|all --month MM/YYYY [--regime ...] [--dry-run] FILE|DIR...
  costdb import sicro --db PATH --state UF --month MM/YYYY [--dry-run] FILE|DIR...
  costdb backup --db PATH --out FILE
  costdb restore --from FILE --db PATH [--force]
  costdb keys rotate|list --db PATH [--signing-key-file FILE]
  costdb migrate --from PATH --to postgres://USER@HOST/DB
  costdb healthcheck [--addr ADDR]   (exit 0 when /readyz answers 200)
  costdb verify [--json] VERSION.json --files DIR   (recompute a frozen version from the official files, offline)
  costdb version        (or costdb --version)

While a server runs, users, import, backup and keys rotate go through its
admin listener; otherwise they open the database themselves. --db is a
bbolt file path (default ./costdb.db) or a postgres:// URL. Every flag can
be given as an environment variable COSTDB_<FLAG> (e.g. COSTDB_DB); see
docs/operations.md.

Run "costdb COMMAND -h" for the flags of a command.
`

// run dispatches a command line and returns the process exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		m := NewMain(stdout, stderr)
		if err = m.ParseFlags(args[1:]); err == nil {
			err = m.Serve(ctx)
		}
	case "users":
		err = runUsers(ctx, args[1:], stdout, stderr)
	case "import":
		err = runImport(ctx, args[1:], stdout, stderr)
	case "backup":
		err = runBackup(ctx, args[1:], stdout, stderr)
	case "restore":
		err = runRestore(ctx, args[1:], stdout, stderr)
	case "keys":
		err = runKeys(ctx, args[1:], stdout, stderr)
	case "migrate":
		err = runMigrate(ctx, args[1:], stdout, stderr)
	case "healthcheck":
		err = runHealthcheck(ctx, args[1:], stdout, stderr)
	case "verify":
		err = runVerify(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		runVersion(stdout)
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "costdb: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		if err == errUsage {
			return 2
		}
		fmt.Fprintf(stderr, "costdb: %v\n", err)
		return 1
	}
	return 0
}
