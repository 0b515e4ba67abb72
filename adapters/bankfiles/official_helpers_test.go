package bankfiles_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"fmt"
	"github.com/xuri/excelize/v2"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The real files under testdata (see testdata/README.md).
const (
	peDir         = "testdata/sinapi-pe-202410/"
	peInsumos     = peDir + "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv"
	peSinteticoD  = peDir + "SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.csv"
	peSinteticoND = peDir + "SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv"
	peKey         = "SINAPI/PE/2024-10/"

	alPre          = "testdata/sicro-al-202401/SICRO_AL_202401_Relatorio_Sintetico_"
	alCompositions = alPre + "Composicoes_de_Custos.xlsx"
	alEquipmentND  = alPre + "Equipamentos_sem_desoneracao.xlsx"
	alEquipmentD   = alPre + "Equipamentos_com_desoneracao.xlsx"
	alLaborND      = alPre + "Mao_de_Obra_sem_desoneracao.xlsx"
	alLaborD       = alPre + "Mao_de_Obra_com_desoneracao.xlsx"
	alMaterials    = alPre + "Materiais.xlsx"
	alKey          = "SICRO3/AL/2024-01/"
	mgAnalyticDir  = "testdata/sinapi-analitico-mg-202608/"
	mgAnalyticD    = mgAnalyticDir + "SINAPI_Custo_Ref_Composicoes_Analitico_MG_202608_Desonerado.csv"
	mgAnalyticND   = mgAnalyticDir + "SINAPI_Custo_Ref_Composicoes_Analitico_MG_202608_NaoDesonerado.csv"
	mgKey          = "SINAPI/MG/2026-08/"
)

var (
	peFiles = []string{peInsumos, peSinteticoD, peSinteticoND}
	alFiles = []string{alEquipmentND, alEquipmentD, alLaborND, alLaborD, alMaterials, alCompositions}
)

// testDB is a bbolt file with the application over it.
type testDB struct {
	path string
	st   *boltstore.Store
	svc  *app.Service
}

// openDB opens (creating) a bbolt file, closed at the end of the test.
func openDB(tb testing.TB, path string) *testDB {
	tb.Helper()
	st, err := boltstore.Open(path, boltstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return &testDB{path: path, st: st, svc: app.New(st, nil, app.Config{})}
}

// importFiles does what costdb import does: read every file, then import
// them all in one ImportEditions call.
func importFiles(ctx context.Context, svc *app.Service, bank bankfiles.Bank, state, month string,
	regime *domain.Regime, files ...string) (*bankfiles.Importer, []app.ImportSummary, error) {
	im, err := bankfiles.NewImporter(bank, state, month)
	if err != nil {
		return nil, nil, err
	}
	im.Regime = regime
	for _, f := range files {
		if _, err := im.AddFile(ctx, f); err != nil {
			return im, nil, err
		}
	}
	eds, err := im.Editions()
	if err != nil {
		return im, nil, err
	}
	sums, err := svc.ImportEditions(ctx, editionData(eds))
	return im, sums, err
}

func editionData(eds []bankfiles.Edition) []app.EditionData {
	out := make([]app.EditionData, len(eds))
	for i, e := range eds {
		out[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	return out
}

// mustImport is importFiles that fails the test on an error.
func mustImport(tb testing.TB, db *testDB, bank bankfiles.Bank, state, month string, files ...string) *bankfiles.Importer {
	tb.Helper()
	im, _, err := importFiles(context.Background(), db.svc, bank, state, month, nil, files...)
	if err != nil {
		tb.Fatal(err)
	}
	return im
}

// parse reads files into editions without importing them.
func parse(tb testing.TB, bank bankfiles.Bank, state, month string, files ...string) []bankfiles.Edition {
	tb.Helper()
	im, err := bankfiles.NewImporter(bank, state, month)
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range files {
		if _, err := im.AddFile(context.Background(), f); err != nil {
			tb.Fatal(err)
		}
	}
	eds, err := im.Editions()
	if err != nil {
		tb.Fatal(err)
	}
	return eds
}

func (d *testDB) editions(tb testing.TB) []*domain.Edition {
	tb.Helper()
	eds, _, err := d.svc.Editions(context.Background(), app.ListQuery{})
	if err != nil {
		tb.Fatal(err)
	}
	return eds
}

func (d *testDB) edition(tb testing.TB, key string) *domain.Edition {
	tb.Helper()
	for _, e := range d.editions(tb) {
		if e.Key() == key {
			return e
		}
	}
	tb.Fatalf("no edition %s", key)
	return nil
}

// resource returns a bank resource, or nil when there is none.
func (d *testDB) resource(tb testing.TB, key, code string) *domain.BankResource {
	tb.Helper()
	var out *domain.BankResource
	err := d.st.View(context.Background(), func(tx app.Tx) error {
		var err error
		out, err = tx.BankResource(key, code)
		return err
	})
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// composition returns a bank composition, or nil when there is none.
func (d *testDB) composition(tb testing.TB, key, code string) *domain.BankComposition {
	tb.Helper()
	var out *domain.BankComposition
	err := d.st.View(context.Background(), func(tx app.Tx) error {
		var err error
		out, err = tx.BankComposition(key, code)
		return err
	})
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		return nil
	}
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// fileHash returns the SHA-256 of a file's bytes.
func fileHash(tb testing.TB, path string) [32]byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return sha256.Sum256(b)
}

func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func writeFile(tb testing.TB, path string, b []byte) {
	tb.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// replaceLine returns b with its line n (1-based, CRLF or LF) replaced by
// fn(line).
func replaceLine(tb testing.TB, b []byte, n int, fn func(string) string) []byte {
	tb.Helper()
	lines := strings.SplitAfter(string(b), "\n")
	if n < 1 || n > len(lines) {
		tb.Fatalf("no line %d", n)
	}
	end := ""
	l := lines[n-1]
	if strings.HasSuffix(l, "\r\n") {
		l, end = strings.TrimSuffix(l, "\r\n"), "\r\n"
	} else if strings.HasSuffix(l, "\n") {
		l, end = strings.TrimSuffix(l, "\n"), "\n"
	}
	lines[n-1] = fn(l) + end
	return []byte(strings.Join(lines, ""))
}

// rewriteXLSX returns a copy of the workbook at path with one part changed.
func rewriteXLSX(tb testing.TB, path, part string, fn func(string) string) []byte {
	tb.Helper()
	data := readFile(tb, path)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		if f.Name == part {
			found = true
			b = []byte(fn(string(b)))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	if !found {
		tb.Fatalf("%s has no part %s", path, part)
	}
	return out.Bytes()
}

// xlsxCell is a cell of a workbook made by makeXLSX: text, or a number
// stored as the binary float text Excel writes (17 significant digits).
type xlsxCell struct {
	text string
	num  bool
}

// makeXLSX writes a one-sheet workbook (excelize's writer) the way Excel
// does: text in the shared strings, numbers as stored binary floats (17
// significant digits).
func makeXLSX(tb testing.TB, rows [][]xlsxCell) []byte {
	tb.Helper()
	book := excelize.NewFile()
	defer book.Close()
	const sheet = "Relatório"
	if err := book.SetSheetName("Sheet1", sheet); err != nil {
		tb.Fatal(err)
	}
	for i, row := range rows {
		for j, c := range row {
			ref := fmt.Sprintf("%s%d", colName(j), i+1)
			var err error
			switch {
			case c.text == "":
				continue
			case c.num:
				f, perr := strconv.ParseFloat(c.text, 64)
				if perr != nil {
					tb.Fatal(perr)
				}
				err = book.SetCellDefault(sheet, ref, strconv.FormatFloat(f, 'g', 17, 64))
			default:
				err = book.SetCellStr(sheet, ref, c.text)
			}
			if err != nil {
				tb.Fatal(err)
			}
		}
	}
	var out bytes.Buffer
	if err := book.Write(&out); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

func colName(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
}

// csvToXLSX turns one of Caixa's ";" CSV files into the XLSX it was
// converted from: title rows on top, numbers ("3.244,53") as stored floats,
// the padded text as it is.
func csvToXLSX(tb testing.TB, path string, title ...string) []byte {
	tb.Helper()
	r := csv.NewReader(bytes.NewReader(readFile(tb, path)))
	r.Comma = ';'
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	var rows [][]xlsxCell
	for _, t := range title {
		rows = append(rows, []xlsxCell{{text: t}})
	}
	for _, rec := range recs {
		row := make([]xlsxCell, len(rec))
		for i, s := range rec {
			row[i] = xlsxCell{text: s}
			if n, ok := brToDot(s); ok {
				row[i] = xlsxCell{text: n, num: true}
			}
		}
		rows = append(rows, row)
	}
	return makeXLSX(tb, rows)
}

// brToDot reads "3.244,53" or "12" as "3244.53" or "12".
func brToDot(s string) (string, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789.,") != "" || strings.Count(s, ",") > 1 {
		return "", false
	}
	ip, fp, _ := strings.Cut(s, ",")
	ip = strings.ReplaceAll(ip, ".", "")
	if ip == "" {
		return "", false
	}
	if fp != "" {
		return ip + "." + fp, true
	}
	return ip, true
}

// fileRecords are the records an import keeps of the files at paths
// (domain.SourceFile), sorted by name as an edition keeps them, computed
// here from the bytes; each file's title lines are titles(name).
func fileRecords(t *testing.T, titles func(name string) []string, paths ...string) []domain.SourceFile {
	t.Helper()
	var out []domain.SourceFile
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := p[strings.LastIndexByte(p, '/')+1:]
		out = append(out, domain.SourceFile{Name: name, Size: int64(len(raw)), SHA256: fmt.Sprintf("%x", sha256.Sum256(raw)), Titles: titles(name)})
	}
	return domain.MergeFiles(nil, out)
}
