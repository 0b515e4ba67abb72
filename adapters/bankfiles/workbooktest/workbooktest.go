// Package workbooktest writes SINAPI national workbooks
// (SINAPI_Referência_AAAA_MM.xlsx) in the layout docs/importing.md
// describes, with excelize's streaming writer, for tests and benchmarks. It
// is test support: nothing in costdb's service uses it.
//
// The layout it writes follows the public description of Caixa's workbook:
// the sheets Menu, Busca, ISD, ICD, ISE, CSD, CCD, CSE, Analítico and
// Analítico com Custo; a title in A1, "Mês de Referência" in A3 and the month
// as text in B3; the header in row 10 (titles with line breaks where Caixa
// has them); one column per state (UF) in the insumo sheets; two columns per
// state (Custo (R$), %AS) in the composition sheets, the state named once in
// row 9, merged over both; composition codes as HYPERLINK formulas whose
// stored value is empty; Analítico with a composition's line (Tipo Item
// empty) followed by its items. Where the real layout is not known (the
// text of A4, of the Menu and Busca sheets, the values of Origem de Preço,
// %AS and Situação) it writes fillers.
package workbooktest

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// States are the 27 states (UF) in the order of the workbook's columns.
var States = strings.Fields("AC AL AM AP BA CE DF ES GO MA MG MS MT PA PB PE PI PR RJ RN RO RR RS SC SE SP TO")

// Regime indexes the two price columns of a record: [ND] sem desoneração
// (sheets ISD, CSD), [D] com desoneração (ICD, CCD).
const (
	ND = 0
	D  = 1
)

// noCharges stands for the sheet ISE's prices (Insumo.NoCharges) where
// insumos takes a regime.
const noCharges = -1

// Insumo is one row of the insumo sheets.
type Insumo struct {
	Code, Description, Unit string
	Class                   string // Classificação: MATERIAL, MÃO DE OBRA, EQUIPAMENTO, SERVIÇOS
	// Prices by state: the cell of each regime. "" leaves the cell blank;
	// a number ("102.8") is written as a number cell, anything else
	// ("1.234,56", "abc") as text.
	Prices map[string][2]string
	// NoCharges are the prices without social charges by state, written
	// in the sheet ISE (left blank when absent).
	NoCharges map[string]string
}

// Composition is one row of the composition sheets and its lines in
// Analítico.
type Composition struct {
	Group, Code, Description, Unit string
	Costs                          map[string][2]string // as Insumo.Prices
	Items                          []Item
}

// Item is one item line of a composition in Analítico.
type Item struct {
	Kind        string // INSUMO or COMPOSICAO
	Code        string
	Description string
	Unit        string
	Coefficient string // written as Insumo.Prices
}

// Workbook is what to write.
type Workbook struct {
	Month        string // MM/YYYY, written as text in B3
	Insumos      []Insumo
	Compositions []Composition
	// States are the state columns, in order; nil: all 27.
	States []string

	// Variations, for tests of what the real file may do.
	Omit        []string                     // sheets left out
	Rename      map[string]map[string]string // sheet → header title → new title
	TextCodes   bool                         // codes as text cells (leading zeros kept)
	CachedCodes bool                         // composition code formulas also store the code as their value
	ZeroCodes   bool                         // composition code formulas store 0 as their value
	NoMerge     bool                         // the state over its cost column only, its %AS neighbour blank, not merged
	// StatesInHeader names each state in the header row itself, over its
	// cost column ("AC", "%AS"), with no row of states above: the other
	// reading of the composition sheets' header.
	StatesInHeader bool
	HeaderRow      int  // row of the headers (default 10)
	Footer         bool // a blank row and notes below the data of every sheet
	BlankInside    bool // a blank row in the middle of each sheet's data
}

// Title is A1 of the data sheets.
const Title = "SINAPI - Sistema Nacional de Pesquisa de Custos e Índices da Construção Civil"

// Write writes the workbook as XLSX.
func Write(w io.Writer, wb Workbook) error {
	if wb.States == nil {
		wb.States = States
	}
	if wb.HeaderRow == 0 {
		wb.HeaderRow = 10
	}
	f := excelize.NewFile()
	defer f.Close()
	omit := map[string]bool{}
	for _, s := range wb.Omit {
		omit[s] = true
	}
	first := true
	for _, sheet := range []string{"Menu", "Busca", "ISD", "ICD", "ISE", "CSD", "CCD", "CSE", "Analítico", "Analítico com Custo"} {
		if omit[sheet] {
			continue
		}
		if first {
			if err := f.SetSheetName("Sheet1", sheet); err != nil {
				return err
			}
			first = false
		} else if _, err := f.NewSheet(sheet); err != nil {
			return err
		}
		sw, err := f.NewStreamWriter(sheet)
		if err != nil {
			return err
		}
		switch sheet {
		case "ISD":
			err = wb.insumos(sw, sheet, ND, true)
		case "ICD":
			err = wb.insumos(sw, sheet, D, true)
		case "ISE":
			err = wb.insumos(sw, sheet, noCharges, false)
		case "CSD":
			err = wb.compositions(sw, sheet, ND, true)
		case "CCD":
			err = wb.compositions(sw, sheet, D, true)
		case "CSE":
			err = wb.compositions(sw, sheet, ND, false)
		case "Analítico":
			err = wb.analytic(sw, sheet)
		default:
			err = sw.SetRow("A1", []any{sheet + " (filler: the content of this sheet is not known)"})
		}
		if err == nil {
			err = sw.Flush()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sheet, err)
		}
	}
	return f.Write(w)
}

// title writes rows 1 to 4.
func (wb *Workbook) title(sw *excelize.StreamWriter, what string) error {
	for _, r := range []struct {
		row   int
		cells []any
	}{
		{1, []any{Title}},
		{2, []any{what}},
		{3, []any{"Mês de Referência:", wb.Month}},
		{4, []any{"Data de emissão:", "11/09/2026"}},
	} {
		if err := sw.SetRow(cell(1, r.row), r.cells); err != nil {
			return err
		}
	}
	return nil
}

func (wb *Workbook) header(sheet string, titles []string) []any {
	out := make([]any, len(titles))
	for i, t := range titles {
		if n, ok := wb.Rename[sheet][t]; ok {
			t = n
		}
		out[i] = t
	}
	return out
}

// value is a cell of a price, cost, coefficient or code.
func value(s string) any {
	if s == "" {
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, ",eE") && !(len(s) > 1 && s[0] == '0' && s[1] != '.') {
		return f
	}
	return s
}

func (wb *Workbook) code(s string) any {
	if wb.TextCodes {
		return s
	}
	return value(s)
}

func (wb *Workbook) insumos(sw *excelize.StreamWriter, sheet string, g int, priced bool) error {
	if err := wb.title(sw, "Preços de insumos"); err != nil {
		return err
	}
	titles := append([]string{"Classificação", "Código do\nInsumo", "Descrição do Insumo", "Unidade", "Origem de Preço"}, wb.States...)
	row := wb.HeaderRow
	if err := sw.SetRow(cell(1, row), wb.header(sheet, titles)); err != nil {
		return err
	}
	for i, in := range wb.Insumos {
		row++
		if wb.BlankInside && i == len(wb.Insumos)/2 {
			row++
		}
		cells := []any{in.Class, wb.code(in.Code), in.Description, in.Unit, "C"}
		for _, st := range wb.States {
			var v any
			switch {
			case g == noCharges:
				v = value(in.NoCharges[st])
			case priced:
				v = value(in.Prices[st][g])
			}
			cells = append(cells, v)
		}
		if err := sw.SetRow(cell(1, row), cells); err != nil {
			return err
		}
	}
	return wb.footer(sw, row)
}

func (wb *Workbook) compositions(sw *excelize.StreamWriter, sheet string, g int, priced bool) error {
	if err := wb.title(sw, "Custos de composições"); err != nil {
		return err
	}
	row := wb.HeaderRow
	titles := []string{"Grupo", "Código da\nComposição", "Descrição", "Unidade"}
	if wb.StatesInHeader {
		for _, st := range wb.States {
			titles = append(titles, st, "%AS")
		}
	} else {
		// Row above the header: each state once, over its two columns.
		states := make([]any, 4, 4+2*len(wb.States))
		for _, st := range wb.States {
			states = append(states, st, nil)
		}
		if err := sw.SetRow(cell(1, row-1), states); err != nil {
			return err
		}
		for i := range wb.States {
			if wb.NoMerge {
				break
			}
			if err := sw.MergeCell(cell(5+2*i, row-1), cell(6+2*i, row-1)); err != nil {
				return err
			}
		}
		for range wb.States {
			titles = append(titles, "Custo (R$)", "%AS")
		}
	}
	if err := sw.SetRow(cell(1, row), wb.header(sheet, titles)); err != nil {
		return err
	}
	for i, c := range wb.Compositions {
		row++
		if wb.BlankInside && i == len(wb.Compositions)/2 {
			row++
		}
		link := excelize.Cell{Formula: fmt.Sprintf(`HYPERLINK("#"&CELL("address",OFFSET(Analítico!$B$1,MATCH(%s,Analítico!$B:$B,0)-1,3)),%s)`, c.Code, c.Code)}
		switch {
		case wb.CachedCodes:
			link.Value = wb.code(c.Code)
		case wb.ZeroCodes:
			link.Value = 0
		}
		cells := []any{c.Group, link, c.Description, c.Unit}
		for _, st := range wb.States {
			var v, as any
			if priced {
				if v = value(c.Costs[st][g]); v != nil {
					as = 0.0 // %AS: filler
				}
			}
			cells = append(cells, v, as)
		}
		if err := sw.SetRow(cell(1, row), cells); err != nil {
			return err
		}
	}
	return wb.footer(sw, row)
}

func (wb *Workbook) analytic(sw *excelize.StreamWriter, sheet string) error {
	if err := wb.title(sw, "Composições analíticas"); err != nil {
		return err
	}
	row := wb.HeaderRow
	titles := []string{"Grupo", "Código da\nComposição", "Tipo Item", "Código do\nItem", "Descrição", "Unidade", "Coeficiente", "Situação"}
	if err := sw.SetRow(cell(1, row), wb.header(sheet, titles)); err != nil {
		return err
	}
	for i, c := range wb.Compositions {
		if len(c.Items) == 0 {
			continue
		}
		row++
		if wb.BlankInside && i == len(wb.Compositions)/2 {
			row++
		}
		if err := sw.SetRow(cell(1, row), []any{c.Group, wb.code(c.Code), nil, nil, c.Description, c.Unit, nil, "COM CUSTO"}); err != nil {
			return err
		}
		for _, it := range c.Items {
			row++
			if err := sw.SetRow(cell(1, row), []any{c.Group, wb.code(c.Code), it.Kind, wb.code(it.Code), it.Description, it.Unit, value(it.Coefficient), "COM CUSTO"}); err != nil {
				return err
			}
		}
	}
	return wb.footer(sw, row)
}

func (wb *Workbook) footer(sw *excelize.StreamWriter, row int) error {
	if !wb.Footer {
		return nil
	}
	if err := sw.SetRow(cell(1, row+2), []any{"Fonte: SINAPI/CAIXA (filler note)"}); err != nil {
		return err
	}
	return sw.SetRow(cell(1, row+3), []any{"Os preços em branco não foram coletados no mês."})
}

func cell(col, row int) string {
	name, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		panic(err)
	}
	return name
}

// Synthetic is a generated workbook of the given size, for benchmarks:
// every state priced (a few blank cells, as in the real file), insumos
// with codes from 10000, compositions from 80000, each composition with
// items (insumos, and compositions listed before it) so that Analítico has
// compositions × (items + 1) rows. Figures are deterministic and carry two
// decimals; coefficients up to seven.
func Synthetic(insumos, compositions, items int) Workbook {
	wb := Workbook{Month: "08/2026"}
	seed := uint64(88309)
	next := func() uint64 {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return seed
	}
	money := func() string {
		n := next()%500000 + 1
		return strconv.FormatUint(n/100, 10) + "." + fmt.Sprintf("%02d", n%100)
	}
	classes := []string{"MATERIAL", "MATERIAL", "MATERIAL", "MÃO DE OBRA", "EQUIPAMENTO", "SERVIÇOS"}
	for i := 0; i < insumos; i++ {
		in := Insumo{Code: strconv.Itoa(10000 + i), Description: fmt.Sprintf("INSUMO SINTÉTICO %d, DESCRIÇÃO COMO A DE CAIXA, COM MEDIDAS 14 X 19 X 29 CM", i),
			Unit: "UN", Class: classes[i%len(classes)], Prices: make(map[string][2]string, len(States))}
		for j, st := range States {
			if (i+j)%97 == 0 {
				continue // not priced in this state this month
			}
			p := money()
			in.Prices[st] = [2]string{p, p}
		}
		wb.Insumos = append(wb.Insumos, in)
	}
	for i := 0; i < compositions; i++ {
		c := Composition{Group: fmt.Sprintf("Grupo %d", i%60), Code: strconv.Itoa(80000 + i),
			Description: fmt.Sprintf("COMPOSIÇÃO SINTÉTICA %d, EXECUÇÃO DE SERVIÇO COM DESCRIÇÃO LONGA. AF_07/2026", i),
			Unit:        "M2", Costs: make(map[string][2]string, len(States))}
		for j, st := range States {
			if (i+j)%89 == 0 {
				continue
			}
			c.Costs[st] = [2]string{money(), money()}
		}
		for k := 0; k < items; k++ {
			it := Item{Kind: "INSUMO", Code: strconv.Itoa(10000 + int(next()%uint64(insumos))), Description: "ITEM", Unit: "UN",
				Coefficient: fmt.Sprintf("%d.%07d", next()%10, next()%10000000)}
			if i > 0 && k%4 == 3 {
				it.Kind, it.Code = "COMPOSICAO", strconv.Itoa(80000+int(next()%uint64(i)))
			}
			c.Items = append(c.Items, it)
		}
		wb.Compositions = append(wb.Compositions, c)
	}
	return wb
}
