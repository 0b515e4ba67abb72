package main

import (
	"context"
	"fmt"
	"io"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// changesUsage is the synopsis of "costdb import sinapi-changes".
const changesUsage = `usage: costdb import sinapi-changes --db PATH [--dry-run] FILE
FILE is Caixa's monthly change log, SINAPI_Manutenções_AAAA_MM.xlsx (codes
deactivated, created, changed): every month it lists replaces the change log
stored for that month.`

// runImportChanges runs "costdb import sinapi-changes": it reads the whole
// workbook first (every bad row named, nothing written), then writes the
// change log of each month it holds in one transaction: through the
// running server's admin listener when a server holds the bbolt file, into
// the store itself otherwise (connect).
func runImportChanges(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("costdb import sinapi-changes", stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL")
	dryRun := fs.Bool("dry-run", false, "read and check the file, write nothing")
	noteEnv(fs)
	if err := applySettingsEnv(fs); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, changesUsage)
		return errUsage
	}
	log, err := bankfiles.ReadSinapiChangeLog(ctx, fs.Arg(0), bankfiles.DefaultLimits)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: SINAPI change log of %s, %d changes over %d months\n", fs.Arg(0), log.Month, len(log.Changes), len(log.Months()))
	if *dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
		return nil
	}
	op, err := connect(ctx, connectOptions{DB: *db})
	if err != nil {
		return err
	}
	defer op.Close()
	sums, err := op.ImportChangeLog(ctx, changeLogImport{Bank: log.Bank, Changes: log.Changes})
	if err != nil {
		return describe(err)
	}
	for _, s := range sums {
		fmt.Fprintf(stdout, "%s %s: %d changes\n", s.Bank, s.Month, s.Changes)
	}
	return nil
}
