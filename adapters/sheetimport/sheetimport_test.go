package sheetimport

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"

	"github.com/xuri/excelize/v2"
)

func read(t *testing.T, data []byte, l Limits) *Sheet {
	t.Helper()
	sh, err := Read(context.Background(), "tender", bytes.NewReader(data), int64(len(data)), l)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

const cleanCSV = `PREFEITURA MUNICIPAL;;;;;;;
PLANILHA ORÇAMENTÁRIA SINTÉTICA;;;;;;;
Item;Código;Banco;Descrição;Und;Quant.;Preço Unitário (R$);Total
1;;;SERVIÇOS PRELIMINARES;;;;
1.1;;;Canteiro;;;;
1.1.1;97622;SINAPI;DEMOLIÇÃO DE ALVENARIA;M3;12,5;R$ 45,10;563,75
1.1.2;98459;SINAPI;TAPUME;M2;1.234,56;12,30;
2;;;ESTRUTURA;;;;
2.1;92873;SINAPI;LANÇAMENTO DE CONCRETO;M3;3;;
;;;;;;;
;;;TOTAL GERAL;;;;99999,99
`

func TestReadCleanCSV(t *testing.T) {
	sh := read(t, []byte(cleanCSV), DefaultLimits)
	if sh.HeaderRow != 3 {
		t.Fatalf("header row %d, want 3", sh.HeaderRow)
	}
	if len(sh.Errors) != 0 {
		t.Fatalf("errors: %v", sh.Errors)
	}
	var stages []string
	for _, s := range sh.Stages {
		stages = append(stages, s.Number+"<"+s.Parent+">"+s.Description)
	}
	want := "1<>SERVIÇOS PRELIMINARES|1.1<1>Canteiro|2<>ESTRUTURA"
	if got := strings.Join(stages, "|"); got != want {
		t.Fatalf("stages %s, want %s", got, want)
	}
	if len(sh.Lines) != 3 {
		t.Fatalf("%d lines, want 3", len(sh.Lines))
	}
	l := sh.Lines[1]
	if l.Row != 7 || l.Stage != "1.1" || l.Code != "98459" || l.Bank != "SINAPI" || l.Unit != "M2" ||
		l.Quantity.String() != "1234.56" || l.UnitPrice.String() != "12.3" || !l.HasPrice {
		t.Fatalf("line %+v", l)
	}
	if p := sh.Lines[0].UnitPrice.String(); p != "45.1" {
		t.Fatalf("R$ 45,10 read as %s", p)
	}
	if sh.Lines[2].HasPrice {
		t.Fatal("a line without a unit price has one")
	}
	if len(sh.Skipped) != 1 || sh.Skipped[0] != 11 {
		t.Fatalf("skipped %v, want the totals row 10", sh.Skipped)
	}
}

func TestReadReportsEveryBadRow(t *testing.T) {
	data := `ITEM,CODIGO,DESCRICAO,UNIDADE,QUANTIDADE,VALOR UNITARIO
1,,Stage,,,
1.1,100,Good,M2,2,3.5
1.2,101,No quantity,M2,,
1.3,102,Bad quantity,M2,abc,1
1.4,103,,M2,1,1
1.1,104,Repeated,M2,1,1
x.1,105,Bad number,M2,1,1
,106,No item,M2,1,1
1.5,107,Negative price,M2,1,-2
1.6,108,Zero quantity,M2,0,1
`
	sh := read(t, []byte(data), DefaultLimits)
	var got []string
	for _, e := range sh.Errors {
		got = append(got, e.Error())
	}
	want := []string{
		"row 4, quantity: empty",
		"row 5, quantity: \"abc\" is not a number",
		"row 6, description: empty",
		"row 7, item: item 1.1 repeats row 3",
		"row 8, item: item number \"x.1\" is not a numbering like 1, 1.1 or 1.1.1",
		"row 9, item: no item number on a row with a code or quantity",
		"row 10, unit_price: -2 is negative",
		"row 11, quantity: 0 is not above zero",
	}
	// errors come in the order of the passes: item errors first, then lines
	sortRows := func(s []string) string { return strings.Join(s, "\n") }
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s\nwant:\n%s", sortRows(got), sortRows(want))
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("missing error %q in\n%s", w, sortRows(got))
		}
	}
	if len(sh.Lines) != 1 || sh.Lines[0].Number != "1.1" || sh.Lines[0].UnitPrice.String() != "3.5" {
		t.Fatalf("lines %+v", sh.Lines)
	}
}

func TestReadMessyXLSX(t *testing.T) {
	f := excelize.NewFile()
	s := "Planilha"
	f.SetSheetName("Sheet1", s)
	rows := [][]any{
		{"ORÇAMENTO — OBRA X"},
		{},
		{"ITEM", "FONTE", "CÓD.", "DISCRIMINAÇÃO DOS SERVIÇOS", "UNID.", "QTDE", "CUSTO UNITÁRIO COM BDI", "TOTAL"},
		{"01", nil, nil, "MOVIMENTO DE TERRA"},
		{"01.01", "SINAPI", "93358", "ESCAVAÇÃO MANUAL", "m³", 10.1, 63.93},
		{"01.02", "SINAPI", 96995, "REATERRO", "m³", "1.234,56", "R$ 1.012,30"},
		{nil, nil, nil, "SUBTOTAL 01", nil, nil, nil, 1000},
		{"2"},
		{"2.1", "PRÓPRIO", "ZZ-1", "SERVIÇO SEM CÓDIGO", "un", 1, 159.92},
		{},
		{"TOTAL GERAL", nil, nil, nil, nil, nil, nil, 123},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(s, cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.MergeCell(s, "D4", "H4"); err != nil { // a stage title merged across the row
		t.Fatal(err)
	}
	if err := f.MergeCell(s, "A1", "H2"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	sh := read(t, buf.Bytes(), DefaultLimits)
	if len(sh.Errors) != 0 {
		t.Fatalf("errors %v", sh.Errors)
	}
	if len(sh.Stages) != 2 || sh.Stages[0].Description != "MOVIMENTO DE TERRA" || sh.Stages[1].Description != "Item 2" {
		t.Fatalf("stages %+v", sh.Stages)
	}
	var got []string
	for _, l := range sh.Lines {
		got = append(got, l.Number+" "+l.Bank+" "+l.Code+" "+l.Quantity.String()+" x "+l.UnitPrice.String())
	}
	want := "1.1 SINAPI 93358 10.1 x 63.93|1.2 SINAPI 96995 1234.56 x 1012.3|2.1 PRÓPRIO ZZ-1 1 x 159.92"
	if g := strings.Join(got, "|"); g != want {
		t.Fatalf("lines\n%s\nwant\n%s", g, want)
	}
	if len(sh.Skipped) != 2 {
		t.Fatalf("skipped %v, want the subtotal and total rows", sh.Skipped)
	}
	if !sh.PriceWithBDI {
		t.Error("the only price column is titled com BDI: PriceWithBDI should say so")
	}
}

// TestPriceWithoutBDIPreferred: of two unit price columns, the one without
// BDI is read, wherever it stands; a sheet whose only price is without BDI
// says so.
func TestPriceWithoutBDIPreferred(t *testing.T) {
	for _, tc := range []struct {
		header, row string
		want        string
		withBDI     bool
	}{
		{"Item;Descrição;Un;Quant.;Preço Unit. com BDI;Preço Unit. sem BDI", "1;A;m;2;12,50;10,00", "10", false},
		{"Item;Descrição;Un;Quant.;Custo unitário sem BDI;Preço unitário com BDI", "1;A;m;2;10,00;12,50", "10", false},
		{"Item;Descrição;Un;Quant.;Preço unitário", "1;A;m;2;10,00", "10", false},
		{"Item;Descrição;Un;Quant.;P. Unit. com BDI", "1;A;m;2;12,50", "12.5", true},
	} {
		data := tc.header + "\n" + tc.row + "\n"
		sh, err := Read(context.Background(), "t.csv", strings.NewReader(data), int64(len(data)), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if len(sh.Lines) != 1 || sh.Lines[0].UnitPrice.String() != tc.want || sh.PriceWithBDI != tc.withBDI {
			t.Errorf("%s: lines %+v, with BDI %v; want price %s, with BDI %v", tc.header, sh.Lines, sh.PriceWithBDI, tc.want, tc.withBDI)
		}
	}
}

func TestReadLimits(t *testing.T) {
	l := DefaultLimits
	l.Rows = 3
	data := "ITEM;DESCRICAO;UN;QUANT\n1;a;m;1\n2;b;m;1\n3;c;m;1\n4;d;m;1\n"
	if _, err := Read(context.Background(), "x", strings.NewReader(data), int64(len(data)), l); err == nil || !strings.Contains(err.Error(), "more than 3 rows") {
		t.Fatalf("row cap: %v", err)
	}
	data = "a;b\nc;d\n"
	if _, err := Read(context.Background(), "x", strings.NewReader(data), int64(len(data)), DefaultLimits); err == nil || !strings.Contains(err.Error(), "no header row") {
		t.Fatalf("no header: %v", err)
	}
	// A workbook over the file limits is refused before excelize opens it.
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"ITEM", "DESCRICAO", "UN", "QUANT"})
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	l = DefaultLimits
	l.File.TotalBytes = 1000
	var le *bankfiles.LimitError
	if _, err := Read(context.Background(), "x", bytes.NewReader(buf.Bytes()), int64(buf.Len()), l); !errors.As(err, &le) {
		t.Fatalf("a workbook over the uncompressed size cap: %v, want a limit error", err)
	}
}

// TestTitleWithoutSeparators: a bare title line above a ";" header (no
// separator in it) does not make the reader take "," for the separator.
func TestTitleWithoutSeparators(t *testing.T) {
	data := "PLANILHA ORÇAMENTÁRIA - ESCOLA\nItem;Código;Descrição;Unid.;Quant.\n1;;ALVENARIA;;\n1.1;89306;ALVENARIA 14 CM;M2;120,50\n"
	sh, err := Read(context.Background(), "t.csv", strings.NewReader(data), int64(len(data)), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if sh.HeaderRow != 2 || len(sh.Lines) != 1 || sh.Lines[0].Quantity.String() != "120.5" {
		t.Errorf("header row %d, lines %+v", sh.HeaderRow, sh.Lines)
	}
}
