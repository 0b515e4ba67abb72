package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// verifyUsage is the synopsis of the verify command.
const verifyUsage = `usage: costdb verify [--json] VERSION.json --files DIR
VERSION.json is a frozen version as GET /api/public/v2/budgets/{id}/versions/{n}/content
answers it; DIR holds the official files its editions were imported from (in any
subfolder). Each edition is read afresh from its files, offline, and the version's
records and figures are recomputed from them: OK, or every file missing or changed
and every figure that differs, and why. Exit status 0 when OK, 1 when not.`

// errNotVerified is the error of a version that does not match its files.
var errNotVerified = errors.New("the version does not match the files")

// runVerify runs "costdb verify".
func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("costdb verify", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprintln(stderr, verifyUsage); fl.PrintDefaults() }
	dir := fl.String("files", "", "directory holding the official files of the version's editions (required)")
	asJSON := fl.Bool("json", false, "print the check as JSON")
	// The version may come before or after the flags.
	var pos []string
	for rest := args; ; {
		if err := fl.Parse(rest); err != nil {
			return errUsage
		}
		if fl.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fl.Arg(0)), fl.Args()[1:]
	}
	if len(pos) != 1 || *dir == "" {
		fl.Usage()
		return errUsage
	}
	content, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	var vc domain.VersionContent
	if err := json.Unmarshal(content, &vc); err != nil || vc.Budget == nil || vc.Prices == nil {
		return fmt.Errorf("%s is not a frozen version's content (GET …/versions/{n}/content)", pos[0])
	}
	found, err := indexFiles(*dir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "costdb-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	st, err := boltstore.Open(filepath.Join(tmp, "verify.db"), boltstore.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	svc := app.New(st, nil, app.Config{})
	problems, err := readEditions(ctx, svc, &vc, found)
	if err != nil {
		return err
	}
	check, err := svc.CheckVersionContent(ctx, content)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		check.OK = false
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			*domain.VersionCheck
			Problems []string `json:"problems"`
		}{check, append([]string{}, problems...)}); err != nil {
			return err
		}
	} else {
		printCheck(stdout, pos[0], vc.Budget, check, problems)
	}
	if !check.OK {
		return errNotVerified
	}
	return nil
}

// indexFiles maps each file's base name under dir to its path; a name
// found twice is an error (which file was meant?).
func indexFiles(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if prev, dup := out[d.Name()]; dup {
			return fmt.Errorf("%s and %s have the same name: keep one", prev, path)
		}
		out[d.Name()] = path
		return nil
	})
	return out, err
}

// readEditions imports into svc, for each edition the version read, the
// files recorded at its freeze that are found (a missing one is the
// check's verdict). It returns what kept an edition from being read.
func readEditions(ctx context.Context, svc *app.Service, vc *domain.VersionContent, found map[string]string) ([]string, error) {
	recorded := map[string][]domain.SourceFile{}
	for _, s := range vc.Sources {
		recorded[s.Edition] = s.Files
	}
	var problems []string
	for _, key := range vc.Prices.EditionKeys() {
		ref, ok := domain.EditionRefOfKey(key)
		if !ok {
			return nil, fmt.Errorf("the version names an edition key %q that is not one", key)
		}
		var bank bankfiles.Bank
		switch ref.Name {
		case "SINAPI":
			bank = bankfiles.OfficialSinapi()
		case "SICRO3":
			bank = bankfiles.OfficialSicro()
		default:
			problems = append(problems, fmt.Sprintf("%s: files of bank %s cannot be read offline (imported with a mapping); only their hashes are compared", ref.Label(), ref.Name))
			continue
		}
		if len(recorded[key]) == 0 {
			continue // the check names the edition unverifiable
		}
		im, err := bankfiles.NewImporter(bank, ref.State, ref.Month)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, f := range recorded[key] {
			path, ok := found[f.Name]
			if !ok {
				continue
			}
			if ref.Name == "SINAPI" {
				// The national workbook (or Caixa's zip of it) is read
				// for the edition's state alone.
				ed, err := readWorkbookState(ctx, path, ref)
				if err == nil {
					if _, err := svc.ImportEditions(ctx, []app.EditionData{ed}); err != nil {
						problems = append(problems, fmt.Sprintf("%s: %v", ref.Label(), err))
					}
					continue
				}
				if !errors.Is(err, bankfiles.ErrNotWorkbook) {
					problems = append(problems, fmt.Sprintf("%s: %s cannot be read: %v", ref.Label(), f.Name, err))
					continue
				}
			}
			if _, err := im.AddFile(ctx, path); err != nil {
				problems = append(problems, fmt.Sprintf("%s: %s cannot be read: %v", ref.Label(), f.Name, err))
				continue
			}
			n++
		}
		if n == 0 {
			continue
		}
		eds, err := im.Editions()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", ref.Label(), err))
			continue
		}
		data := make([]app.EditionData, len(eds))
		for i, e := range eds {
			data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
		}
		if _, err := svc.ImportEditions(ctx, data); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", ref.Label(), err))
		}
	}
	return problems, nil
}

// printCheck writes a check for a person.
func printCheck(w io.Writer, name string, b *domain.Budget, c *domain.VersionCheck, problems []string) {
	fmt.Fprintf(w, "%s: budget %s, SHA-256 %s\n", name, b.Code, c.Hash)
	files := append([]domain.FileCheck(nil), c.Files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Edition < files[j].Edition })
	for _, f := range files {
		switch f.Verdict {
		case domain.FileChanged:
			fmt.Fprintf(w, "  %-12s %s (%s): recorded %d bytes, SHA-256 %s; found %d bytes, SHA-256 %s\n", f.Verdict, f.Name, f.Edition,
				f.Recorded.Size, f.Recorded.SHA256, f.Found.Size, f.Found.SHA256)
		default:
			fmt.Fprintf(w, "  %-12s %s (%s)\n", f.Verdict, f.Name, f.Edition)
		}
	}
	for _, e := range c.Unverifiable {
		fmt.Fprintf(w, "  %s: the version records no files of this edition (frozen before imports recorded them, or imported from the demo's data)\n", e)
	}
	for _, p := range problems {
		fmt.Fprintf(w, "  %s\n", p)
	}
	fmt.Fprintf(w, "%d bank records compared; total with BDI frozen %s, recomputed %s\n", c.Records,
		c.Frozen.TotalWithBDI.StringFixed(2), c.Recomputed.TotalWithBDI.StringFixed(2))
	for _, d := range c.Differences {
		where := d.Edition
		switch {
		case d.Line != "":
			where = "line " + d.Line + " (" + d.Code + ")"
		case d.Code != "":
			where += " code " + d.Code
		case where == "":
			where = "budget"
		}
		fmt.Fprintf(w, "  DIFFERS %s: %s frozen %s, found %s: %s\n", where, d.Figure, d.Frozen, d.Found, d.Why)
	}
	if c.OK {
		fmt.Fprintln(w, "OK: every file found unchanged and every figure recomputed as frozen")
	} else {
		fmt.Fprintf(w, "NOT OK: %d differences, %d files missing or changed\n", len(c.Differences), changedFiles(c))
	}
}

func changedFiles(c *domain.VersionCheck) int {
	n := 0
	for _, f := range c.Files {
		if f.Verdict == domain.FileMissing || f.Verdict == domain.FileChanged {
			n++
		}
	}
	return n
}

// readWorkbookState reads the edition of ref's state from the national
// SINAPI workbook at path; bankfiles.ErrNotWorkbook when it is not one.
func readWorkbookState(ctx context.Context, path string, ref domain.BankRef) (app.EditionData, error) {
	wf, err := bankfiles.OpenSinapiWorkbookWith(ctx, path, bankfiles.Limits{})
	if err != nil {
		return app.EditionData{}, err
	}
	defer wf.Close()
	wb, err := wf.Read(ctx, bankfiles.WorkbookOptions{States: []string{ref.State}, Month: ref.Month})
	if err != nil {
		return app.EditionData{}, err
	}
	e, _ := wb.Edition(0)
	return app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions, Replace: true}, nil
}
