package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// expandPackages replaces each folder or zip among paths by the files of it
// that "costdb import kind" reads, and returns a line per file it leaves
// out and why ("… skipped: a PDF document, not data"). What a file is
// comes from bankfiles.PackageKinds, by its name; a CSV or XLSX file no
// kind names is read when its header is one of bank's. A zip in a folder
// (the per-state zips of a month, downloaded together) is opened as a
// package too; a zip in a zip is not. Other paths stay as they are. A file
// of a kind the import reads that it cannot (an .xls workbook) is an
// error. done removes what was extracted from zips.
func expandPackages(ctx context.Context, kind string, bank bankfiles.Bank, paths []string) (files, skipped []string, done func(), err error) {
	files, skipped, _, done, err = expandPackagesWith(ctx, kind, bank, paths)
	return files, skipped, done, err
}

// expandPackagesWith is expandPackages that also returns the files of the
// packages that the import's companion imports read (bankfiles.IsCompanion:
// a SINAPI package's change log), each with its import.
func expandPackagesWith(ctx context.Context, kind string, bank bankfiles.Bank, paths []string) (files, skipped []string, comp []companionFile, done func(), err error) {
	w := &walker{ctx: ctx, kind: kind, bank: bank}
	done = func() {
		for _, p := range w.pkgs {
			p.Close()
		}
	}
	for _, path := range paths {
		if !bankfiles.IsPackage(path) {
			w.files = append(w.files, path)
			continue
		}
		if err := w.walk(path, true); err != nil {
			done()
			return nil, nil, nil, func() {}, err
		}
	}
	return w.files, w.skipped, w.companions, done, nil
}

// walker gathers the files of packages.
type walker struct {
	ctx            context.Context
	kind           string
	bank           bankfiles.Bank
	pkgs           []*bankfiles.Package
	files, skipped []string
	companions     []companionFile
}

// walk adds the files of the package at path; top is false for a zip in a
// folder.
func (w *walker) walk(path string, top bool) error {
	p, err := bankfiles.OpenPackage(w.ctx, path, w.kind, bankfiles.Limits{})
	if err != nil {
		return err
	}
	w.pkgs = append(w.pkgs, p)
	folder := bankfiles.IsDir(path)
	n, lines := len(w.files), len(w.skipped)
	for _, f := range p.Files {
		skip := ""
		switch ext := strings.ToLower(filepath.Ext(f.Path)); {
		case folder && ext == ".zip":
			if err := w.walk(f.Path, false); err != nil {
				return err
			}
			continue
		case f.Known && f.Kind.Import == w.kind && f.Path == "":
			skip = "not extracted from its zip: import it on its own" // a second national workbook
		case f.Known && f.Kind.Import == w.kind:
			if ext == ".xls" {
				return fmt.Errorf("%s: an Excel 97-2003 workbook (.xls), which costdb does not read: save it as XLSX and import that", f.Name)
			}
		case f.Known && f.Path != "" && bankfiles.IsCompanion(w.kind, f.Kind.Import):
			w.companions = append(w.companions, companionFile{Name: f.Name, Path: f.Path, Import: f.Kind.Import})
			continue
		case f.Known && f.Kind.Import != "":
			skip = fmt.Sprintf("a %s file (%s): import it with costdb import %s", strings.ToUpper(f.Kind.Import), f.Kind.Name, f.Kind.Import)
		case f.Known:
			skip = f.Kind.Skip
		case f.Path == "" || !bankfiles.Readable(f.Path):
			skip = "not a CSV or XLSX file"
		default:
			ok, err := w.bank.Recognises(w.ctx, f.Path, bankfiles.Limits{})
			if err != nil {
				return err
			}
			if !ok {
				skip = fmt.Sprintf("a report costdb does not read (no header of a %s file)", w.bank.Name)
			}
		}
		if skip != "" {
			w.skipped = append(w.skipped, fmt.Sprintf("%s skipped: %s", f.Name, skip))
			continue
		}
		w.files = append(w.files, f.Path)
	}
	switch {
	case len(w.files) > n:
	case !folder && top:
		// A zip with nothing to read: the readers say what is wrong
		// with it (a national zip without its workbook…).
		w.files, w.skipped = append(w.files, path), w.skipped[:lines]
	case !folder:
		w.skipped = append(w.skipped, fmt.Sprintf("%s skipped: no file that costdb import %s reads", path, w.kind))
	case top:
		return fmt.Errorf("%s: no file that costdb import %s reads", path, w.kind)
	}
	return nil
}

// stateMonthFromNames returns the state and month every file's name
// states, when they all state the same month and, unless several is true,
// the same state; the state is "all" when they state several. ok is false
// when a name states neither, or the names disagree.
func stateMonthFromNames(files []string, several bool) (state, month string, ok bool) {
	said := make([][2]string, len(files))
	for i, f := range files {
		said[i][0], said[i][1] = bankfiles.NameSays(f)
	}
	return agree(said, several)
}

// stateMonthFromTitles is stateMonthFromNames from the files' title rows.
func stateMonthFromTitles(ctx context.Context, bank bankfiles.Bank, files []string, several bool) (state, month string, ok bool, err error) {
	said := make([][2]string, len(files))
	for i, f := range files {
		t, err := bank.TitleSays(ctx, f, bankfiles.Limits{})
		if err != nil {
			return "", "", false, err
		}
		said[i] = [2]string{t.State, t.Month}
	}
	state, month, ok = agree(said, several)
	return state, month, ok, nil
}

// agree returns the state and month that every pair says (the state "all"
// when several states are allowed and said).
func agree(said [][2]string, several bool) (state, month string, ok bool) {
	for _, sm := range said {
		s, m := sm[0], sm[1]
		switch {
		case s == "" || m == "" || month != "" && m != month:
			return "", "", false
		case state != "" && s != state && !several:
			return "", "", false
		case state != "" && s != state:
			s = "all"
		}
		if state != "all" {
			state = s
		}
		month = m
	}
	return state, month, state != ""
}
