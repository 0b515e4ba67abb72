package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// chargesUsage is the synopsis of costdb import sicro-charges and
// sinapi-charges.
const chargesUsage = `usage: costdb import sicro-charges|sinapi-charges --db PATH [--state UF] [--month MM/YYYY] [--dry-run] FILE|PACKAGE...
sicro-charges: FILE is DNIT's "Relatório Sintético de Encargos Sociais"
(XLSX, or a CSV of its cells), one per state, month and regime; PACKAGE a
folder or zip of SICRO's package, whose encargos tables are read (every
other file is listed as skipped). sinapi-charges: FILE is Caixa's "SINAPI -
Composição de Encargos Sociais" of a state (XLSX, or a CSV of its cells):
horista and mensalista, com and sem desoneração, two tables. The state,
month and regime come from each table's title rows; --state and --month,
when given, must agree with them. Every table is read first, then all are
stored in one transaction, each replacing the table of the same bank,
state, month and regime; through a running server's admin listener when a
server holds the bbolt file.`

// chargesImports are the labour charges imports: per import, the bank
// whose header tells its files and the reader of a file's tables.
var chargesImports = map[string]struct {
	bank bankfiles.Bank
	read func(ctx context.Context, path, state, month string) ([]*domain.ChargesTable, error)
}{
	bankfiles.ImportSicroCharges: {bankfiles.SicroCharges(), func(ctx context.Context, path, state, month string) ([]*domain.ChargesTable, error) {
		t, err := readChargesFile(ctx, path, state, month)
		if err != nil {
			return nil, err
		}
		return []*domain.ChargesTable{t}, nil
	}},
	bankfiles.ImportSinapiCharges: {bankfiles.SinapiCharges(), readSinapiChargesFile},
}

// runImportCharges runs "costdb import sicro-charges" (kind) or
// "sinapi-charges".
func runImportCharges(ctx context.Context, kind string, args []string, stdout, stderr io.Writer) (err error) {
	imp := chargesImports[kind]
	fs := newFlagSet("costdb import "+kind, stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL (env COSTDB_DB)")
	state := fs.String("state", "", "state (UF) the tables must be of (default: what their titles say)")
	month := fs.String("month", "", "month MM/YYYY the tables must be of (default: what their titles say)")
	dryRun := fs.Bool("dry-run", false, "read and check the tables and print them, without writing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, chargesUsage)
		fs.PrintDefaults()
	}
	noteEnv(fs)
	if err := applySettingsEnv(fs); err != nil {
		return err
	}
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return errUsage
	}
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "costdb import %s: at least one FILE or PACKAGE is required\n", kind)
		fs.Usage()
		return errUsage
	}
	files, skipped, done, err := expandPackages(ctx, kind, imp.bank, paths)
	if err != nil {
		return err
	}
	defer done()
	var tables []*domain.ChargesTable
	from := map[string]string{}
	for _, path := range files {
		ts, err := imp.read(ctx, path, strings.ToUpper(strings.TrimSpace(*state)), strings.TrimSpace(*month))
		if err != nil {
			return err
		}
		for _, t := range ts {
			if prev, ok := from[t.Key()]; ok {
				return fmt.Errorf("%s and %s are both the %s %s %s table (%s): import one", prev, path, t.Bank, t.State, t.Month, t.Regime)
			}
			from[t.Key()] = path
			tables = append(tables, t)
		}
	}
	if !*dryRun {
		// Through the running server's admin listener when a server
		// holds the bbolt file, into the store itself otherwise.
		op, err := connect(ctx, connectOptions{DB: *db})
		if err != nil {
			return err
		}
		defer op.Close()
		if err := op.PutChargesTables(ctx, tables); err != nil {
			return describe(err)
		}
	}
	for _, t := range tables {
		monthly := 0
		for _, r := range t.Rows {
			if r.Monthly {
				monthly++
			}
		}
		fmt.Fprintf(stdout, "%s %s %s %s: %d labour codes (%d horistas, %d mensalistas), %d charge items, from %s\n",
			t.Bank, t.State, t.Month, t.Regime, len(t.Rows), len(t.Rows)-monthly, monthly, len(t.Items), from[t.Key()])
	}
	if *dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
	}
	for _, s := range skipped {
		fmt.Fprintln(stdout, s)
	}
	return nil
}

func readChargesFile(ctx context.Context, path, state, month string) (*domain.ChargesTable, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	return bankfiles.ReadSicroCharges(ctx, path, fh, st.Size(), state, month)
}

func readSinapiChargesFile(ctx context.Context, path, state, month string) ([]*domain.ChargesTable, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	return bankfiles.ReadSinapiCharges(ctx, path, fh, st.Size(), state, month)
}
