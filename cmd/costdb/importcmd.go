package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// importUsage is the synopsis of the import commands.
const importUsage = `usage: costdb import sample --db PATH
       costdb import sinapi --db PATH [--states UF,UF...] [--month MM/YYYY] [--dry-run] WORKBOOK
       costdb import sinapi --db PATH --state UF --month MM/YYYY [--regime desonerado|nao-desonerado] [--dry-run] FILE|DIR...
       costdb import sinapi --db PATH --state UF,UF...|all --month MM/YYYY [--regime ...] [--dry-run] FILE|DIR...
       costdb import sicro --db PATH --state UF --month MM/YYYY [--dry-run] FILE|DIR...
       costdb import sinapi|sicro --db PATH [--dry-run] PACKAGE...
       costdb import sicro-charges --db PATH [--state UF] [--month MM/YYYY] [--dry-run] FILE|PACKAGE...
       costdb import sinapi-charges --db PATH [--state UF] [--month MM/YYYY] [--dry-run] FILE...
       costdb import --mapping MAPPING.json --db PATH [--state UF] [--month MM/YYYY] [--dry-run] FILE
       costdb import sinapi-changes --db PATH [--dry-run] FILE
WORKBOOK is the national SINAPI workbook (SINAPI_Referência_AAAA_MM.xlsx, or the
SINAPI-AAAA-MM-formato-xlsx.zip Caixa publishes); FILE the per-state reports,
DIR a directory of them. With several states (or all), each SINAPI file's
state is told by its name (…_PE_202410_…) and every state's edition is
imported in one transaction. PACKAGE is a folder or a zip as Caixa or DNIT
publish it: the files the import reads are read, every other file is listed
as skipped, with why; the file names give --state and --month when they are
not given (the title rows of each file must agree). sinapi-changes reads
Caixa's monthly change log (SINAPI_Manutenções_AAAA_MM.xlsx).`

// runImportBank runs "costdb import sinapi|sicro": it reads every file
// first, then imports them in one transaction, so that a bad file changes
// nothing. A progress bar per file goes to stderr when it is a terminal; a
// summary always goes to stdout. A SINAPI national workbook (told by its
// sheets) is imported by runImportWorkbook.
func runImportBank(ctx context.Context, kind string, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("costdb import "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL (env COSTDB_DB)")
	state := fs.String("state", "", "state (UF) of the files, such as PE (required, but for the national SINAPI workbook); for SINAPI also several (PE,BA) or all, each file's state told by its name")
	month := fs.String("month", "", "reference month of the files, MM/YYYY (required, but for the national SINAPI workbook, whose month it checks)")
	bank := bankfiles.OfficialSinapi()
	dryRun := fs.Bool("dry-run", false, "read and check the files and print the counts, without writing")
	memLimit := fs.String("memory-limit", "auto", "soft memory limit of the import: auto (GOMEMLIMIT, else 90% of the cgroup's limit, else the larger of 512 MiB and 1.5 times the files' size), off, or a size such as 800MiB (env COSTDB_MEMORY_LIMIT)")
	var regime, states *string
	if kind == "sicro" {
		bank = bankfiles.OfficialSicro()
	} else {
		regime = fs.String("regime", "", "regime of every per-state file, desonerado or nao-desonerado (default: told by each file name)")
		states = fs.String("states", "", "national workbook: import only these states, such as MG,SP (default: every state it prices)")
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, importUsage)
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
	restoreLimit, err := applyImportMemoryLimit(*memLimit, files) // importmem.go
	if err != nil {
		return err
	}
	defer restoreLimit()
	files, skipped, compFiles, done, err := expandPackagesWith(ctx, kind, bank, files)
	if err != nil {
		return err
	}
	defer done()
	// The package's companion files (its change log, its charges tables)
	// are read and checked before anything is written, and written once
	// the editions are.
	comp, err := readCompanions(ctx, compFiles, *state, *month)
	if err != nil {
		return err
	}
	defer func() { // after the summary, once the import went through
		if err == nil {
			err = comp.write(ctx, *db, *dryRun, stdout)
		}
		for _, s := range skipped {
			if err == nil {
				fmt.Fprintln(stdout, s)
			}
		}
	}()
	if kind == "sinapi" && len(files) > 0 {
		var book *bankfiles.WorkbookFile
		for _, path := range files {
			wf, err := bankfiles.OpenSinapiWorkbookWith(ctx, path, bankfiles.Limits{})
			if errors.Is(err, bankfiles.ErrNotWorkbook) {
				continue
			}
			if err != nil {
				return err
			}
			if book != nil || len(files) > 1 {
				wf.Close()
				if book != nil {
					book.Close()
				}
				return fmt.Errorf("%s is the national SINAPI workbook: import it alone, without other files", path)
			}
			book = wf
		}
		if book != nil {
			defer book.Close()
			if *state != "" || *regime != "" {
				return fmt.Errorf("%s is the national SINAPI workbook: it gives every state and both regimes; choose states with --states, not --state or --regime", book.Name())
			}
			return runImportWorkbook(ctx, book, *db, *states, *month, *dryRun, stdout, stderr)
		}
		if *states != "" {
			return fmt.Errorf("--states is for the national SINAPI workbook; the per-state files take --state")
		}
	}
	if *state == "" && *month == "" && len(files) > 0 { // the files' names state them, else their titles (checked against each other)
		s, m, ok := stateMonthFromNames(files, kind == "sinapi")
		if !ok {
			if s, m, ok, err = stateMonthFromTitles(ctx, bank, files, false); err != nil {
				return err
			}
		}
		if ok {
			*state, *month = s, m
		}
	}
	if *state == "" || *month == "" || len(files) == 0 {
		fmt.Fprintf(stderr, "costdb import %s: --state, --month and at least one FILE are required\n", kind)
		fs.Usage()
		return errUsage
	}
	var r *domain.Regime
	if regime != nil && *regime != "" {
		g, err := parseRegime(*regime)
		if err != nil {
			return err
		}
		r = &g
	}
	if kind == "sinapi" && (strings.Contains(*state, ",") || strings.EqualFold(*state, "all")) {
		return runImportStates(ctx, statesImport{
			bank: bank, states: *state, month: *month, regime: r, files: files, db: *db, dryRun: *dryRun,
		}, stdout, stderr)
	}
	im, err := bankfiles.NewImporter(bank, strings.ToUpper(*state), *month)
	if err != nil {
		return err
	}
	im.Regime = r
	if isTerminal(stderr) {
		bar := &progressBar{w: stderr}
		im.Progress = bar.update
	}

	start := time.Now()
	for _, path := range files {
		if _, err := im.AddFile(ctx, path); err != nil {
			return err
		}
	}
	eds, err := im.Editions()
	if err != nil {
		return err
	}
	read := time.Since(start)
	if *dryRun {
		printDryRun(stdout, im, read)
		return nil
	}

	// What the summary prints is taken now: the importer holds the
	// records read, which the import lets go as it writes them.
	readFiles, counts := im.Files(), im.Counts()
	reread := func() ([]bankfiles.Edition, error) {
		again, err := bankfiles.NewImporter(bank, strings.ToUpper(*state), *month)
		if err != nil {
			return nil, err
		}
		again.Regime = r
		for _, path := range files {
			if _, err := again.AddFile(ctx, path); err != nil {
				return nil, err
			}
		}
		return again.Editions()
	}
	sums, err := writeEditions(ctx, *db, files, eds, reread)
	if err != nil {
		return err
	}
	printImportSummary(stdout, readFiles, counts, sums[len(sums)-1].Edition, read, time.Since(start))
	return nil
}

// printDryRun writes what a dry run of per-state files read.
func printDryRun(w io.Writer, im *bankfiles.Importer, read time.Duration) {
	ed := im.Edition()
	fmt.Fprintf(w, "%s %s %s: %d files read in %s\n", ed.Bank, ed.State, ed.Month, len(im.Files()), read.Round(time.Millisecond))
	for _, f := range im.Files() {
		fmt.Fprintf(w, "  %s: %s, %d rows\n", f.Name, f.Format, f.Rows)
	}
	for _, c := range im.Counts() {
		fmt.Fprintf(w, "  %s: %d resources, %d compositions\n", c.Regime, c.Resources, c.Compositions)
	}
	fmt.Fprintln(w, "dry run: nothing written")
}

// parseInterleaved parses flags that may come before, between or after the
// file names, and returns the file names.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// parseRegime reads a regime as the CLI spells it.
func parseRegime(s string) (domain.Regime, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "desonerado":
		return domain.Desonerado, nil
	case "nao-desonerado", "não-desonerado", "naodesonerado", "nao_desonerado":
		return domain.NaoDesonerado, nil
	}
	return 0, fmt.Errorf("--regime %q is neither desonerado nor nao-desonerado", s)
}

// printImportSummary writes what was read and what the edition holds now.
func printImportSummary(w io.Writer, files []bankfiles.FileSummary, counts []bankfiles.RegimeCount, ed domain.Edition, read, took time.Duration) {
	fmt.Fprintf(w, "%s %s %s: %d files read in %s\n", ed.Bank, ed.State, ed.Month, len(files), read.Round(time.Millisecond))
	for _, f := range files {
		regimes := make([]string, len(f.Regimes))
		for i, r := range f.Regimes {
			regimes[i] = r.String()
		}
		extra := ""
		if f.Skipped > 0 {
			extra += fmt.Sprintf(", %d not priced (left out)", f.Skipped)
		}
		if f.Repeated > 0 {
			extra += fmt.Sprintf(", %d repeated", f.Repeated)
		}
		fmt.Fprintf(w, "  %s: %s, %s, %d rows%s\n", f.Name, f.Format, strings.Join(regimes, "+"), f.Rows, extra)
	}
	fmt.Fprintln(w, "imported:")
	for _, c := range counts {
		fmt.Fprintf(w, "  %s: %d resources, %d compositions\n", c.Regime, c.Resources, c.Compositions)
	}
	regimes := make([]string, len(ed.Regimes))
	for i, r := range ed.Regimes {
		regimes[i] = r.String()
	}
	fmt.Fprintf(w, "edition %s %s %s now: %d resources, %d compositions (%d with structure); regimes %s\n",
		ed.Bank, ed.State, ed.Month, ed.Resources, ed.Compositions, ed.Structures, strings.Join(regimes, ", "))
	fmt.Fprintf(w, "took %s\n", took.Round(time.Millisecond))
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar draws one line per file on a terminal, redrawn in place at
// most ten times a second and finished with a new line.
type progressBar struct {
	w        io.Writer
	file     string // the file being drawn
	finished string // the last file finished
	last     time.Time
}

const (
	barWidth  = 30
	nameWidth = 36 // name + bar + percentage fit in 80 columns
)

func (p *progressBar) update(file string, done, total int64) {
	finished := total > 0 && done >= total
	switch {
	case file == p.finished:
		return
	case file == p.file && !finished && time.Since(p.last) < 100*time.Millisecond:
		return
	}
	p.file, p.last = file, time.Now()
	name := []rune(filepath.Base(file))
	if len(name) > nameWidth {
		name = append([]rune("…"), name[len(name)-nameWidth+1:]...)
	}
	if total <= 0 { // a sheet that does not say how long it is: count rows
		fmt.Fprintf(p.w, "\r%-*s %d rows", nameWidth, string(name), done)
		return
	}
	frac := 1.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	n := int(frac * barWidth)
	fmt.Fprintf(p.w, "\r%-*s [%s%s] %3.0f%%", nameWidth, string(name),
		strings.Repeat("#", n), strings.Repeat(".", barWidth-n), frac*100)
	if finished {
		fmt.Fprintln(p.w)
		p.finished = file
	}
}

// writeEditions writes the editions read from files into the database at
// db, through the running server's admin listener when a server holds it:
// one write transaction there, which reads go on beside. Each edition is
// let go once written (handOver); reread reads the files again should the
// store run the transaction again (nil: every edition is kept until the
// end).
func writeEditions(ctx context.Context, db string, files []string, eds []bankfiles.Edition, reread func() ([]bankfiles.Edition, error)) ([]app.ImportSummary, error) {
	op, err := connect(ctx, connectOptions{DB: db, Bolt: boltstore.Options{MmapSize: mmapForFiles(db, files)}})
	if err != nil {
		return nil, err
	}
	defer op.Close()
	sums, err := op.Import(ctx, len(eds), handOver(eds, reread))
	if err != nil {
		return nil, describe(err)
	}
	return sums, nil
}
