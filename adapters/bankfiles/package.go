package bankfiles

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file reads a package as a publisher distributes it — a folder, or a
// zip: Caixa's national zip (2025 onwards), its per-state zips up to 2024
// (SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip), DNIT's SICRO
// package of a state and month — and tells, file by file, which import
// reads it and why the others are left out. What a file is comes from one
// table, PackageKinds: a new kind of file is one line there.

// FileKind is one kind of file a package may hold.
type FileKind struct {
	// Name says what the file is ("SINAPI change log (manutenções)").
	Name string
	// Words must all be in the file's name, compared as PackageName
	// normalises it (accents removed, upper case, "_", "-" and "." as
	// spaces): "PRECO REF INSUMOS".
	Words []string
	// Not must none be in the name.
	Not []string
	// Exts, when not empty, are the extensions the kind has (".pdf").
	Exts []string
	// Import is the import that reads the file ("sinapi", "sicro"), or ""
	// when costdb reads none of its kind.
	Import string
	// Skip says why a file of a kind no import reads is left out, and
	// how to import it if another command does.
	Skip string
}

// The imports that read files of a package, as FileKind.Import names them:
// the subcommands of costdb import.
const (
	ImportSinapi = "sinapi"
	ImportSicro  = "sicro"
)

// ImportSinapiChanges is the import of Caixa's change log (manutenções).
const ImportSinapiChanges = "sinapi-changes"

// companions are, per import, the imports of the other files of its
// packages that it runs too: a SINAPI package's change log, a SICRO
// package's labour charges tables.
var companions = map[string][]string{
	ImportSinapi: {ImportSinapiChanges, ImportSinapiCharges},
	ImportSicro:  {ImportSicroCharges},
}

// IsCompanion reports whether a package imported with importing also
// imports its files of the import kind (a SINAPI package's change log).
func IsCompanion(importing, kind string) bool {
	for _, k := range companions[importing] {
		if k == kind {
			return true
		}
	}
	return false
}

// PackageKinds are the kinds of file of the official packages, tried in
// order: the first whose Words, Not and Exts fit a file's name is its kind.
// A file no kind fits is told by its content (Bank.Recognises) when it is
// a CSV or XLSX file, and left out otherwise.
var PackageKinds = []FileKind{
	{Name: "PDF document", Exts: []string{".pdf"}, Skip: "a PDF document, not data"},
	{Name: "document", Exts: []string{".doc", ".docx", ".odt", ".txt", ".htm", ".html", ".png", ".jpg", ".jpeg"}, Skip: "a document, not data"},
	{Name: "zip inside a zip", Exts: []string{".zip"}, Skip: "a zip inside a zip: import it on its own"},
	{Name: "SINAPI change log (manutenções)", Words: []string{"MANUTENC"}, Import: ImportSinapiChanges},
	{Name: "SINAPI families and coefficients", Words: []string{"FAMILIA"}, Skip: "families of resources and coefficients of representativeness, not read"},
	{Name: "SINAPI labour breakdown", Words: []string{"SINAPI", "MAO DE OBRA"}, Not: []string{"REFERENCIA"}, Skip: "the labour breakdown workbook (mão de obra), not read"},
	{Name: "SICRO labour charges (encargos sociais)", Words: []string{"ENCARGOS SOCIAIS"}, Not: []string{"SINAPI"}, Import: ImportSicroCharges},
	{Name: "SINAPI labour charges (encargos sociais)", Words: []string{"ENCARGOS SOCIAIS"}, Exts: []string{".xlsx", ".csv"}, Import: ImportSinapiCharges},
	{Name: "prices without labour charges", Words: []string{"SEM ENCARGOS"}, Skip: "prices without labour charges (sem encargos), which no edition holds"},
	{Name: "prices without labour charges", Words: []string{"SEMENCARGOS"}, Skip: "prices without labour charges (sem encargos), which no edition holds"},
	{Name: "origin of prices", Words: []string{"ORIGEM DE PRECO"}, Skip: "a report of the origin of prices, not read"},
	{Name: "SINAPI national workbook", Words: []string{"SINAPI", "REFER", "NCIA"}, Exts: []string{".xlsx"}, Import: ImportSinapi},
	{Name: "SINAPI insumos", Words: []string{"PRECO REF INSUMOS"}, Import: ImportSinapi},
	{Name: "SINAPI composições (sintético)", Words: []string{"CUSTO REF COMPOSICOES SINTETICO"}, Import: ImportSinapi},
	{Name: "SINAPI composições (analítico)", Words: []string{"CUSTO REF COMPOSICOES ANALITICO"}, Import: ImportSinapi},
	{Name: "SICRO analytic report", Words: []string{"RELATORIO ANALITICO"}, Skip: "an analytic report, not read (the synthetic reports are)"},
	{Name: "SICRO compositions", Words: []string{"SINTETICO", "COMPOSICOES DE CUSTOS"}, Import: ImportSicro},
	{Name: "SICRO equipment", Words: []string{"SINTETICO", "EQUIPAMENTOS"}, Import: ImportSicro},
	{Name: "SICRO labour", Words: []string{"SINTETICO", "MAO DE OBRA"}, Import: ImportSicro},
	{Name: "SICRO materials", Words: []string{"SINTETICO", "MATERIAIS"}, Import: ImportSicro},
}

// readable are the extensions of the files the importers read.
var readable = map[string]bool{".csv": true, ".xlsx": true}

// Readable reports whether name has the extension of a file the importers
// read (CSV, XLSX).
func Readable(name string) bool { return readable[strings.ToLower(filepath.Ext(name))] }

// PackageName normalises a file name for FileKind.Words: its base name,
// accents removed, upper case, "_", "-" and "." as spaces, runs of spaces
// as one. "SINAPI_Manutenções_2025_12.xlsx" is "SINAPI MANUTENCOES 2025 12
// XLSX".
func PackageName(name string) string {
	base := filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	return NormalizeName(strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(base))
}

// Classify returns the kind of the file name: ok is false when no kind of
// PackageKinds fits it.
func Classify(name string) (k FileKind, ok bool) {
	n := " " + PackageName(name) + " "
	ext := strings.ToLower(filepath.Ext(name))
	for _, k := range PackageKinds {
		if k.fits(n, ext) {
			return k, true
		}
	}
	return FileKind{}, false
}

func (k FileKind) fits(n, ext string) bool {
	if len(k.Exts) > 0 {
		found := false
		for _, e := range k.Exts {
			found = found || e == ext
		}
		if !found {
			return false
		}
	}
	for _, w := range k.Words {
		if !strings.Contains(n, w) {
			return false
		}
	}
	for _, w := range k.Not {
		if strings.Contains(n, w) {
			return false
		}
	}
	return true
}

// PackageFile is one file of a package.
type PackageFile struct {
	// Name is the file as the package names it: its path in the folder,
	// or "package.zip » entry".
	Name string
	// Path is where the file is on disk (a zip's entry is extracted; the
	// national workbook stays in its zip: Path is the zip).
	Path string
	// Kind is the kind the name tells, if Known.
	Kind  FileKind
	Known bool
}

// Package is the files of a folder or a zip.
type Package struct {
	Files []PackageFile
	temp  string
}

// Close removes the files extracted from a zip.
func (p *Package) Close() error {
	if p.temp == "" {
		return nil
	}
	return os.RemoveAll(p.temp)
}

// IsDir reports whether path is a folder.
func IsDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// IsPackage reports whether path is a folder or a zip (by its extension: an
// XLSX workbook is a zip too).
func IsPackage(path string) bool {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return true
	}
	return strings.EqualFold(filepath.Ext(path), ".zip")
}

// OpenPackage lists the files of a folder (in name order; hidden files and
// Excel's lock files ~$… left out; a subfolder is listed, not opened) or
// of a zip. A zip is checked within the caps l first; the entries the
// import named importing may read (a kind whose Import it is, or an unknown
// CSV or XLSX) are extracted to a temporary folder, within the same caps,
// under their own names, which the importers check; the others are listed
// with no Path. Caixa's national zip is left whole for the SINAPI import:
// the workbook reader takes its workbook from it. Close removes what was
// extracted.
func OpenPackage(ctx context.Context, path, importing string, l Limits) (*Package, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, badFile(path, 0, "%v", err)
	}
	if st.IsDir() {
		return openFolder(path)
	}
	return openZip(ctx, path, importing, l.withDefaults())
}

func openFolder(dir string) (*Package, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &Package{}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~$"):
		case e.IsDir():
			p.Files = append(p.Files, PackageFile{Name: path, Known: true,
				Kind: FileKind{Name: "folder", Skip: "a folder inside the package: give it on its own"}})
		case e.Type().IsRegular():
			k, ok := Classify(name)
			p.Files = append(p.Files, PackageFile{Name: path, Path: path, Kind: k, Known: ok})
		}
	}
	if len(p.Files) == 0 {
		return nil, fmt.Errorf("%s: the directory holds no file", dir)
	}
	return p, nil
}

func openZip(ctx context.Context, path, importing string, l Limits) (*Package, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, badFile(path, 0, "not a readable zip (%v): is the download complete?", err)
	}
	defer zr.Close()
	if err := checkZipEntries(path, &zr.Reader, l); err != nil {
		return nil, err
	}
	files := append([]*zip.File(nil), zr.File...)
	sort.SliceStable(files, func(i, j int) bool { return zipName(files[i]) < zipName(files[j]) })
	national := false
	for _, f := range files {
		if workbookPattern.MatchString(filepath.Base(zipName(f))) {
			national = true
		}
	}
	p := &Package{}
	var total int64
	seen := map[string]bool{}
	for _, f := range files {
		name := zipName(f)
		base := filepath.Base(strings.ReplaceAll(name, "\\", "/"))
		if f.FileInfo().IsDir() || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "~$") || strings.HasPrefix(name, "__MACOSX/") {
			continue
		}
		k, ok := Classify(base)
		pf := PackageFile{Name: path + " » " + name, Kind: k, Known: ok}
		unknown := !ok && readable[strings.ToLower(filepath.Ext(base))]
		switch {
		case national && importing == ImportSinapi && workbookPattern.MatchString(base):
			pf.Path = path // the workbook reader takes it from the zip
		case national && unknown:
			// Caixa's national zip: a workbook no kind names is a
			// companion, not a report of a state.
			pf.Known, pf.Kind = true, FileKind{Name: "companion workbook", Skip: "a companion of the national workbook that costdb does not read"}
		case ok && (k.Import == importing || IsCompanion(importing, k.Import)) || unknown:
			if seen[base] {
				p.Close()
				return nil, badFile(path, 0, "two entries are named %s", base)
			}
			seen[base] = true
			if p.temp == "" { // named after the zip, which messages then name
				if p.temp, err = os.MkdirTemp("", "costdb-package-*"); err != nil {
					return nil, err
				}
				if err = os.Mkdir(filepath.Join(p.temp, filepath.Base(path)), 0o700); err != nil {
					p.Close()
					return nil, err
				}
			}
			pf.Path = filepath.Join(p.temp, filepath.Base(path), base)
			if err := extractTo(ctx, path, f, l, &total, pf.Path); err != nil {
				p.Close()
				var le *LimitError
				if errors.As(err, &le) || ctx.Err() != nil {
					return nil, err
				}
				return nil, badFile(path, 0, "%s: %v", name, err)
			}
		}
		p.Files = append(p.Files, pf)
	}
	if len(p.Files) == 0 {
		return nil, badFile(path, 0, "the zip holds no file")
	}
	return p, nil
}

// extractTo copies zip entry f to the file at dst, within the caps l, total
// counting the bytes of the zip read so far.
func extractTo(ctx context.Context, zipPath string, f *zip.File, l Limits, total *int64, dst string) error {
	rc, err := openEntry(ctx, zipPath, f, l, total)
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Recognises reports whether one of the bank's formats knows the header of
// the CSV or XLSX file at path: for a file of a package whose name tells
// no kind. A file that is not one a reader can open is not recognised; one
// over a cap of l is an error.
func (b Bank) Recognises(ctx context.Context, path string, l Limits) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return false, badFile(path, 0, "%v", err)
	}
	f, _, err := newFile(ctx, path, fh, st.Size(), b.Formats, l.withDefaults())
	var le *LimitError
	switch {
	case err == nil:
		f.src.close()
		return true, nil
	case errors.As(err, &le) || ctx.Err() != nil:
		return false, err
	}
	return false, nil
}

// NameSays returns the state (UF) and month (MM/YYYY) a bank file's name
// states ("…_PE_202410_…", "AL 01-2024 Relatório…"), each "" when it
// states none.
func NameSays(path string) (state, month string) {
	w := readName(path)
	return w.State, w.Month
}
