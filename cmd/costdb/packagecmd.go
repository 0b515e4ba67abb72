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
// out and why ("… skipped: a PDF document, not data"). What a file
// is comes from bankfiles.PackageKinds, by its name; a CSV or XLSX file no
// kind names is read when its header is one of bank's. Other paths stay as
// they are. A file of a kind the import reads that it cannot (an .xls
// workbook) is an error. done removes what was extracted from zips.
func expandPackages(ctx context.Context, kind string, bank bankfiles.Bank, paths []string) (files, skipped []string, done func(), err error) {
	var pkgs []*bankfiles.Package
	done = func() {
		for _, p := range pkgs {
			p.Close()
		}
	}
	defer func() {
		if err != nil {
			done()
		}
	}()
	for _, path := range paths {
		if !bankfiles.IsPackage(path) {
			files = append(files, path)
			continue
		}
		p, err := bankfiles.OpenPackage(ctx, path, bankfiles.Limits{})
		if err != nil {
			return nil, nil, done, err
		}
		pkgs = append(pkgs, p)
		n, lines := len(files), len(skipped)
		for _, f := range p.Files {
			skip := ""
			switch ext := strings.ToLower(filepath.Ext(f.Path)); {
			case f.Known && f.Kind.Import == kind:
				if ext == ".xls" {
					return nil, nil, done, fmt.Errorf("%s: an Excel 97-2003 workbook (.xls), which costdb does not read: save it as XLSX and import that", f.Name)
				}
			case f.Known && f.Kind.Import != "":
				skip = fmt.Sprintf("a %s file (%s): import it with costdb import %s", strings.ToUpper(f.Kind.Import), f.Kind.Name, f.Kind.Import)
			case f.Known:
				skip = f.Kind.Skip
			case f.Path == "" || !bankfiles.Readable(f.Path):
				skip = "not a CSV or XLSX file"
			default:
				ok, err := bank.Recognises(ctx, f.Path, bankfiles.Limits{})
				if err != nil {
					return nil, nil, done, err
				}
				if !ok {
					skip = fmt.Sprintf("a report costdb does not read (no header of a %s file)", bank.Name)
				}
			}
			if skip != "" {
				skipped = append(skipped, fmt.Sprintf("%s skipped: %s", f.Name, skip))
				continue
			}
			files = append(files, f.Path)
		}
		if len(files) == n && !bankfiles.IsDir(path) {
			// A zip with nothing to read: the readers say what is wrong
			// with it (a national zip without its workbook…).
			files, skipped = append(files, path), skipped[:lines]
		} else if len(files) == n {
			return nil, nil, done, fmt.Errorf("%s: no file that costdb import %s reads", path, kind)
		}
	}
	return files, skipped, done, nil
}

// stateMonthFromNames returns the state and month every file's name
// states, when they all state the same month and, unless several is true,
// the same state; the state is "all" when they state several. ok is false
// when a name states neither, or the names disagree.
func stateMonthFromNames(files []string, several bool) (state, month string, ok bool) {
	for _, f := range files {
		s, m := bankfiles.NameSays(f)
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
