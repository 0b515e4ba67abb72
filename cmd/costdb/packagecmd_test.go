package main

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// placeholderPDF stands for a PDF of a package: skipped by its name, never
// read.
var placeholderPDF = []byte("%PDF-1.4\n%%EOF\n")

func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sicroPackage is DNIT's SICRO AL 01/2024 package as a folder: the six
// real synthetic reports and the two real encargos reports under the names
// DNIT publishes, a PDF of each, the analytic report's PDF.
func sicroPackage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	names := map[string]string{
		"Composicoes_de_Custos":        "Composições de Custos",
		"Equipamentos_com_desoneracao": "Equipamentos com desoneração",
		"Equipamentos_sem_desoneracao": "Equipamentos",
		"Mao_de_Obra_com_desoneracao":  "Mão de Obra com desoneração",
		"Mao_de_Obra_sem_desoneracao":  "Mão de Obra",
		"Materiais":                    "Materiais",
	}
	for _, f := range al {
		part := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "SICRO_AL_202401_Relatorio_Sintetico_"), ".xlsx")
		name := "AL 01-2024 Relatório Sintético de " + names[part]
		copyTo(t, f, filepath.Join(dir, name+".xlsx"))
		if err := os.WriteFile(filepath.Join(dir, name+".pdf"), placeholderPDF, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	companions, _ := filepath.Glob(testdata + "sicro-al-202401-package/*.xlsx")
	if len(companions) != 2 {
		t.Fatalf("%d encargos reports in testdata, want 2", len(companions))
	}
	for _, f := range companions {
		copyTo(t, f, filepath.Join(dir, filepath.Base(f)))
	}
	if err := os.WriteFile(filepath.Join(dir, "AL 01-2024 Relatório Analítico de Composições de Custos.pdf"), placeholderPDF, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A whole SICRO package folder imports what costdb reads — the same
// edition as its six reports given one by one — and lists every other
// file as skipped, with why; its names and titles give the state and
// month.
func TestImportSicroPackageFolder(t *testing.T) {
	dir := sicroPackage(t)
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sicro", "--db", db, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SICRO3 AL 01/2024: 6 files read in ",
		"edition SICRO3 AL 01/2024 now: 2196 resources, 6368 compositions",
		"Relatório Sintético de Materiais.pdf skipped: a PDF document, not data\n",
		"Relatório Analítico de Composições de Custos.pdf skipped: a PDF document, not data\n",
		// The package's encargos tables are imported with it.
		"Relat_rio Sint_tico de Encargos Sociais.xlsx: SICRO3 AL 01/2024 nao-desonerado labour charges, 101 labour codes\n",
		"Relat_rio Sint_tico de Encargos Sociais - com desonera__o.xlsx: SICRO3 AL 01/2024 desonerado labour charges, 101 labour codes\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, " skipped: "); n != 7 {
		t.Errorf("%d files skipped, want 7 (the PDFs):\n%s", n, out)
	}
	if tabs := chargesTables(t, db); len(tabs) != 2 {
		t.Errorf("the package's import stored %d labour charges tables, want 2", len(tabs))
	}

	// The same edition as the reports given one by one.
	one := filepath.Join(t.TempDir(), "one.db")
	if code, _, stderr := cli(t, append([]string{"import", "sicro", "--db", one, "--state", "AL", "--month", "01/2024"}, al...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, b := editions(t, db), editions(t, one)
	if len(a) != 1 || len(b) != 1 || a[0].Resources != b[0].Resources || a[0].Compositions != b[0].Compositions || a[0].Key() != b[0].Key() {
		t.Errorf("package edition %+v, reports one by one %+v", a, b)
	}

	// A report of the folder renamed to another state, month or regime:
	// refused naming both values, nothing written.
	before := hashFile(t, db)
	for _, tc := range []struct{ from, to, want string }{
		{"AL 01-2024 Relatório Sintético de Materiais.xlsx", "PE 01-2024 Relatório Sintético de Materiais.xlsx",
			"the file says state AL (ALAGOAS), the file name says PE"},
		{"AL 01-2024 Relatório Sintético de Materiais.xlsx", "AL 02-2024 Relatório Sintético de Materiais.xlsx",
			"the file says month 01/2024, the file name says 02/2024"},
		{"AL 01-2024 Relatório Sintético de Mão de Obra com desoneração.xlsx", "AL 01-2024 Relatório Sintético de Mão de Obra sem desoneração.xlsx",
			"the file says desonerado, the file name says nao-desonerado"},
	} {
		bad := sicroPackage(t)
		if err := os.Rename(filepath.Join(bad, tc.from), filepath.Join(bad, tc.to)); err != nil {
			t.Fatal(err)
		}
		if tc.to == "AL 01-2024 Relatório Sintético de Mão de Obra sem desoneração.xlsx" { // the real one goes
			os.Remove(filepath.Join(bad, "AL 01-2024 Relatório Sintético de Mão de Obra.xlsx"))
		}
		code, out, stderr := cli(t, "import", "sicro", "--db", db, "--state", "AL", "--month", "01/2024", bad)
		if code != 1 || !strings.Contains(stderr, tc.to) || !strings.Contains(stderr, tc.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", tc.to, code, out, stderr, tc.want)
		}
		if hashFile(t, db) != before {
			t.Errorf("%s: the database file changed", tc.to)
		}
	}
}

// csvToXLSX writes one of Caixa's ";" CSV reports as the XLSX it was
// converted from: the title rows on top, the cells as text.
func csvToXLSX(t *testing.T, path string, title ...string) []byte {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(mustRead(t, path)))
	r.Comma, r.FieldsPerRecord = ';', -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	row := 1
	add := func(cells []string) {
		vals := make([]any, len(cells))
		for i, c := range cells {
			vals[i] = c
		}
		cell, _ := excelize.CoordinatesToCellName(1, row)
		if err := sw.SetRow(cell, vals); err != nil {
			t.Fatal(err)
		}
		row++
	}
	for _, s := range title {
		add([]string{s})
	}
	for _, rec := range recs {
		add(rec)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The per-state zip Caixa published up to 2024
// (SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip: the month's
// reports as XLSX with their PDFs, the families report and Caixa's notes)
// imports without flags: its names and titles give the state, month and
// regime.
func TestImportSinapiStateZip(t *testing.T) {
	title := []string{"SISTEMA NACIONAL DE PESQUISA DE CUSTOS E ÍNDICES DA CONSTRUÇÃO CIVIL", "PREÇOS DE INSUMOS",
		"MÊS DE COLETA: 10/2024", "LOCALIDADE: 26 - RECIFE", "ENCARGOS SOCIAIS: DESONERADO", ""}
	dir := t.TempDir()
	zipped := writeZip(t, filepath.Join(dir, "SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip"), map[string][]byte{
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx":               csvToXLSX(t, pe[0], title...),
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.xlsx": csvToXLSX(t, pe[1], title...),
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.pdf":                placeholderPDF,
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.pdf":  placeholderPDF,
		"SINAPI_Custo_Ref_Composicoes_Analitico_PE_202410_Desonerado.pdf":  placeholderPDF,
		"_SINAPI_Relatório_Família_de_Insumos_2024_10.xlsx":                []byte("not read"),
		"Notas_SINAPI.pdf": placeholderPDF,
	})
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, zipped)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SINAPI PE 10/2024: 2 files read in ",
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx: SINAPI insumos, desonerado, 4811 rows\n",
		"  desonerado: 4811 resources, 7737 compositions\n",
		"SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip » Notas_SINAPI.pdf skipped: a PDF document, not data\n",
		"» _SINAPI_Relatório_Família_de_Insumos_2024_10.xlsx skipped: families of resources",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, " skipped: "); n != 5 {
		t.Errorf("%d files skipped, want 5:\n%s", n, out)
	}
	if eds := editions(t, db); len(eds) != 1 || eds[0].Key() != "SINAPI/PE/2024-10/" || eds[0].Resources != 4811 {
		t.Errorf("editions = %+v", eds)
	}

	// A folder of the month's per-state zips, as downloaded: each opened,
	// the states told by the names (--state all).
	folder := t.TempDir()
	copyTo(t, zipped, filepath.Join(folder, filepath.Base(zipped)))
	salvador := append([]string(nil), title...)
	salvador[3] = "LOCALIDADE: 29 - SALVADOR"
	writeZip(t, filepath.Join(folder, "SINAPI_ref_Insumos_Composicoes_BA_202410_Desonerado.zip"), map[string][]byte{
		"SINAPI_Preco_Ref_Insumos_BA_202410_Desonerado.xlsx": csvToXLSX(t, pe[0], salvador...),
		"SINAPI_Preco_Ref_Insumos_BA_202410_Desonerado.pdf":  placeholderPDF,
	})
	two := filepath.Join(t.TempDir(), "two.db")
	code, out, stderr = cli(t, "import", "sinapi", "--db", two, folder)
	if code != 0 {
		t.Fatalf("a folder of zips: exit %d: %s", code, stderr)
	}
	if eds := editions(t, two); len(eds) != 2 || eds[0].Key() != "SINAPI/BA/2024-10/" || eds[1].Key() != "SINAPI/PE/2024-10/" {
		t.Errorf("editions = %+v", eds)
	}
	if n := strings.Count(out, " skipped: "); n != 6 {
		t.Errorf("%d files skipped, want 6:\n%s", n, out)
	}

	// The same zip with an entry whose titles say Belém: refused, nothing
	// written.
	before := hashFile(t, db)
	belem := append([]string(nil), title...)
	belem[3] = "LOCALIDADE: 15 - BELEM"
	bad := writeZip(t, filepath.Join(t.TempDir(), filepath.Base(zipped)), map[string][]byte{
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx": csvToXLSX(t, pe[0], belem...),
		"Notas_SINAPI.pdf": placeholderPDF,
	})
	code, out, stderr = cli(t, "import", "sinapi", "--db", db, bad)
	if code != 1 || !strings.Contains(stderr, "the file says state PA (BELEM), the file name says PE") || out != "" {
		t.Errorf("Belém's prices: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if hashFile(t, db) != before {
		t.Error("the database file changed")
	}
}

// A package zip is checked within the caps before anything is extracted:
// an entry that inflates over the ratio cap is refused.
func TestImportPackageZipCaps(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, 4<<20)) // 4 MiB of zeros: about 1000 to 1
	if _, err := zw.Create("Notas_SINAPI.pdf"); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := cli(t, "import", "sinapi", "--db", filepath.Join(t.TempDir(), "c.db"), path)
	if code != 1 || !strings.Contains(stderr, "over the cap on the compression ratio") || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Caixa's national zip as published: the workbook and the change log
// (manutenções, the real cut) are imported, the other companion workbooks
// listed as skipped. A change log that cannot be read stops the import
// before anything is written.
func TestImportNationalZipCompanions(t *testing.T) {
	dir := t.TempDir()
	book := realWorkbook(t, dir, nil)
	files := map[string][]byte{
		"SINAPI_Referência_2026_08.xlsx":              mustRead(t, book),
		"SINAPI_Manutenções_2026_08.xlsx":             mustRead(t, manutencoes),
		"SINAPI_familias_e_coeficientes_2026_08.xlsx": []byte("not read"),
		"SINAPI_mao_de_obra_2026_08.xlsx":             []byte("not read"),
	}
	zipped := writeZip(t, filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip"), files)
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, "--dry-run", zipped)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"» SINAPI_Manutenções_2026_08.xlsx: SINAPI change log of 12/2025, 31 changes over 3 months (dry run: not written)\n",
		"» SINAPI_familias_e_coeficientes_2026_08.xlsx skipped: families of resources",
		"» SINAPI_mao_de_obra_2026_08.xlsx skipped: the labour breakdown workbook (mão de obra), not read\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	code, out, stderr = cli(t, "import", "sinapi", "--db", db, zipped)
	if code != 0 || !strings.Contains(out, "SINAPI change log of 12/2025, 31 changes over 3 months\n") {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	if got := changes(t, db, "12/2025"); len(got) != 20 {
		t.Errorf("the package's change log of 12/2025: %d changes, want 20", len(got))
	}
	if eds := editions(t, db); len(eds) == 0 {
		t.Error("the package's editions were not written")
	}

	// A change log that is not one: nothing written, not even the editions.
	files["SINAPI_Manutenções_2026_08.xlsx"] = mustRead(t, book)
	bad := writeZip(t, filepath.Join(t.TempDir(), "SINAPI-2026-08-formato-xlsx.zip"), files)
	fresh := filepath.Join(t.TempDir(), "f.db")
	code, _, stderr = cli(t, "import", "sinapi", "--db", fresh, bad)
	if code == 0 || !strings.Contains(stderr, "not a SINAPI manutenções workbook") {
		t.Errorf("a bad change log in the package: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(fresh); err == nil {
		if eds := editions(t, fresh); len(eds) != 0 {
			t.Errorf("a package with a bad change log wrote %d editions", len(eds))
		}
	}
}

func TestStateMonthFromNames(t *testing.T) {
	for _, tc := range []struct {
		files        []string
		several      bool
		state, month string
		ok           bool
	}{
		{[]string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", "x/SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.xlsx"}, true, "PE", "10/2024", true},
		{[]string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", "SINAPI_Preco_Ref_Insumos_BA_202410_Desonerado.xlsx"}, true, "all", "10/2024", true},
		{[]string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", "SINAPI_Preco_Ref_Insumos_BA_202410_Desonerado.xlsx", "SINAPI_Preco_Ref_Insumos_SE_202410_Desonerado.xlsx"}, true, "all", "10/2024", true},
		{[]string{"AL 01-2024 Relatório Sintético de Materiais.xlsx", "SE 01-2024 Relatório Sintético de Materiais.xlsx"}, false, "", "", false},
		{[]string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", "SINAPI_Preco_Ref_Insumos_PE_202411_Desonerado.xlsx"}, true, "", "", false},
		{[]string{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", "insumos.xlsx"}, true, "", "", false},
		{[]string{"AL 01-2024 Relatório Sintético de Materiais.xlsx"}, false, "AL", "01/2024", true},
	} {
		s, m, ok := stateMonthFromNames(tc.files, tc.several)
		if s != tc.state || m != tc.month || ok != tc.ok {
			t.Errorf("stateMonthFromNames(%q) = %s %s %v, want %s %s %v", tc.files, s, m, ok, tc.state, tc.month, tc.ok)
		}
	}
}

// A file whose name says nothing, without flags: its title rows give the
// state, month and regime.
func TestImportTitlesDecide(t *testing.T) {
	path := filepath.Join(t.TempDir(), "insumos.xlsx")
	if err := os.WriteFile(path, csvToXLSX(t, pe[0], "MÊS DE COLETA: 10/2024", "LOCALIDADE: 26 - RECIFE", "NÃO DESONERADO"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "insumos.xlsx: SINAPI insumos, nao-desonerado, 4811 rows\n") {
		t.Errorf("the summary:\n%s", out)
	}
	if eds := editions(t, db); len(eds) != 1 || eds[0].Key() != "SINAPI/PE/2024-10/" {
		t.Errorf("editions = %+v", eds)
	}
	// Titles that say nothing: the flags are required, as before.
	bare := filepath.Join(t.TempDir(), "insumos.xlsx")
	if err := os.WriteFile(bare, csvToXLSX(t, pe[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "import", "sinapi", "--db", db, bare); code != 2 || !strings.Contains(stderr, "--state, --month and at least one FILE are required") {
		t.Errorf("no titles, no flags: exit %d, stderr %q", code, stderr)
	}
}
