package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// mappingUsage is the synopsis of costdb import --mapping.
const mappingUsage = `usage: costdb import --mapping MAPPING.json --db PATH [--state UF] [--month MM/YYYY] [--dry-run] FILE
MAPPING says where the columns of a state agency's table (ORSE, SEINFRA-CE…)
are and what they mean (docs/importing.md, "Any agency's table"); FILE is the
agency's XLSX or CSV table. --state and --month give what the mapping leaves
out; given in both, they must agree.`

// isMappingImport reports whether the import's arguments ask for a mapping.
func isMappingImport(args []string) bool {
	for _, a := range args {
		if a == "--mapping" || a == "-mapping" || strings.HasPrefix(a, "--mapping=") || strings.HasPrefix(a, "-mapping=") {
			return true
		}
	}
	return false
}

// runImportMapped runs "costdb import --mapping": it reads the whole table
// through the mapping first, then imports it in one transaction; a bad
// mapping or any bad row changes nothing and lists every fault.
func runImportMapped(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("costdb import --mapping", stderr)
	mapping := fs.String("mapping", "", "the mapping (JSON) of the agency's table")
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL (env COSTDB_DB)")
	state := fs.String("state", "", "state (UF) of the edition, when the mapping does not say")
	month := fs.String("month", "", "reference month MM/YYYY of the edition, when the mapping does not say")
	dryRun := fs.Bool("dry-run", false, "read and check the table and print the counts, without writing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, mappingUsage)
		fs.PrintDefaults()
	}
	noteEnv(fs)
	if err := applySettingsEnv(fs); err != nil {
		return err
	}
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return errUsage
	}
	if *mapping == "" || len(files) != 1 {
		fmt.Fprintln(stderr, "costdb import --mapping: a mapping and exactly one FILE are required")
		fs.Usage()
		return errUsage
	}
	m, err := bankfiles.ReadMappingFile(*mapping)
	if err != nil {
		return err
	}
	start := time.Now()
	eds, sum, err := bankfiles.ReadMapped(ctx, m, files[0], *state, *month, bankfiles.Limits{})
	if err != nil {
		return err
	}
	ed := eds[0].Edition
	fmt.Fprintf(stdout, "%s %s %s: %s, %d rows (%d without a price, left out): %d resources, %d compositions\n",
		ed.Bank, ed.State, ed.Month, sum.File, sum.Rows, sum.Skipped, sum.Resources, sum.Compositions)
	if *dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
		return nil
	}
	sums, err := writeEditions(ctx, *db, files, eds, nil)
	if err != nil {
		return err
	}
	now := sums[len(sums)-1].Edition
	regimes := make([]string, len(now.Regimes))
	for i, r := range now.Regimes {
		regimes[i] = r.String()
	}
	fmt.Fprintf(stdout, "edition %s %s %s now: %d resources, %d compositions; regimes %s\n",
		now.Bank, now.State, now.Month, now.Resources, now.Compositions, strings.Join(regimes, ", "))
	fmt.Fprintf(stdout, "took %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
