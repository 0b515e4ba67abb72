// Command costdb runs the costdb service and its administration commands.
//
//	costdb serve [--addr 127.0.0.1:8080] [--db ./costdb.db|postgres://…] [--demo]
//	costdb users add --db PATH --company NAME --email EMAIL [--name NAME] [--department NAME]
//	costdb users disable|enable --db PATH --email EMAIL
//	costdb import sample --db PATH
//	costdb import sinapi --db PATH [--states UF,UF...] [--month MM/YYYY] [--dry-run] WORKBOOK
//	costdb import sinapi --db PATH --state UF --month MM/YYYY [--regime desonerado|nao-desonerado] [--dry-run] FILE...
//	costdb import sicro --db PATH --state UF --month MM/YYYY [--dry-run] FILE...
//	costdb migrate --from PATH --to postgres://…
//
// --db takes a bbolt file path (the default, ./costdb.db) or a postgres://
// (postgresql://) URL, for every command. Every serve flag can also be given
// in the environment as COSTDB_<FLAG> (COSTDB_ADDR, COSTDB_DB, COSTDB_DEMO,
// …), and COSTDB_DB is the default of every other command's --db; a flag on
// the command line wins.
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
  costdb serve [--addr ADDR] [--db PATH] [--demo] [--tz ZONE] [--max-body BYTES] [--token-ttl DURATION]
  costdb users add --db PATH --company NAME --email EMAIL [--name NAME] [--department NAME]
  costdb users disable --db PATH --email EMAIL
  costdb users enable --db PATH --email EMAIL
  costdb import sample --db PATH
  costdb import sinapi --db PATH [--states UF,UF...] [--month MM/YYYY] [--dry-run] WORKBOOK
  costdb import sinapi --db PATH --state UF --month MM/YYYY [--regime desonerado|nao-desonerado] [--dry-run] FILE...
  costdb import sicro --db PATH --state UF --month MM/YYYY [--dry-run] FILE...
  costdb migrate --from PATH --to postgres://USER@HOST/DB

--db (env COSTDB_DB) is a bbolt file path (default ./costdb.db) or a
postgres:// URL.

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
	case "migrate":
		err = runMigrate(ctx, args[1:], stdout, stderr)
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
