package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// statesImport is an import of the per-state SINAPI reports of several
// states (--state PE,BA or --state all).
type statesImport struct {
	bank   bankfiles.Bank
	states string // the --state flag: UFs separated by commas, or all
	month  string
	regime *domain.Regime
	files  []string
	db     string
	dryRun bool
}

// stateFiles are the files of one state, in the order given.
type stateFiles struct {
	state string
	files []string
}

// groupsPerState is how many editions a state's files may make: one per set
// of regimes its records are priced in (bankfiles.Importer.Editions).
const groupsPerState = 3

// runImportStates imports the per-state reports of several states, each
// file's state told by its name, one edition per state, all in one
// transaction: a bad file in any state changes nothing. Each state's files
// are read when the import comes to it and its records let go once
// stored, so that memory holds one state at a time. A line per state goes
// to stderr (with a bar per file on a terminal); the summary to stdout.
func runImportStates(ctx context.Context, in statesImport, stdout, stderr io.Writer) error {
	groups, err := groupStates(in.states, in.files)
	if err != nil {
		return err
	}
	for _, g := range groups { // the state and month, before any file is read
		if _, err := bankfiles.NewImporter(in.bank, g.state, in.month); err != nil {
			return err
		}
	}
	step := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	var bar *progressBar
	if isTerminal(stderr) {
		bar = &progressBar{w: stderr}
	}
	read := func(g stateFiles) (*bankfiles.Importer, []bankfiles.Edition, error) {
		im, err := bankfiles.NewImporter(in.bank, g.state, in.month)
		if err != nil {
			return nil, nil, err
		}
		im.Regime = in.regime
		if bar != nil {
			im.Progress = bar.update
		}
		rows := 0
		for _, path := range g.files {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			sum, err := im.AddFile(ctx, path)
			if err != nil {
				return nil, nil, err
			}
			rows += sum.Rows
		}
		eds, err := im.Editions()
		if err != nil {
			return nil, nil, err
		}
		step("%s %s: %d files, %d rows read", in.bank.Name, g.state, len(g.files), rows)
		return im, eds, nil
	}

	start := time.Now()
	if in.dryRun {
		for _, g := range groups {
			im, _, err := read(g)
			if err != nil {
				return err
			}
			printDryRun(stdout, im, time.Since(start))
		}
		return nil
	}

	// Through the running server's admin listener when a server holds the
	// database: one write transaction there, which reads go on beside.
	op, err := connect(ctx, connectOptions{DB: in.db, Bolt: boltstore.Options{MmapSize: mmapForFiles(in.db, in.files)}})
	if err != nil {
		return err
	}
	defer op.Close()
	// Edition i is regime group i%3 of state i/3; a state with fewer
	// groups answers nil for the others (skipped). The state being
	// written is the only one held; it is read again if the store runs
	// the transaction again.
	ims := make([]*bankfiles.Importer, len(groups))
	current, eds, asked := -1, []bankfiles.Edition(nil), -1
	step("writing %d states in one transaction: %s", len(groups), strings.Join(stateNames(groups), ", "))
	sums, err := op.Import(ctx, len(groups)*groupsPerState, func(i int) (*app.EditionData, error) {
		s, g := i/groupsPerState, i%groupsPerState
		if i <= asked { // the transaction runs again (a retry): read again
			current = -1
		}
		asked = i
		if s != current {
			current, eds = -1, nil // let the previous state's records go
			im, e, err := read(groups[s])
			if err != nil {
				return nil, err
			}
			current, eds, ims[s] = s, e, im
		}
		if g >= len(eds) {
			return nil, nil
		}
		e := eds[g]
		eds[g] = bankfiles.Edition{}
		return &app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}, nil
	})
	if err != nil {
		return describe(err)
	}
	step("written in %s", time.Since(start).Round(time.Millisecond))
	last := map[string]domain.Edition{}
	for _, s := range sums {
		last[s.Edition.State] = s.Edition
	}
	names := stateNames(groups)
	for i, g := range groups {
		ed := last[g.state]
		rows := 0
		for _, f := range ims[i].Files() {
			rows += f.Rows
		}
		regimes := make([]string, len(ed.Regimes))
		for j, r := range ed.Regimes {
			regimes[j] = r.String()
		}
		fmt.Fprintf(stdout, "%s %s %s: %d files, %d rows; edition now: %d resources, %d compositions (%d with structure); regimes %s\n",
			ed.Bank, ed.State, ed.Month, len(ims[i].Files()), rows, ed.Resources, ed.Compositions, ed.Structures, strings.Join(regimes, ", "))
	}
	editions := "editions"
	if len(names) == 1 {
		editions = "edition"
	}
	fmt.Fprintf(stdout, "imported %s %s: %d %s (%s) in one transaction\n", in.bank.Name, in.month, len(names), editions, strings.Join(names, ", "))
	fmt.Fprintf(stdout, "took %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// groupStates sorts files by the state their names state: every file must
// state one, of the states listed (all: any), and every state listed must
// have a file. The groups come in the order of the states.
func groupStates(list string, files []string) ([]stateFiles, error) {
	var want []string
	if !strings.EqualFold(strings.TrimSpace(list), "all") {
		for _, s := range strings.Split(list, ",") {
			if s = strings.ToUpper(strings.TrimSpace(s)); s != "" && !slices.Contains(want, s) {
				if !domain.ValidState(s) {
					return nil, fmt.Errorf("--state: %q is not a state code", s)
				}
				want = append(want, s)
			}
		}
	}
	byState := map[string][]string{}
	for _, f := range files {
		s := bankfiles.SinapiStateFromName(f)
		switch {
		case s == "":
			return nil, fmt.Errorf("%s: the file name states no state (…_PE_202410_…): with several states, each file's name tells its state", f)
		case want != nil && !slices.Contains(want, s):
			return nil, fmt.Errorf("%s is a file of %s, which --state does not list", f, s)
		}
		byState[s] = append(byState[s], f)
	}
	if want == nil {
		for s := range byState {
			want = append(want, s)
		}
		sort.Strings(want)
	}
	out := make([]stateFiles, 0, len(want))
	for _, s := range want {
		if len(byState[s]) == 0 {
			return nil, fmt.Errorf("no file of %s among the files given", s)
		}
		out = append(out, stateFiles{s, byState[s]})
	}
	return out, nil
}

// mmapForFiles is the address space to map the database at for an import
// of files: the file as it is plus a generous upper bound of what the
// import writes (the records take less room than their CSV rows; an XLSX
// file is compressed about tenfold), so that bbolt does not remap while it
// writes: each remap copies onto the heap every record written so far.
func mmapForFiles(db string, files []string) int {
	size := int64(64 << 20)
	if st, err := os.Stat(db); err == nil {
		size += st.Size()
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		switch strings.ToLower(filepath.Ext(f)) {
		case ".xlsx", ".zip":
			size += 10 * st.Size()
		default:
			size += st.Size()
		}
	}
	return int(size)
}

func stateNames(groups []stateFiles) []string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.state
	}
	return names
}
