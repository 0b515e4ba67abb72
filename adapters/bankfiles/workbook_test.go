package bankfiles_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// realWorkbook returns the workbook made of the real MG and PE data and the
// published figures by state.
func realWorkbook(t *testing.T) (workbooktest.Workbook, map[string]*bankfiles.Edition) {
	t.Helper()
	wb, want, err := workbooktest.Real(peDir)
	if err != nil {
		t.Fatal(err)
	}
	return wb, want
}

func writeWorkbook(t *testing.T, dir, name string, wb workbooktest.Workbook) string {
	t.Helper()
	var buf bytes.Buffer
	if err := workbooktest.Write(&buf, wb); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// zipOf writes a zip holding the given entries (name → file on disk or
// text).
func zipOf(t *testing.T, path string, entries map[string]string, latin1 bool) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, src := range entries {
		body := []byte(src)
		if b, err := os.ReadFile(src); err == nil {
			body = b
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		if latin1 {
			// Caixa's names may come as single bytes without the UTF-8 flag.
			h.Name = strings.ReplaceAll(name, "ê", "\xea")
			h.NonUTF8 = true
		}
		w, err := zw.CreateHeader(h)
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

func readWorkbook(t *testing.T, path string, opt bankfiles.WorkbookOptions) (*bankfiles.Workbook, error) {
	t.Helper()
	wf, err := bankfiles.OpenSinapiWorkbook(path)
	if err != nil {
		return nil, err
	}
	defer wf.Close()
	return wf.Read(context.Background(), opt)
}

// flat is an edition's records as comparable text.
type flat struct {
	Resources    []string
	Compositions []string
}

func flatten(e *bankfiles.Edition) flat {
	var f flat
	for _, r := range e.Resources {
		p := r.Prices
		f.Resources = append(f.Resources, strings.Join([]string{r.Code, r.Description, r.Unit,
			domain.ResourceTypes[r.Type], p.PND.StringFixed(2), p.PD.StringFixed(2), p.PNDI.StringFixed(2), p.PDI.StringFixed(2),
			pricedIn(r.Priced)}, " | "))
	}
	for _, c := range e.Compositions {
		s := []string{c.Code, c.Description, c.Unit, c.Cost.PND.StringFixed(2), c.Cost.PD.StringFixed(2), pricedIn(c.Priced)}
		for _, it := range c.Items {
			s = append(s, string(it.Kind)+":"+it.Code+"×"+it.Coefficient.String())
		}
		f.Compositions = append(f.Compositions, strings.Join(s, " | "))
	}
	sort.Strings(f.Resources)
	sort.Strings(f.Compositions)
	return f
}

// pricedIn names the regimes a record is priced in.
func pricedIn(priced func(domain.Regime) bool) string {
	var in []string
	for _, g := range []domain.Regime{domain.NaoDesonerado, domain.Desonerado} {
		if priced(g) {
			in = append(in, g.String())
		}
	}
	return strings.Join(in, "+")
}

// The workbook made of the real data gives MG's and PE's published figures,
// in whatever way the file writes its cells, and no other state.
func TestSinapiWorkbook(t *testing.T) {
	base, want := realWorkbook(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		edit func(*workbooktest.Workbook)
	}{
		{"as documented", func(*workbooktest.Workbook) {}},
		{"codes as text, cached formula values", func(w *workbooktest.Workbook) { w.TextCodes, w.CachedCodes = true, true }},
		{"states over their cost column, not merged", func(w *workbooktest.Workbook) { w.NoMerge = true }},
		{"states in the header row of the composition sheets", func(w *workbooktest.Workbook) { w.StatesInHeader = true }},
		{"code formulas whose value is 0", func(w *workbooktest.Workbook) { w.ZeroCodes = true }},
		{"header lower, blank rows, footers", func(w *workbooktest.Workbook) { w.HeaderRow, w.Footer, w.BlankInside = 14, true, true }},
		{"prices and coefficients as text with a decimal comma", func(w *workbooktest.Workbook) {
			comma := func(s string) string { return strings.ReplaceAll(s, ".", ",") }
			for i := range w.Insumos {
				for st, p := range w.Insumos[i].Prices {
					w.Insumos[i].Prices[st] = [2]string{comma(p[0]), comma(p[1])}
				}
			}
			for i := range w.Compositions {
				for j := range w.Compositions[i].Items {
					w.Compositions[i].Items[j].Coefficient = comma(w.Compositions[i].Items[j].Coefficient)
				}
			}
		}},
		{"only the states in use", func(w *workbooktest.Workbook) { w.States = []string{"MG", "PE"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wb, _ := realWorkbook(t)
			tc.edit(&wb)
			path := writeWorkbook(t, dir, "SINAPI_Referência_2026_08.xlsx", wb)
			got, err := readWorkbook(t, path, bankfiles.WorkbookOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkRealWorkbook(t, got, want)
		})
	}
	_ = base

	t.Run("the example in the repository", func(t *testing.T) {
		got, err := readWorkbook(t, "testdata/sinapi-workbook-202608/SINAPI_Referencia_2026_08.xlsx", bankfiles.WorkbookOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkRealWorkbook(t, got, want)
	})

	t.Run("the zip as downloaded", func(t *testing.T) {
		book := writeWorkbook(t, dir, "book.xlsx", base)
		for _, latin1 := range []bool{false, true} {
			z := zipOf(t, filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip"), map[string]string{
				"SINAPI_Manutenções_2026_08.xlsx": book, // another workbook, listed first or not
				"SINAPI_Referência_2026_08.xlsx":  book,
				"LEIA-ME.txt":                     "filler",
			}, latin1)
			got, err := readWorkbook(t, z, bankfiles.WorkbookOptions{})
			if err != nil {
				t.Fatalf("latin-1 names %v: %v", latin1, err)
			}
			checkRealWorkbook(t, got, want)
			if !strings.HasSuffix(got.File, "» SINAPI_Referência_2026_08.xlsx") {
				t.Errorf("File = %q", got.File)
			}
		}
	})

	t.Run("a text code keeps its leading zeros", func(t *testing.T) {
		wb, _ := realWorkbook(t)
		wb.TextCodes = true
		for i := range wb.Insumos {
			if wb.Insumos[i].Code == "34556" { // used by no composition
				wb.Insumos[i].Code = "034556"
			}
		}
		path := writeWorkbook(t, dir, "SINAPI_Referência_2026_08.xlsx", wb)
		got, err := readWorkbook(t, path, bankfiles.WorkbookOptions{States: []string{"MG"}})
		if err != nil {
			t.Fatal(err)
		}
		codes := map[string]bool{}
		eds, _ := got.Editions()
		// The edition records the workbook it was read from.
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if f := eds[0].Edition.Files; len(f) != 1 || f[0].Name != "SINAPI_Referência_2026_08.xlsx" || f[0].Size != int64(len(raw)) ||
			f[0].SHA256 != fmt.Sprintf("%x", sha256.Sum256(raw)) {
			t.Errorf("files %+v, want the workbook's record", f)
		}
		for _, r := range eds[0].Resources {
			codes[r.Code] = true
		}
		if !codes["034556"] || codes["34556"] || len(codes) != 19 {
			t.Errorf("codes %v", codes)
		}
	})

	t.Run("a state priced in one regime", func(t *testing.T) {
		wb, _ := realWorkbook(t)
		for i := range wb.Insumos {
			if p, ok := wb.Insumos[i].Prices["PE"]; ok {
				wb.Insumos[i].Prices["PE"] = [2]string{"", p[1]}
			}
		}
		for i := range wb.Compositions {
			if p, ok := wb.Compositions[i].Costs["PE"]; ok {
				wb.Compositions[i].Costs["PE"] = [2]string{"0", p[1]} // 0: not priced
			}
		}
		got, err := readWorkbook(t, writeWorkbook(t, dir, "SINAPI_Referência_2026_08.xlsx", wb), bankfiles.WorkbookOptions{States: []string{"PE"}})
		if err != nil {
			t.Fatal(err)
		}
		eds, sums := got.Editions()
		ed := eds[0]
		if len(ed.Edition.Regimes) != 1 || ed.Edition.Regimes[0] != domain.Desonerado || len(ed.Resources) != 19 || sums[0].OneRegime != 0 {
			t.Fatalf("PE edition %+v, summary %+v", ed.Edition, sums[0])
		}
		for _, r := range ed.Resources {
			if r.Regimes != nil || !r.Prices.PND.IsZero() {
				t.Errorf("resource %s: regimes %v, prices %+v", r.Code, r.Regimes, r.Prices)
			}
		}
	})

	t.Run("--states", func(t *testing.T) {
		path := writeWorkbook(t, dir, "SINAPI_Referência_2026_08.xlsx", base)
		got, err := readWorkbook(t, path, bankfiles.WorkbookOptions{States: []string{"PE"}, Month: "08/2026"})
		if err != nil {
			t.Fatal(err)
		}
		if eds, _ := got.Editions(); len(eds) != 1 || eds[0].Edition.State != "PE" {
			t.Fatalf("editions of %v", got.States)
		}
		for _, tc := range []struct {
			opt  bankfiles.WorkbookOptions
			want string
		}{
			{bankfiles.WorkbookOptions{States: []string{"RJ"}}, "no price for the state RJ"},
			{bankfiles.WorkbookOptions{States: []string{"XX"}}, `"XX" is not a state`},
			{bankfiles.WorkbookOptions{Month: "07/2026"}, "the workbook is of 08/2026 (sheet ISD row 3), not of 07/2026"},
		} {
			if _, err := readWorkbook(t, path, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: error %v, want %q", tc.opt, err, tc.want)
			}
		}
	})
}

func checkRealWorkbook(t *testing.T, got *bankfiles.Workbook, want map[string]*bankfiles.Edition) {
	t.Helper()
	eds, sums := got.Editions()
	if got.Month != "08/2026" || len(eds) != 2 {
		t.Fatalf("month %s, %d editions (%+v)", got.Month, len(eds), got.States)
	}
	for i, st := range []string{"MG", "PE"} {
		ed := &eds[i]
		if ed.Edition.Key() != "SINAPI/"+st+"/2026-08/" || len(ed.Edition.Regimes) != 2 {
			t.Errorf("edition %+v", ed.Edition)
		}
		if d := cmp.Diff(flatten(want[st]), flatten(ed)); d != "" {
			t.Errorf("%s (-published +read):\n%s", st, d)
		}
	}
	// PE's three labour insumos have a desonerado price only, and say so.
	if s := sums[1]; s.State != "PE" || s.OneRegime != 3 || s.Resources != 19 || s.Compositions != 8 || s.Structures != 5 {
		t.Errorf("PE summary %+v", s)
	}
	if s := sums[0]; s.Resources != 19 || s.Compositions != 8 || s.Structures != 5 || s.OneRegime != 0 {
		t.Errorf("MG summary %+v", s)
	}
	// MG's totals recompute from the structure read: Σ trunc₂(coef × price).
	mg := eds[0]
	price := map[string]domain.UnitPrice{}
	for _, r := range mg.Resources {
		price[r.Code] = domain.UnitPrice{PND: r.Prices.PND, PD: r.Prices.PD}
	}
	for _, c := range mg.Compositions {
		price[c.Code] = c.Cost
	}
	for _, c := range mg.Compositions {
		if len(c.Items) == 0 {
			continue
		}
		var sum domain.UnitPrice
		for _, it := range c.Items {
			p := price[it.Code]
			sum = sum.Add(domain.UnitPrice{PND: it.Coefficient.Mul(p.PND).Truncate(2), PD: it.Coefficient.Mul(p.PD).Truncate(2)})
		}
		if !sum.PND.Equal(c.Cost.PND) || !sum.PD.Equal(c.Cost.PD) {
			t.Errorf("MG %s: the structure totals %s / %s, the published cost is %s / %s", c.Code, sum.PND, sum.PD, c.Cost.PND, c.Cost.PD)
		}
	}
}

// A workbook that does not match says where: sheet, row and column.
func TestSinapiWorkbookErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		edit func(*workbooktest.Workbook)
		want string
	}{
		{"missing CSD", func(w *workbooktest.Workbook) { w.Omit = []string{"CSD"} }, "sheet CSD: the sheet is missing (the workbook has ISD"},
		{"missing Analítico", func(w *workbooktest.Workbook) { w.Omit = []string{"Analítico"} }, "sheet Analítico: the sheet is missing"},
		{"no regime", func(w *workbooktest.Workbook) { w.Omit = []string{"ISD", "CSD", "ICD", "CCD"} }, "sheet ISD: the sheet is missing: the workbook has neither"},
		{"renamed header", func(w *workbooktest.Workbook) {
			w.Rename = map[string]map[string]string{"ICD": {"Unidade": "Medida"}}
		}, `sheet ICD row 10: the header has no column "Unidade"`},
		{"renamed code header", func(w *workbooktest.Workbook) {
			w.Rename = map[string]map[string]string{"Analítico": {"Tipo Item": "Tipo"}}
		}, "sheet Analítico: no header row (Código da Composição, Tipo Item, Código do Item, Coeficiente) in its first 50 rows"},
		{"%AS under the state", func(w *workbooktest.Workbook) {
			w.Rename = map[string]map[string]string{"CCD": {"Custo (R$)": "%AS"}}
		}, `sheet CCD row 10 column E: the column under AC (row 9) is "%AS", not its cost`},
		{"text price", func(w *workbooktest.Workbook) {
			w.Insumos[2].Prices["MG"] = [2]string{"R$ 12", w.Insumos[2].Prices["MG"][1]}
		}, `sheet ISD row 13 column P: the price of MG "R$ 12" is not a number`},
		{"bad comma price", func(w *workbooktest.Workbook) {
			w.Compositions[0].Costs["PE"] = [2]string{"1,2,3", "4"}
		}, `sheet CSD row 11 column AI: the price of PE "1,2,3" is not a number`},
		{"negative coefficient", func(w *workbooktest.Workbook) {
			w.Compositions[withItems(w)].Items[0].Coefficient = "-1"
		}, `sheet Analítico row 12 column G: the coefficient "-1" is negative`},
		{"bad item kind", func(w *workbooktest.Workbook) {
			w.Compositions[withItems(w)].Items[0].Kind = "SERVICO"
		}, `sheet Analítico row 12 column C: Tipo Item "SERVICO" is neither INSUMO nor COMPOSICAO`},
		{"repeated code", func(w *workbooktest.Workbook) {
			w.Insumos[1].Code = w.Insumos[0].Code
		}, "sheet ISD row 12: code 7153 is listed twice (rows 11 and 12)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wb, _ := realWorkbook(t)
			tc.edit(&wb)
			path := writeWorkbook(t, dir, "SINAPI_Referência_2026_08.xlsx", wb)
			_, err := readWorkbook(t, path, bankfiles.WorkbookOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if c := domain.ErrorCode(err); c != domain.EBADREQUEST && c != domain.EINVALID {
				t.Errorf("error %v is not a bad request", err)
			}
		})
	}

	wb, _ := realWorkbook(t)
	good := writeWorkbook(t, dir, "good.xlsx", wb)
	data, _ := os.ReadFile(good)
	t.Run("truncated", func(t *testing.T) {
		cut := filepath.Join(dir, "SINAPI_Referência_2026_08.xlsx")
		os.WriteFile(cut, data[:len(data)/2], 0o644)
		_, err := bankfiles.OpenSinapiWorkbook(cut)
		if err == nil || !strings.Contains(err.Error(), "neither a readable XLSX workbook nor a zip") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("zip without a workbook", func(t *testing.T) {
		z := zipOf(t, filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip"), map[string]string{
			"SINAPI_Manutenções_2026_08.xlsx": good, "LEIA-ME.txt": "x"}, false)
		_, err := bankfiles.OpenSinapiWorkbook(z)
		if err == nil || !strings.Contains(err.Error(), "the zip holds no SINAPI workbook SINAPI_Referência_AAAA_MM.xlsx (it holds: ") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("older layouts are not the workbook", func(t *testing.T) {
		for _, f := range []string{
			peDir + "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv",
			"testdata/sicro-al-202401/SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx",
		} {
			if _, err := bankfiles.OpenSinapiWorkbook(f); !errors.Is(err, bankfiles.ErrNotWorkbook) {
				t.Errorf("%s: %v", f, err)
			}
		}
	})
}

// withItems is the index of the first composition with a structure (its
// line is Analítico's row 11, its first item row 12).
func withItems(w *workbooktest.Workbook) int {
	for i, c := range w.Compositions {
		if len(c.Items) > 0 {
			return i
		}
	}
	panic("no composition has a structure")
}
