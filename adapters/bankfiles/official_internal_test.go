package bankfiles

import (
	"archive/zip"
	"bytes"
	"context"
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

func TestColumns(t *testing.T) {
	for i, name := range map[int]string{0: "A", 25: "Z", 26: "AA", 27: "AB", 701: "ZZ", 702: "AAA", 16383: "XFD"} {
		if got := columnName(i); got != name {
			t.Errorf("columnName(%d) = %q, want %q", i, got, name)
		}
		if got, err := columnIndex(name + "12"); err != nil || got != i {
			t.Errorf("columnIndex(%q) = %d, %v, want %d", name+"12", got, err, i)
		}
	}
	for _, bad := range []string{"12", "", "XFE1", "AAAA1"} {
		if _, err := columnIndex(bad); err == nil {
			t.Errorf("columnIndex(%q) succeeded", bad)
		}
	}
}

// The XLSX reader handles what spreadsheet programs write besides shared
// strings: inline strings, rich text runs, phonetic runs, formula results,
// cells without a reference, skipped rows and columns, prefixed elements.
func TestXLSXCells(t *testing.T) {
	sst := `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<si><t>plain</t></si>` +
		`<si><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch </t></r><rPh><t>PHONETIC</t></rPh></si>` +
		`<si><t>a &amp; b</t></si></sst>`
	sheet := `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
		`<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="C1" t="s"><x:v>1</x:v></x:c></x:row>` +
		`<x:row r="3"><x:c t="inlineStr"><x:is><x:t>inline</x:t></x:is></x:c><x:c><x:v>159.91999999999999</x:v></x:c>` +
		`<x:c t="str"><x:f>A1&amp;"x"</x:f><x:v>formula</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c><x:c t="s"><x:v>2</x:v></x:c></x:row>` +
		`<x:row r="4"/>` +
		`<x:row r="5"><x:c r="B5"><x:v>1E-3</x:v></x:c><x:c r="C5" s="3"/></x:row>` +
		`</x:sheetData></x:worksheet>`
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{"xl/worksheets/sheet1.xml": sheet, "xl/sharedStrings.xml": sst} {
		w, _ := zw.Create(name)
		io.WriteString(w, body)
	}
	zw.Close()
	x, err := openXLSX(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
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
		{3, []string{"inline", "159.92", "formula", "1", "a & b"}},
		{4, nil},
		{5, []string{"", "0.001"}},
	}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, "|") == strings.Join(b, "|") })); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
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
