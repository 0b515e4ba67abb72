package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// companionFile is a file of a package that another import than the
// package's reads (bankfiles.IsCompanion): a SINAPI package's change log,
// a SICRO package's labour charges tables.
type companionFile struct {
	Name, Path, Import string
}

// companionData is what the companion files of a package hold, read and
// checked before anything of the package is written.
type companionData struct {
	changes []changeLogImport
	charges []*domain.ChargesTable
	from    []string // the file of each, for the summary
	lines   []string // what each holds, for the summary
}

// readCompanions reads every companion file; state and month are what the
// import was told (empty: the files' titles decide).
func readCompanions(ctx context.Context, files []companionFile, state, month string) (*companionData, error) {
	c := &companionData{}
	seen := map[string]string{}
	for _, f := range files {
		switch f.Import {
		case bankfiles.ImportSinapiChanges:
			log, err := bankfiles.ReadSinapiChangeLog(ctx, f.Path, bankfiles.DefaultLimits)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			c.changes = append(c.changes, changeLogImport{Bank: log.Bank, Changes: log.Changes})
			c.lines = append(c.lines, fmt.Sprintf("%s: %s change log of %s, %d changes over %d months", f.Name, log.Bank, log.Month, len(log.Changes), len(log.Months())))
		case bankfiles.ImportSicroCharges, bankfiles.ImportSinapiCharges:
			// A national package is of every state: its tables say theirs.
			st := strings.ToUpper(strings.TrimSpace(state))
			if strings.Contains(st, ",") || st == "ALL" {
				st = ""
			}
			ts, err := chargesImports[f.Import].read(ctx, f.Path, st, strings.TrimSpace(month))
			if err != nil {
				return nil, err
			}
			for _, t := range ts {
				if prev, ok := seen[t.Key()]; ok {
					return nil, fmt.Errorf("%s and %s are both the %s %s %s table (%s): import one", prev, f.Name, t.Bank, t.State, t.Month, t.Regime)
				}
				seen[t.Key()] = f.Name
				c.charges = append(c.charges, t)
				c.lines = append(c.lines, fmt.Sprintf("%s: %s %s %s %s labour charges, %d labour codes", f.Name, t.Bank, t.State, t.Month, t.Regime, len(t.Rows)))
			}
		default:
			return nil, fmt.Errorf("%s: no import reads %s files", f.Name, f.Import)
		}
		c.from = append(c.from, f.Name)
	}
	return c, nil
}

// write stores what the companion files hold, once the package's editions
// are written: the change logs in one transaction, the charges tables in
// another (each all or nothing), through the running server when one holds
// the bbolt file (connect).
func (c *companionData) write(ctx context.Context, db string, dryRun bool, stdout io.Writer) error {
	if c == nil || len(c.lines) == 0 {
		return nil
	}
	if !dryRun {
		op, err := connect(ctx, connectOptions{DB: db})
		if err != nil {
			return err
		}
		defer op.Close()
		for _, log := range c.changes {
			if _, err := op.ImportChangeLog(ctx, log); err != nil {
				return describe(err)
			}
		}
		if len(c.charges) > 0 {
			if err := op.PutChargesTables(ctx, c.charges); err != nil {
				return describe(err)
			}
		}
	}
	for _, l := range c.lines {
		if dryRun {
			l += " (dry run: not written)"
		}
		fmt.Fprintln(stdout, l)
	}
	return nil
}
