package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
)

// runImportWorkbook imports the national SINAPI workbook: it reads every
// sheet first, then imports an edition per state, each replacing that
// state's edition of the month, all in one transaction, so that a bad
// workbook changes nothing. Progress goes to stderr: a bar per sheet on a
// terminal, a line per step otherwise; the summary goes to stdout.
func runImportWorkbook(ctx context.Context, wf *bankfiles.WorkbookFile, db, states, month string, dryRun bool, stdout, stderr io.Writer) error {
	opt := bankfiles.WorkbookOptions{Month: month}
	if states != "" {
		for _, s := range strings.Split(states, ",") {
			if s = strings.ToUpper(strings.TrimSpace(s)); s != "" {
				opt.States = append(opt.States, s)
			}
		}
	}
	step := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	if isTerminal(stderr) {
		bar := &progressBar{w: stderr}
		opt.Progress = bar.update
	} else {
		opt.Progress = func(sheet string, done, total int64) {
			if total > 0 && done >= total {
				step("read sheet %s, up to row %d", sheet, total)
			}
		}
	}
	start := time.Now()
	step("reading %s", wf.Name())
	wb, err := wf.Read(ctx, opt)
	if err != nil {
		return err
	}
	read := time.Since(start)
	wf.Close() // the sheets are read: let the workbook's memory go before writing
	printWorkbook(stdout, wb, read)
	if dryRun {
		for i := range wb.States {
			_, sum := wb.Edition(i)
			printState(stdout, sum)
		}
		fmt.Fprintln(stdout, "dry run: nothing written")
		return nil
	}

	// Through the running server's admin listener when a server holds the
	// database: one write transaction there, which reads go on beside.
	op, err := connect(ctx, connectOptions{DB: db, Bolt: boltstore.Options{MmapSize: mmapFor(db, wb)}})
	if err != nil {
		return err
	}
	defer op.Close()
	// Each state's edition is built when the import asks for it and let go
	// once stored: the records of 27 states are never all in memory.
	sums := make([]bankfiles.StateSummary, len(wb.States))
	edition := func(i int) (*app.EditionData, error) {
		e, sum := wb.Edition(i)
		sums[i] = sum
		return &app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions, Replace: true}, nil
	}
	step("writing %d editions", len(wb.States))
	wrote := time.Now()
	if _, err := op.Import(ctx, len(wb.States), edition); err != nil {
		return describe(err)
	}
	step("written in %s", time.Since(wrote).Round(time.Millisecond))
	for _, sum := range sums {
		printState(stdout, sum)
	}
	names := wb.States
	editions := "editions"
	if len(names) == 1 {
		editions = "edition"
	}
	fmt.Fprintf(stdout, "imported SINAPI %s: %d %s (%s), each replacing that state's edition of the month\n",
		wb.Month, len(names), editions, strings.Join(names, ", "))
	fmt.Fprintf(stdout, "took %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// printWorkbook writes what was read from a workbook.
func printWorkbook(w io.Writer, wb *bankfiles.Workbook, read time.Duration) {
	regimes := make([]string, len(wb.Regimes))
	for i, r := range wb.Regimes {
		regimes[i] = r.String()
	}
	fmt.Fprintf(w, "SINAPI %s, national workbook %s: read in %s; regimes %s\n", wb.Month, wb.File, read.Round(time.Millisecond), strings.Join(regimes, ", "))
	for _, s := range wb.Sheets {
		what := "structure"
		if s.Regime != nil {
			what = s.Regime.String()
		} else if s.Name == bankfiles.SheetInsumosNoCharges {
			what = "without charges"
		}
		fmt.Fprintf(w, "  sheet %s (%s): %d rows", s.Name, what, s.Rows)
		if s.Skipped > 0 {
			fmt.Fprintf(w, ", %d other rows skipped (blank, notes)", s.Skipped)
		}
		fmt.Fprintln(w)
	}
	if len(wb.Ignored) > 0 {
		fmt.Fprintf(w, "  sheets not read: %s\n", strings.Join(wb.Ignored, ", "))
	}
}

// printState writes what one state's edition holds.
func printState(w io.Writer, s bankfiles.StateSummary) {
	fmt.Fprintf(w, "  %s: %d resources, %d compositions (%d with structure)", s.State, s.Resources, s.Compositions, s.Structures)
	if s.OneRegime > 0 {
		fmt.Fprintf(w, "; %d of them priced in one regime only", s.OneRegime)
	}
	fmt.Fprintln(w)
}

// mmapFor is the address space to map the database at for an import of
// wb: the file as it is plus about 1.5 KB per record it may write (a
// generous upper bound of what bbolt takes per bank record, structure
// included; every state with every row of the price sheets), so that bbolt
// does not remap while it writes.
func mmapFor(db string, wb *bankfiles.Workbook) int {
	perState := 0
	for _, s := range wb.Sheets {
		switch {
		case s.Regime == nil:
			perState += s.Rows / 4 // Analítico: items add about a quarter of a record each
		case *s.Regime == wb.Regimes[0]:
			perState += s.Rows // ISD and CSD (or ICD and CCD)
		}
	}
	size := int64(0)
	if st, err := os.Stat(db); err == nil {
		size = st.Size()
	}
	return int(size) + len(wb.States)*perState*1536 + 64<<20
}
