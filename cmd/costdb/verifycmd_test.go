package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/xuri/excelize/v2"
)

// The real SICRO AL 01/2024 reports (adapters/bankfiles/testdata/README.md).
const sicroALDir = "../../adapters/bankfiles/testdata/sicro-al-202401"

// copyDir copies the files of src into a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// frozenVersion imports files with `costdb import` (args), freezes the
// budget in over them and returns the version's content as GET
// …/versions/1/content gives it, having checked that it records files of
// each edition it read.
func frozenVersion(t *testing.T, args []string, in app.BudgetInput) []byte {
	t.Helper()
	db := filepath.Join(t.TempDir(), "c.db")
	var out, errb bytes.Buffer
	if code := run(context.Background(), append([]string{"import"}, append(args, "--db", db)...), &out, &errb); code != 0 {
		t.Fatalf("import: %d %s", code, errb.String())
	}
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := app.New(st, nil, app.Config{})
	ctx := context.Background()
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "Construtora Exemplo", Email: "ana@exemplo.com.br"})
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	pb, err := svc.CreateBudget(ctx, p, in)
	if err != nil {
		t.Fatal(err)
	}
	v, err := svc.FreezeBudget(ctx, p, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	var vc domain.VersionContent
	if err := json.Unmarshal(v.Content, &vc); err != nil || len(vc.Sources) != 1 || len(vc.Sources[0].Files) == 0 {
		t.Fatalf("the version records the files of its edition: %+v (%v)", vc.Sources, err)
	}
	return v.Content
}

// frozenSicroVersion imports the real SICRO AL reports with `costdb import
// sicro` and freezes a budget over them.
func frozenSicroVersion(t *testing.T) []byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sicroALDir, "*.xlsx"))
	if err != nil || len(files) != 6 {
		t.Fatalf("the six reports: %v %v", files, err)
	}
	line := func(kind domain.NodeKind, code, qty string) app.NodeInput {
		return app.NodeInput{Kind: kind, Bank: "SICRO3", Code: code, Quantity: domain.Dec(qty)}
	}
	return frozenVersion(t, append([]string{"sicro", "--state", "AL", "--month", "01/2024"}, files...), app.BudgetInput{
		Code: "RODOVIA-01", Description: "Obra de arte especial", State: "AL",
		BDI: domain.Dec("24.23"), Banks: []app.BankInput{{Name: "SICRO3", State: "AL", Month: "01/2024"}},
		Items: []app.NodeInput{{Kind: domain.NodeStage, Description: "Aparelhos de apoio", Items: []app.NodeInput{
			line(domain.NodeComposition, "0307731", "40"), line(domain.NodeComposition, "0308308", "4"),
			line(domain.NodeResource, "M0004", "1250.5"),
		}}}})
}

// setPrice writes price as the last figure of the row of code in the
// workbook at path (the report's unit price column).
func setPrice(t *testing.T, path, code string, price float64) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetList()[0]
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) > 0 && strings.TrimSpace(row[0]) == code {
			cell, _ := excelize.CoordinatesToCellName(len(row), i+1)
			if err := f.SetCellValue(sheet, cell, price); err != nil {
				t.Fatal(err)
			}
			if err := f.Save(); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no row of %s in %s", code, path)
}

// TestVerify: `costdb verify` passes on the untouched official files of
// the version's edition, and once one price in one file is changed it
// names the file, the record and every figure that moved, exiting 1; a
// file taken away is named missing.
func TestVerify(t *testing.T) {
	content := frozenSicroVersion(t)
	version := filepath.Join(t.TempDir(), "RODOVIA-01-v1-versao.json")
	if err := os.WriteFile(version, content, 0o600); err != nil {
		t.Fatal(err)
	}
	verify := func(dir string, extra ...string) (int, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(append([]string{"verify"}, extra...), version, "--files", dir), &out, &errb)
		return code, out.String() + errb.String()
	}

	dir := copyDir(t, sicroALDir)
	code, out := verify(dir)
	if code != 0 || !strings.Contains(out, "OK: every file found unchanged") || strings.Count(out, "  ok ") != 6 {
		t.Fatalf("untouched files: exit %d\n%s", code, out)
	}

	setPrice(t, filepath.Join(dir, "SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx"), "M0004", 7.5)
	code, out = verify(dir)
	for _, want := range []string{
		"changed      SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx (SICRO3 AL 01/2024)",
		"DIFFERS SICRO3 AL 01/2024 code M0004: price (não desonerado) frozen 6.7574, found 7.5: the price differs",
		"DIFFERS line 1.3 (M0004): unit price frozen 6.7574, found 7.5",
		"DIFFERS budget: budget total with BDI frozen",
		"NOT OK",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("one price changed: output lacks %q\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("one price changed: exit %d, want 1", code)
	}
	t.Logf("costdb verify, one price changed:\n%s", out)
	// The same as JSON, for tools.
	code, out = verify(dir, "--json")
	var c struct {
		OK          bool `json:"ok"`
		Differences []struct {
			Code, Figure, Frozen, Found string
		} `json:"differences"`
	}
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &c); err != nil || c.OK || code != 1 || len(c.Differences) == 0 {
		t.Errorf("--json: exit %d, %+v (%v)\n%s", code, c, err, out)
	}

	if err := os.Remove(filepath.Join(dir, "SICRO_AL_202401_Relatorio_Sintetico_Composicoes_de_Custos.xlsx")); err != nil {
		t.Fatal(err)
	}
	code, out = verify(dir)
	if code != 1 || !strings.Contains(out, "missing      SICRO_AL_202401_Relatorio_Sintetico_Composicoes_de_Custos.xlsx") ||
		!strings.Contains(out, "code 0307731: record frozen 0307731, found -") {
		t.Errorf("a file missing: exit %d\n%s", code, out)
	}

	if code, out := verify(t.TempDir() + "/none"); code != 1 || !strings.Contains(out, "none") {
		t.Errorf("a directory that does not exist: exit %d %s", code, out)
	}
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"verify", version}, &bytes.Buffer{}, &errb); code != 2 {
		t.Errorf("no --files: exit %d, want 2 (usage)", code)
	}
}

// TestVerifyWorkbook: a version priced from the national SINAPI workbook
// records the workbook; verify reads the edition's state from it, and
// names the price a workbook published again with one price changed moves.
func TestVerifyWorkbook(t *testing.T) {
	dir := t.TempDir()
	book := realWorkbook(t, dir, nil)
	line := func(kind domain.NodeKind, code, qty string) app.NodeInput {
		return app.NodeInput{Kind: kind, Bank: "SINAPI", Code: code, Quantity: domain.Dec(qty)}
	}
	content := frozenVersion(t, []string{"sinapi", "--states", "MG", book}, app.BudgetInput{
		Code: "ESCOLA-01", Description: "Escola", State: "MG", BDI: domain.Dec("25"),
		Banks: []app.BankInput{{Name: "SINAPI", State: "MG", Month: "08/2026"}},
		Items: []app.NodeInput{line(domain.NodeComposition, "89306", "120.5"), line(domain.NodeResource, "34586", "1000")}})
	version := filepath.Join(t.TempDir(), "ESCOLA-01-v1-versao.json")
	if err := os.WriteFile(version, content, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"verify", version, "--files", dir}, &out, &out); code != 0 ||
		!strings.Contains(out.String(), "ok           SINAPI_Referência_2026_08.xlsx (SINAPI MG 08/2026)") {
		t.Fatalf("untouched workbook: exit %d\n%s", code, out.String())
	}

	again := t.TempDir()
	realWorkbook(t, again, func(w *workbooktest.Workbook) {
		for i := range w.Insumos {
			if w.Insumos[i].Code == "34586" {
				p := w.Insumos[i].Prices["MG"]
				p[0] = "2,99" // não desonerado
				w.Insumos[i].Prices["MG"] = p
			}
		}
	})
	out.Reset()
	code := run(context.Background(), []string{"verify", version, "--files", again}, &out, &out)
	for _, want := range []string{"changed      SINAPI_Referência_2026_08.xlsx", "code 34586: price (não desonerado) frozen 2.62, found 2.99",
		"line 2 (34586): unit price frozen 2.62, found 2.99"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("one price changed: output lacks %q", want)
		}
	}
	if code != 1 {
		t.Errorf("one price changed: exit %d\n%s", code, out.String())
	}
}
