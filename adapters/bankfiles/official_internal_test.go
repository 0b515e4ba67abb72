package bankfiles

import (
	"bytes"
	"context"
	"github.com/xuri/excelize/v2"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBRNumber(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"3.244,53", "3244.53", true},
		{"4,05", "4.05", true},
		{"12", "12", true},
		{"1.234.567,8", "1234567.8", true},
		{"0,0000001", "0.0000001", true},
		{"-1,5", "-1.5", true}, // parsed; parseDecimal refuses it as negative
		{"1.2,5", "", false},
		{"1.2345,5", "", false},
		{".123,5", "", false},
		{"1,2,3", "", false},
		{"1,", "", false},
		{",5", "", false},
		{"1e3", "", false},
		{"12 ,5", "", false},
		{"", "", false},
	} {
		got, ok := brNumber(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("brNumber(%q) = %q, %v, want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"CODIGO  ":                    "CODIGO",
		"CODIGO  DA COMPOSICAO":       "CODIGO DA COMPOSICAO",
		"Código":                      "CODIGO",
		"ORIGEM DE PREÇO":             "ORIGEM DE PRECO",
		"Custo Produtivo\n(R$/h)":     "CUSTO PRODUTIVO (R$/H)",
		"Periculosidade/\r\nInsalub.": "PERICULOSIDADE/ INSALUB.",
		"\u00a0Mão de Obra\u00a0":     "MAO DE OBRA",
		"":                            "",
	} {
		if got := NormalizeName(in); got != want {
			t.Errorf("NormalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTitleState(t *testing.T) {
	for title, want := range map[string]string{
		"ALAGOAS - JANEIRO/2024":                 "AL",
		"MATO GROSSO DO SUL - JANEIRO/2024":      "MS",
		"MATO GROSSO - JANEIRO/2024":             "MT",
		"PARANA - MARCO/2024":                    "PR",
		"PARA - MARCO/2024":                      "PA",
		"PARAIBA":                                "PB",
		"RIO GRANDE DO NORTE - COM DESONERACAO":  "RN",
		"SISTEMA DE CUSTOS REFERENCIAIS - SICRO": "",
	} {
		if got := titleState(title); got != want {
			t.Errorf("titleState(%q) = %q, want %q", title, got, want)
		}
	}
	for title, want := range map[string]string{
		"ALAGOAS - JANEIRO/2024":     "JAN 2024",
		"ALAGOAS - MARCO / 2023":     "MAR 2023",
		"ALAGOAS - DEZEMBRO DE 2025": "DEZ 2025",
		"ALAGOAS - JUL/2024":         "JUL 2024",
	} {
		m := sicroMonthPattern.FindStringSubmatch(title)
		if m == nil || m[1]+" "+m[2] != want {
			t.Errorf("month of %q = %v, want %s", title, m, want)
		}
	}
}

// The XLSX reader (excelize's row iterator) gives shared and inline
// strings, formula results and stored numbers as they are, rows the sheet
// leaves out as empty ones, and a cell left out inside a row as "";
// File.Decimal reads a stored binary float as the figure it shows.
func TestXLSXCells(t *testing.T) {
	book := excelize.NewFile()
	defer book.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(book.SetCellStr("Sheet1", "A1", "plain"))
	must(book.SetCellStr("Sheet1", "C1", "rich "))
	must(book.SetCellStr("Sheet1", "A3", "inline"))
	must(book.SetCellValue("Sheet1", "B3", 159.92))
	must(book.SetCellFormula("Sheet1", "C3", `A1&"x"`))
	must(book.SetCellStr("Sheet1", "D3", "a & b"))
	must(book.SetCellStr("Sheet1", "B5", "0307731"))
	must(book.SetCellValue("Sheet1", "C5", 0.001))
	var buf bytes.Buffer
	must(book.Write(&buf))
	x, err := openXLSX(context.Background(), "book.xlsx", bytes.NewReader(buf.Bytes()), int64(buf.Len()), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	type row struct {
		Line  int
		Cells []string
	}
	var got []row
	for {
		line, cells, err := x.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row{line, append([]string(nil), cells...)})
	}
	want := []row{
		{1, []string{"plain", "", "rich "}},
		{2, nil},
		{3, []string{"inline", "159.92", "", "a & b"}},
		{4, nil},
		{5, []string{"", "0307731", "0.001"}},
	}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, "|") == strings.Join(b, "|") })); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	f := &File{Name: "x.xlsx", style: numbersFloat}
	for in, want := range map[string]string{"159.91999999999999": "159.92", "9.564500000000001": "9.5645", "1E-3": "0.001", "4,05": "4.05"} {
		if d, err := f.Decimal(Row{Line: 1, Cells: []string{in}}, 0, "X"); err != nil || d.String() != want {
			t.Errorf("Decimal(%q) = %s, %v, want %s", in, d, err, want)
		}
	}
}

// FuzzImport feeds arbitrary bytes to every format of both banks: an
// import may fail, never panic.
func FuzzImport(f *testing.F) {
	f.Add([]byte(`"CODIGO  ";"DESCRICAO DO INSUMO";"UNIDADE DE MEDIDA";"PRECO MEDIANO R$"` + "\r\n" + `"1";"AREIA";"M3";"1.234,56"` + "\r\n" + `"TOTAL DE INSUMOS : 1";"";"";""`))
	f.Add([]byte(`"CODIGO  DA COMPOSICAO";"DESCRICAO DA COMPOSICAO";"UNIDADE";"CUSTO TOTAL";"TIPO ITEM";"CODIGO ITEM";"COEFICIENTE"` + "\n" +
		`"10";"MURO";"M2";"3,5";"";"";""` + "\n" + `"10";"";"";"";"INSUMO";"1";"0,5"`))
	f.Add([]byte("CGCIT,SICRO\n,Alagoas - Janeiro/2024 - Com desoneração\nCódigo,Descrição,Custo Produtivo (R$/h),Custo Improdutivo (R$/h)\nE1,X,1.5,0.5\n"))
	f.Add([]byte(xlsxMagic + "garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, bank := range []Bank{OfficialSinapi(), OfficialSicro()} {
			im, err := NewImporter(bank, "AL", "01/2024")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := im.Add(context.Background(), "f_AL_202401_Desonerado.csv", bytes.NewReader(data), int64(len(data))); err == nil {
				im.Editions()
			}
		}
	})
}

func TestIsUTF8(t *testing.T) {
	chunk := 64 << 10
	for _, tc := range []struct {
		name string
		data string
		want bool
	}{
		{"empty", "", true},
		{"ascii", "abc", true},
		{"accents", "ÁGUA; AÇO", true},
		// A two-, three- and four-byte rune cut by the end of the first chunk.
		{"cut 2", strings.Repeat("a", chunk+2) + "é" + "x", true},
		{"cut 3", strings.Repeat("a", chunk+1) + "€" + "x", true},
		{"cut 4", strings.Repeat("a", chunk+1) + "😀" + "x", true},
		{"latin-1", "A\xc7O", false},
		{"latin-1 after a chunk", strings.Repeat("a", chunk+10) + "\xe9", false},
		{"truncated rune at the end", "a\xc3", false},
	} {
		got, err := isUTF8(strings.NewReader(tc.data), int64(len(tc.data)))
		if err != nil || got != tc.want {
			t.Errorf("%s: isUTF8 = %v, %v, want %v", tc.name, got, err, tc.want)
		}
	}
	if got := fromCP1252("A\xc7\xc3O \x80 \x93x\x94 \x81"); got != "AÇÃO € “x” \u0081" {
		t.Errorf("fromCP1252 = %q", got)
	}
}
