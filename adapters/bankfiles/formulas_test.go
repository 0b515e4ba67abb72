package bankfiles

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestStreamFormulasAsExcelize: the formulas read as a stream are the ones
// excelize's GetCellFormula gives, cell for cell, over the composition
// sheets of the real workbook.
func TestStreamFormulasAsExcelize(t *testing.T) {
	path := filepath.Join("testdata", "sinapi-workbook-202608", "SINAPI_Referencia_2026_08.xlsx")
	book, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	for _, sheet := range []string{SheetCompositionsND, SheetCompositionsD} {
		rows := map[int]bool{}
		for r := 1; r <= 60; r++ {
			rows[r] = true
		}
		got, err := streamFormulas(context.Background(), path, sheet, 1, rows)
		if err != nil {
			t.Fatal(err)
		}
		formulas := 0
		for r := range rows {
			want, err := book.GetCellFormula(sheet, "B"+strconv.Itoa(r))
			if err != nil {
				t.Fatal(err)
			}
			if got[r] != want {
				t.Errorf("%s B%d: streamed %q, excelize %q", sheet, r, got[r], want)
			}
			if want != "" {
				formulas++
			}
		}
		if formulas == 0 {
			t.Errorf("%s: no formula in column B: the test compares nothing", sheet)
		}
	}
}

// TestStreamFormulasShared: a shared formula without its text leaves the
// cell to excelize.
func TestStreamFormulasShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.xlsx")
	f := excelize.NewFile()
	typ := "shared"
	ref := "A1:A3"
	if err := f.SetCellFormula("Sheet1", "A1", "HYPERLINK(\"#\",B1)", excelize.FormulaOpts{Type: &typ, Ref: &ref}); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	_, err := streamFormulas(context.Background(), path, "Sheet1", 0, map[int]bool{1: true, 2: true})
	if !errors.Is(err, errFormulaFallback) {
		t.Fatalf("error %v, want errFormulaFallback", err)
	}
}
