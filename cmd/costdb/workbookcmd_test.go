package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
)

// realWorkbook writes the workbook of the real MG and PE data (see
// workbooktest.Real), changed by edit, and returns its path.
func realWorkbook(t *testing.T, dir string, edit func(*workbooktest.Workbook)) string {
	t.Helper()
	wb, _, err := workbooktest.Real(testdata + "sinapi-pe-202410")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&wb)
	}
	var buf bytes.Buffer
	if err := workbooktest.Write(&buf, wb); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "SINAPI_Referência_2026_08.xlsx")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeZip(t *testing.T, path string, entries map[string][]byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range entries {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportSinapiWorkbookCommand(t *testing.T) {
	dir := t.TempDir()
	book := realWorkbook(t, dir, nil)
	bookBytes, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	zipped := writeZip(t, filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip"), map[string][]byte{
		"SINAPI_Referência_2026_08.xlsx": bookBytes, "SINAPI_Manutenções_2026_08.xlsx": mustRead(t, manutencoes)})
	db := filepath.Join(dir, "c.db")

	// A dry run reads and counts, and writes nothing (no database file).
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, "--dry-run", zipped)
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SINAPI 08/2026, national workbook " + zipped + " » SINAPI_Referência_2026_08.xlsx: read in ",
		"; regimes nao-desonerado, desonerado\n",
		"  sheet ISD (nao-desonerado): 19 rows\n",
		"  sheet CCD (desonerado): 8 rows\n",
		"  sheet Analítico (structure): 37 rows\n",
		"  sheet ISE (without charges): 19 rows\n", // read since labour charges: the price without charges
		"  sheets not read: Menu, Busca, CSE, Analítico com Custo\n",
		"  MG: 19 resources, 8 compositions (5 with structure)\n",
		"  PE: 19 resources, 8 compositions (5 with structure); 3 of them priced in one regime only\n",
		"dry run: nothing written\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the dry run does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the dry run created the database: %v", err)
	}
	// Not a terminal: plain progress lines.
	for _, want := range []string{"reading " + zipped, "read sheet ISD, up to row ", "read sheet Analítico, up to row "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}

	// The import: an edition per state priced.
	code, out, stderr = cli(t, "import", "sinapi", "--db", db, book)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "imported SINAPI 08/2026: 2 editions (MG, PE), each replacing that state's edition of the month\n") ||
		!strings.Contains(stderr, "writing 2 editions\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
	type ed struct {
		Key                                string
		Resources, Compositions, Structure int
		Regimes                            int
	}
	var got []ed
	for _, e := range editions(t, db) {
		got = append(got, ed{e.Key(), e.Resources, e.Compositions, e.Structures, len(e.Regimes)})
	}
	want := []ed{{"SINAPI/MG/2026-08/", 19, 8, 5, 2}, {"SINAPI/PE/2026-08/", 19, 8, 5, 2}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("editions %+v, want %+v", got, want)
	}

	// --states MG of a workbook where MG no longer lists 34586: MG is
	// replaced, PE stays.
	fewer := realWorkbook(t, t.TempDir(), func(w *workbooktest.Workbook) {
		for i := range w.Insumos {
			if w.Insumos[i].Code == "34586" {
				delete(w.Insumos[i].Prices, "MG")
			}
		}
	})
	if code, out, stderr = cli(t, "import", "sinapi", "--states", "mg", "--db", db, fewer); code != 0 ||
		!strings.Contains(out, "1 edition (MG)") {
		t.Fatalf("--states MG: exit %d\n%s\n%s", code, out, stderr)
	}
	if e := editions(t, db); len(e) != 2 || e[0].Resources != 18 || e[1].Resources != 19 {
		t.Errorf("after --states MG: %+v %+v", *e[0], *e[1])
	}
}

// A workbook that does not match: exit 1, the sheet, row and column named
// (where there is one), the database file unchanged.
func TestImportSinapiWorkbookErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	if code, _, stderr := cli(t, "import", "sinapi", "--db", db, realWorkbook(t, dir, nil)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	good, err := os.ReadFile(filepath.Join(dir, "SINAPI_Referência_2026_08.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		file  func(dir string) string
		flags []string
		code  int
		want  string
	}{
		{"missing sheet", func(d string) string {
			return realWorkbook(t, d, func(w *workbooktest.Workbook) { w.Omit = []string{"CCD"} })
		}, nil, 1, "sheet CCD: the sheet is missing (the workbook has ICD"},
		{"renamed header", func(d string) string {
			return realWorkbook(t, d, func(w *workbooktest.Workbook) {
				w.Rename = map[string]map[string]string{"CSD": {"Descrição": "Nome"}}
			})
		}, nil, 1, "sheet CSD: no header row (Código, Descrição, Unidade) in its first 50 rows"},
		{"text price", func(d string) string {
			return realWorkbook(t, d, func(w *workbooktest.Workbook) { w.Insumos[5].Prices["PE"] = [2]string{"4,5x", "4,5"} })
		}, nil, 1, `sheet ISD row 16 column U: the price of PE "4,5x" is not a number`},
		{"truncated file", func(d string) string {
			p := filepath.Join(d, "SINAPI_Referência_2026_08.xlsx")
			os.WriteFile(p, good[:len(good)-100], 0o644)
			return p
		}, nil, 1, "neither a readable XLSX workbook nor a zip"},
		{"zip without a workbook", func(d string) string {
			return writeZip(t, filepath.Join(d, "SINAPI-2026-08-formato-xlsx.zip"), map[string][]byte{"SINAPI_familias_e_coeficientes_2026_08.xlsx": good})
		}, nil, 1, "the zip holds no SINAPI workbook SINAPI_Referência_AAAA_MM.xlsx (it holds: SINAPI_familias_e_coeficientes_2026_08.xlsx)"},
		{"another month", func(d string) string { return realWorkbook(t, d, nil) }, []string{"--month", "09/2026"}, 1, "the workbook is of 08/2026 (sheet ISD row 3), not of 09/2026"},
		{"a state not priced", func(d string) string { return realWorkbook(t, d, nil) }, []string{"--states", "MG,RJ"}, 1, "no price for the state RJ"},
		{"--state with the workbook", func(d string) string { return realWorkbook(t, d, nil) }, []string{"--state", "MG"}, 1, "choose states with --states"},
		{"the workbook with other files", func(d string) string { return realWorkbook(t, d, nil) }, []string{pe[0]}, 1, "import it alone"},
		{"--states with per-state files", func(string) string { return pe[0] }, []string{"--states", "PE", "--state", "PE", "--month", "10/2024"}, 1, "--states is for the national SINAPI workbook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hashFile(t, db)
			args := append([]string{"import", "sinapi", "--db", db, tc.file(t.TempDir())}, tc.flags...)
			code, out, stderr := cli(t, args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, stderr, tc.code, tc.want)
			}
			if hashFile(t, db) != before {
				t.Error("the database file changed")
			}
		})
	}
}

// --dry-run reads per-state files too, and opens no database.
func TestImportDryRunPerStateFiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, append([]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024", "--dry-run"}, pe...)...)
	if code != 0 || !strings.Contains(out, "  desonerado: 4811 resources, 7737 compositions\n") || !strings.HasSuffix(out, "dry run: nothing written\n") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the dry run created the database: %v", err)
	}
}

// A sheet that does not say how many rows it has: the bar counts rows,
// then ends full at the end of the sheet.
func TestProgressBarWithoutTotal(t *testing.T) {
	var buf bytes.Buffer
	p := &progressBar{w: &buf}
	p.update("ISD", 1024, 0)
	p.update("ISD", 5010, 5010)
	out := buf.String()
	if !strings.HasPrefix(out, "\rISD") || !strings.Contains(out, " 1024 rows\r") || !strings.HasSuffix(out, "[##############################] 100%\n") {
		t.Errorf("output %q", out)
	}
}
