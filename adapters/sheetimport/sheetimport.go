// Package sheetimport reads a tender's priced spreadsheet (planilha
// sintética, XLSX or CSV) into stages and lines, ready to be matched to
// banks and built into a budget. The header row is found by its titles;
// stages come from the item numbering (1, 1.1, 1.1.1: an item that is the
// prefix of another is a stage, the others are lines). Every row that
// cannot be read is reported with its spreadsheet row number and why, all
// at once.
package sheetimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// Column names a column of the sheet.
type Column int

const (
	ColItem Column = iota
	ColCode
	ColBank
	ColDescription
	ColUnit
	ColQuantity
	ColUnitPrice
	numColumns
)

var columnNames = [numColumns]string{"item", "code", "bank", "description", "unit", "quantity", "unit_price"}

func (c Column) String() string { return columnNames[c] }

// titles are the header titles of each column, normalised (upper case,
// no accents, no final dot or colon). A title matches when it equals one
// of them or starts with one followed by a space.
var titles = [numColumns][]string{
	ColItem:        {"ITEM", "ITENS", "N", "NO", "Nº", "NUM", "NUMERO"},
	ColCode:        {"CODIGO", "COD", "COD.", "CODIGO SINAPI", "CODIGO DO SERVICO", "REF", "REFERENCIA"},
	ColBank:        {"BANCO", "FONTE", "BASE", "ORIGEM", "TABELA", "SISTEMA"},
	ColDescription: {"DESCRICAO", "DISCRIMINACAO", "ESPECIFICACAO", "SERVICO", "SERVICOS", "DESCRICAO DOS SERVICOS"},
	ColUnit:        {"UNIDADE", "UN", "UND", "UNID", "UNID."},
	ColQuantity:    {"QUANTIDADE", "QUANT", "QUANT.", "QTD", "QTDE", "QTD."},
	ColUnitPrice:   {"PRECO UNITARIO", "VALOR UNITARIO", "CUSTO UNITARIO", "PRECO UNIT", "PRECO UNIT.", "P. UNIT", "P. UNIT.", "V. UNIT", "V. UNIT.", "VALOR UNIT", "VALOR UNIT.", "UNITARIO"},
}

// required columns: without them the sheet is refused as a whole.
var required = []Column{ColItem, ColDescription, ColUnit, ColQuantity}

// Limits bound a sheet: the file's (zip entries, sizes, ratio, CSV line)
// and the rows read.
type Limits struct {
	File      bankfiles.Limits
	Rows      int // rows read after the header; more is an error
	HeaderRow int // the header must be within the first HeaderRow rows
}

// DefaultLimits: a tender's sheet has hundreds to a few thousand rows.
var DefaultLimits = Limits{File: bankfiles.DefaultLimits, Rows: 20_000, HeaderRow: 50}

// Stage is a stage of the sheet (an item number with children).
type Stage struct {
	Row         int // spreadsheet row; 0 when the numbering implies it and no row states it
	Number      string
	Parent      string // "" at the top
	Description string
}

// Line is a leaf of the numbering: a priced line.
type Line struct {
	Row         int
	Number      string
	Stage       string // the parent stage's number; "" when the line is at the top
	Code        string
	Bank        string
	Description string
	Unit        string
	Quantity    decimal.Decimal
	UnitPrice   decimal.Decimal
	HasPrice    bool
}

// RowError is a row that cannot be read, and why.
type RowError struct {
	Row    int    `json:"row"`
	Column string `json:"column,omitempty"`
	Reason string `json:"reason"`
}

func (e RowError) Error() string {
	if e.Column != "" {
		return fmt.Sprintf("row %d, %s: %s", e.Row, e.Column, e.Reason)
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Reason)
}

// Sheet is a read spreadsheet: stages and lines in sheet order, the rows
// that could not be read, and the rows skipped as totals or notes.
type Sheet struct {
	HeaderRow int
	Columns   [numColumns]int // -1 when absent
	// PriceWithBDI: the only unit price column is titled "com BDI", so
	// the lines' UnitPrice include the tender's BDI (a column without
	// BDI is taken first when the sheet has both).
	PriceWithBDI bool
	Stages       []Stage
	Lines        []Line
	Errors       []RowError
	Skipped      []int
}

// Read reads the sheet in r. An error is returned for a file that cannot
// be read at all (not CSV or XLSX, over a limit, no header row); rows that
// cannot be read are in Sheet.Errors.
func Read(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (*Sheet, error) {
	sr, err := bankfiles.OpenSheetReader(ctx, name, r, size, l.File)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	sh := &Sheet{}
	for {
		line, cells, err := sr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no header row in the first %d rows: a row with the titles item, description, unit and quantity", l.HeaderRow)
		}
		if err != nil {
			return nil, err
		}
		if line > l.HeaderRow {
			return nil, fmt.Errorf("no header row in the first %d rows: a row with the titles item, description, unit and quantity", l.HeaderRow)
		}
		if cols, withBDI, ok := header(cells); ok {
			sh.HeaderRow, sh.Columns, sh.PriceWithBDI = line, cols, withBDI
			break
		}
	}
	type raw struct {
		row   int
		cells []string
	}
	var rows []raw
	for n := 0; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, cells, err := sr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n >= l.Rows {
			return nil, fmt.Errorf("more than %d rows after the header", l.Rows)
		}
		rows = append(rows, raw{line, append([]string(nil), cells...)})
	}
	cell := func(cells []string, c Column) string {
		i := sh.Columns[c]
		if i < 0 || i >= len(cells) {
			return ""
		}
		return cells[i]
	}
	// First pass: rows with an item number.
	type itemRow struct {
		row    int
		number string
		cells  []string
	}
	var items []itemRow
	seen := map[string]int{}
	for _, rw := range rows {
		item := cell(rw.cells, ColItem)
		if item == "" {
			if isNote(rw.cells) || (cell(rw.cells, ColQuantity) == "" && cell(rw.cells, ColCode) == "") {
				if !blank(rw.cells) {
					sh.Skipped = append(sh.Skipped, rw.row)
				}
				continue
			}
			sh.Errors = append(sh.Errors, RowError{Row: rw.row, Column: "item", Reason: "no item number on a row with a code or quantity"})
			continue
		}
		num, ok := itemNumber(item)
		if !ok {
			if isNote(rw.cells) {
				sh.Skipped = append(sh.Skipped, rw.row)
				continue
			}
			sh.Errors = append(sh.Errors, RowError{Row: rw.row, Column: "item", Reason: fmt.Sprintf("item number %q is not a numbering like 1, 1.1 or 1.1.1", item)})
			continue
		}
		if prev, dup := seen[num]; dup {
			sh.Errors = append(sh.Errors, RowError{Row: rw.row, Column: "item", Reason: fmt.Sprintf("item %s repeats row %d", num, prev)})
			continue
		}
		seen[num] = rw.row
		items = append(items, itemRow{rw.row, num, rw.cells})
	}
	parents := map[string]bool{}
	for _, it := range items {
		for p := parent(it.number); p != ""; p = parent(p) {
			parents[p] = true
		}
	}
	stageDone := map[string]bool{}
	var addStage func(num string, row int, desc string)
	addStage = func(num string, row int, desc string) {
		if stageDone[num] {
			return
		}
		if p := parent(num); p != "" && !stageDone[p] {
			addStage(p, 0, "")
		}
		stageDone[num] = true
		if desc == "" {
			desc = "Item " + num
		}
		sh.Stages = append(sh.Stages, Stage{Row: row, Number: num, Parent: parent(num), Description: desc})
	}
	for _, it := range items {
		desc := cell(it.cells, ColDescription)
		if parents[it.number] {
			addStage(it.number, it.row, desc)
			continue
		}
		if p := parent(it.number); p != "" {
			addStage(p, 0, "")
		}
		ln := Line{Row: it.row, Number: it.number, Stage: parent(it.number), Code: cell(it.cells, ColCode),
			Bank: cell(it.cells, ColBank), Description: desc, Unit: cell(it.cells, ColUnit)}
		bad := false
		if desc == "" {
			sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "description", Reason: "empty"})
			bad = true
		}
		q := cell(it.cells, ColQuantity)
		switch d, ok := sr.Number(q); {
		case q == "":
			sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "quantity", Reason: "empty"})
			bad = true
		case !ok:
			sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "quantity", Reason: fmt.Sprintf("%q is not a number", q)})
			bad = true
		case !d.IsPositive():
			sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "quantity", Reason: fmt.Sprintf("%s is not above zero", d)})
			bad = true
		default:
			ln.Quantity = d
		}
		if p := cell(it.cells, ColUnitPrice); p != "" {
			d, ok := sr.Number(p)
			switch {
			case !ok:
				sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "unit_price", Reason: fmt.Sprintf("%q is not a number", p)})
				bad = true
			case d.IsNegative():
				sh.Errors = append(sh.Errors, RowError{Row: it.row, Column: "unit_price", Reason: fmt.Sprintf("%s is negative", d)})
				bad = true
			default:
				ln.UnitPrice, ln.HasPrice = d, true
			}
		}
		if !bad {
			sh.Lines = append(sh.Lines, ln)
		}
	}
	return sh, nil
}

// normTitle normalises a header title: accents and case folded, a final
// dot, colon or asterisk dropped.
func normTitle(s string) string {
	t := bankfiles.NormalizeName(s)
	return strings.TrimRight(t, ":*")
}

func matchTitle(t string, c Column) bool {
	for _, w := range titles[c] {
		if t == w || strings.HasPrefix(t, w+" ") || strings.HasPrefix(t, w+"(") {
			return true
		}
	}
	return false
}

// header reports whether cells are the header row, and the columns.
func header(cells []string) (cols [numColumns]int, withBDI, ok bool) {
	for i := range cols {
		cols[i] = -1
	}
	for i, c := range cells {
		t := normTitle(c)
		if t == "" {
			continue
		}
		for col := ColItem; col < numColumns; col++ {
			if !matchTitle(t, col) {
				continue
			}
			bdi := col == ColUnitPrice && strings.Contains(t, "COM BDI")
			// The first column of each title is taken, but a unit price
			// without BDI (the cost the budget's BDI applies to) is
			// preferred to one with BDI, wherever it stands.
			if cols[col] < 0 || (col == ColUnitPrice && withBDI && !bdi) {
				cols[col] = i
				if col == ColUnitPrice {
					withBDI = bdi
				}
				break
			}
		}
	}
	for _, c := range required {
		if cols[c] < 0 {
			return cols, false, false
		}
	}
	return cols, withBDI, true
}

// itemNumber normalises an item number: digits separated by dots, a final
// dot dropped, leading zeros of each part dropped ("01.02" → "1.2").
func itemNumber(s string) (string, bool) {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if s == "" {
		return "", false
	}
	parts := strings.Split(s, ".")
	for i, p := range parts {
		if p == "" {
			return "", false
		}
		for _, r := range p {
			if r < '0' || r > '9' {
				return "", false
			}
		}
		p = strings.TrimLeft(p, "0")
		if p == "" {
			p = "0"
		}
		parts[i] = p
	}
	return strings.Join(parts, "."), true
}

func parent(num string) string {
	i := strings.LastIndexByte(num, '.')
	if i < 0 {
		return ""
	}
	return num[:i]
}

func blank(cells []string) bool {
	for _, c := range cells {
		if c != "" {
			return false
		}
	}
	return true
}

// isNote reports a totals or notes row: its first non-empty cell starts
// with TOTAL, SUBTOTAL, BDI, VALOR or OBS.
func isNote(cells []string) bool {
	for _, c := range cells {
		if c == "" {
			continue
		}
		t := normTitle(c)
		for _, p := range []string{"TOTAL", "SUBTOTAL", "SUB-TOTAL", "BDI", "VALOR TOTAL", "OBS", "PRECO TOTAL", "CUSTO TOTAL"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	}
	return false
}
