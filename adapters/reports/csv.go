// Package reports renders the budget reports the domain computes
// (domain.SyntheticReport, domain.AnalyticReport, domain.ABCReport) in the
// formats people open outside the API: CSV for spreadsheets and an SVG
// Pareto chart of the ABC curve. It is pure formatting: every figure is
// the domain's, written as it is, never recomputed.
//
// The CSV files are made for spreadsheets set up for Brazil (Excel and
// LibreOffice in pt-BR), which is where budgets are opened:
//
//   - UTF-8 with a byte order mark, so that Excel reads the accents right;
//   - fields separated by ";" (the comma is the decimal separator there);
//   - decimal comma and no thousands separator ("22072,37"), so that every
//     figure is read as a number; money with 2 places, quantities and
//     coefficients with every digit the domain keeps;
//   - CRLF line ends, quotes only where a field needs them (RFC 4180);
//   - a header row in Portuguese, then one row per report row, then the
//     footer rows (totals), whose label is in the description column;
//   - a text field that starts with =, +, -, @, a tab or a carriage return
//     gets a leading apostrophe, so that a spreadsheet never runs it as a
//     formula (descriptions and codes of the company's own records are free
//     text).
//
// That default is what machines read, and stays as it is. A spreadsheet
// opening it reads a code or an item number that looks like a number as
// one: "0909620" becomes 909620, the item "2.100" 2100 (the dot is the
// thousands separator in pt-BR), a data-base "08/2026" a date. The
// ForSpreadsheet variant (?format=csv-excel in the API) writes those cells
// (item number, code, data-base, unit, region) as text formulas,
// ="0909620", which Excel and LibreOffice show as the text itself; every
// other cell is as in the default. See docs/budgets.md.
package reports

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// CSVMediaType is the media type of the CSV exports.
const CSVMediaType = "text/csv; charset=utf-8; header=present"

// SVGMediaType is the media type of the chart.
const SVGMediaType = "image/svg+xml"

// bom is the UTF-8 byte order mark.
const bom = "\ufeff"

// Column headers.
var (
	syntheticHeader = []string{"Item", "Tipo", "Banco", "Data-base", "Código", "Descrição", "Unidade",
		"Quantidade", "Preço unitário", "Preço unitário com BDI", "Total", "Total com BDI", "Peso (%)"}
	analyticHeader = []string{"Item", "Nível", "Tipo", "Banco", "Data-base", "Código", "Descrição", "Unidade",
		"Quantidade / coeficiente", "Preço unitário", "Preço unitário com BDI", "Total / parcial", "Total com BDI",
		"Mão de obra (unit.)", "Material (unit.)", "Equipamento (unit.)", "Serviços (unit.)"}
	abcHeader = []string{"Posição", "Banco", "Data-base", "Código", "Descrição", "Unidade", "Tipo",
		"Quantidade", "Preço unitário", "Total", "Percentual (%)", "Percentual acumulado (%)", "Classe"}
)

// CSVOption changes how a CSV export is written.
type CSVOption int

// ForSpreadsheet writes the cells whose form a spreadsheet would change
// (item numbers, codes, data-bases, units, regions) as text formulas.
const ForSpreadsheet CSVOption = 1

// table writes CSV rows of a fixed width.
type table struct {
	w     *bufio.Writer
	c     *csv.Writer
	width int
	rec   []string
	// excel: ForSpreadsheet was asked for (see code).
	excel bool
	// items are the cells of the analytic report's items, by item.
	items map[*domain.AnalyticItem]map[int]string
}

func newTable(w io.Writer, header []string, opts ...CSVOption) (*table, error) {
	bw := bufio.NewWriterSize(w, 32<<10) // a report is streamed to the answer
	if _, err := bw.WriteString(bom); err != nil {
		return nil, err
	}
	c := csv.NewWriter(bw)
	c.Comma = ';'
	c.UseCRLF = true
	t := &table{w: bw, c: c, width: len(header), rec: make([]string, len(header)), items: map[*domain.AnalyticItem]map[int]string{}}
	for _, o := range opts {
		t.excel = t.excel || o == ForSpreadsheet
	}
	return t, t.c.Write(header)
}

// code writes a cell a spreadsheet must keep as it is written (a code,
// an item number, a data-base, a unit): as text (guarded by text) by
// default; for a spreadsheet (ForSpreadsheet) as the text formula
// ="…" (quotes doubled), which shows the text itself, leading zeros
// and dots kept. A text formula holds at most 255 characters in Excel:
// a longer cell is written as text.
func (t *table) code(s string) string {
	if !t.excel || s == "" || len(s) > 250 {
		return text(s)
	}
	return `="` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// number writes an item number ("2.100"): as it is by default (it never
// starts with a formula character), a text formula for a spreadsheet.
func (t *table) number(s string) string {
	if !t.excel {
		return s
	}
	return t.code(s)
}

// month writes a data-base ("08/2026", which a spreadsheet reads as a
// date): as it is by default, a text formula for a spreadsheet.
func (t *table) month(s string) string { return t.number(s) }

// row writes cells placed by column index; missing cells are empty.
func (t *table) row(cells map[int]string) error {
	rec := t.rec // csv.Writer keeps nothing of it
	clear(rec)
	for i, v := range cells {
		rec[i] = v
	}
	return t.c.Write(rec)
}

func (t *table) flush() error {
	t.c.Flush()
	if err := t.c.Error(); err != nil {
		return err
	}
	return t.w.Flush()
}

// Money writes an amount with 2 places and a decimal comma ("1234,50").
func Money(d decimal.Decimal) string {
	var buf [24]byte
	return string(domain.AppendFixed2(buf[:0], d, ','))
}

// Price writes a unit price with at least 2 places (a SICRO-model
// composition may carry 4) and a decimal comma.
func Price(d decimal.Decimal) string {
	d = atMost10Places(d)
	if d.Exponent() > -2 || d.Equal(d.Truncate(2)) {
		return Money(d) // 110.00 stays "110,00", not "110"
	}
	return strings.Replace(d.String(), ".", ",", 1)
}

// Quantity writes a quantity or coefficient with every digit and a decimal
// comma ("120,5", "0,0175"), up to 10 places (see atMost10Places).
func Quantity(d decimal.Decimal) string {
	if s, ok := quantityFast(d); ok {
		return s
	}
	return strings.Replace(atMost10Places(d).String(), ".", ",", 1)
}

// atMost10Places rounds half up to 10 places a computed number with more
// (an exploded quantity: the product of several coefficients), as the JSON
// answers do: no export writes a number with more places.
func atMost10Places(d decimal.Decimal) decimal.Decimal {
	if d.Exponent() < -10 {
		return d.Round(10)
	}
	return d
}

// text guards a free-text cell against being read as a formula.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// KindName is the Portuguese name of a node or item kind.
func KindName(k string) string {
	switch k {
	case string(domain.NodeStage):
		return "Etapa"
	case string(domain.NodeComposition):
		return "Composição"
	case string(domain.NodeResource):
		return "Insumo"
	}
	return k
}

// TypeName names what an ABC row is: its resource type (Material, Mão de
// obra…), or "Composição" for a bank composition that stays whole.
func TypeName(kind domain.ItemKind, resourceType int) string {
	if kind == domain.KindComposition {
		return "Composição"
	}
	if n, ok := domain.ResourceTypes[resourceType]; ok {
		return n
	}
	return ""
}

// missingNote marks the description of a row without a price, whose price
// cells are left empty (never 0); the footer says why (incompleteFooter).
func missingNote(desc string, missing bool) string {
	if missing {
		return desc + " (sem preço)"
	}
	return desc
}

// priceOrEmpty is Price, or an empty cell for a row without a price.
func priceOrEmpty(d decimal.Decimal, missing bool) string {
	if missing {
		return ""
	}
	return Price(d)
}

// moneyOrEmpty is Money, or an empty cell for a row without a price.
func moneyOrEmpty(d decimal.Decimal, missing bool) string {
	if missing {
		return ""
	}
	return Money(d)
}

// incompleteFooter writes, after the totals of a report that could not
// price everything, a row saying the totals are incomplete and one row per
// thing without a price: where (line number, bank, code) and why, every
// text in column label.
func incompleteFooter(t *table, label int, ms []domain.BudgetMissing) error {
	if len(ms) == 0 {
		return nil
	}
	if err := t.row(map[int]string{label: "Totais incompletos: " + strconv.Itoa(len(ms)) + " item(ns) sem preço, fora dos totais"}); err != nil {
		return err
	}
	for _, m := range ms {
		where := strings.TrimSpace(m.Number + " " + m.Bank + " " + m.Code)
		if err := t.row(map[int]string{label: text("Sem preço: " + where + ": " + m.Reason)}); err != nil {
			return err
		}
	}
	return nil
}

// BDILabel is the footer label of the BDI, naming every rate the BDI value
// applies: "BDI (25%)"; with lines that take the differentiated BDI of
// supply, "BDI (22,23%; fornecimento 14,02%)"; on the final total
// "BDI (25% sobre o total)", "BDI (22,23%; fornecimento 14,02%; sobre o
// total)". Every document (CSV, XLSX, PDF) labels its footer with it.
func BDILabel(b *domain.Budget) string {
	l := "BDI (" + Quantity(b.BDI) + "%"
	supply := len(b.SupplyLines()) > 0
	if supply {
		l += "; fornecimento " + Quantity(b.SupplyBDI) + "%"
	}
	if b.BDIMode == domain.BDIOnFinalTotal {
		if supply {
			l += ";"
		}
		l += " sobre o total"
	}
	return l + ")"
}

// SyntheticCSV writes the synthetic report: a row per stage and line, then
// three footer rows (Total sem BDI, BDI, Total com BDI) with their figure in
// the Total column.
func SyntheticCSV(w io.Writer, r *domain.SyntheticReport, opts ...CSVOption) error {
	t, err := newTable(w, syntheticHeader, opts...)
	if err != nil {
		return err
	}
	cells := map[int]string{}
	err = r.Each(func(row *domain.SyntheticRow) error { // streamed, when r is (domain.SyntheticStream)
		clear(cells)
		cells[0], cells[1], cells[5] = t.number(row.Number), KindName(string(row.Kind)), text(missingNote(row.Description, row.Missing))
		cells[10], cells[11], cells[12] = Money(row.Total), Money(row.TotalWithBDI), Money(row.Weight)
		if row.Kind.IsLine() {
			cells[2], cells[3], cells[4], cells[6] = row.Bank, t.month(row.Month), t.code(row.Code), t.code(row.Unit)
			cells[7], cells[8], cells[9] = Quantity(row.Quantity), priceOrEmpty(row.UnitPrice, row.Missing), priceOrEmpty(row.UnitPriceWithBDI, row.Missing)
		}
		return t.row(cells)
	})
	if err != nil {
		return err
	}
	if err := footer(t, r.Budget, r.BudgetTotals, 5, 10); err != nil {
		return err
	}
	if err := incompleteFooter(t, 5, r.Missing); err != nil {
		return err
	}
	return t.flush()
}

// footer writes the three total rows: label in column label, figure in
// column fig.
func footer(t *table, b *domain.Budget, tot domain.BudgetTotals, label, fig int) error {
	for _, f := range []struct {
		name string
		v    decimal.Decimal
	}{{"Total sem BDI", tot.Total}, {BDILabel(b), tot.BDIValue}, {"Total com BDI", tot.TotalWithBDI}} {
		if err := t.row(map[int]string{label: f.name, fig: Money(f.v)}); err != nil {
			return err
		}
	}
	return nil
}

// AnalyticCSV writes the analytic report: every synthetic row (Nível 0),
// each composition line followed by its items per unit of the composition
// (Nível 1, and 2, 3… for the items of the compositions among them, Item
// repeating the line's number so that a filter keeps them together), the
// line's one-unit summary by category in the last four columns; then the
// footer: the three totals, and the budget's direct cost by category (from
// its resources, as the ABC curve).
func AnalyticCSV(w io.Writer, r *domain.AnalyticReport, opts ...CSVOption) error {
	t, err := newTable(w, analyticHeader, opts...)
	if err != nil {
		return err
	}
	cells := map[int]string{}
	err = r.Each(func(row *domain.AnalyticRow) error { // streamed, when r is (domain.AnalyticStream)
		clear(cells)
		cells[0], cells[1], cells[2], cells[6] = t.number(row.Number), "0", KindName(string(row.Kind)), text(missingNote(row.Description, row.Missing))
		cells[11], cells[12] = Money(row.Total), Money(row.TotalWithBDI)
		if row.Kind.IsLine() {
			cells[3], cells[4], cells[5], cells[7] = row.Bank, t.month(row.Month), t.code(row.Code), t.code(row.Unit)
			cells[8], cells[9], cells[10] = Quantity(row.Quantity), priceOrEmpty(row.UnitPrice, row.Missing), priceOrEmpty(row.UnitPriceWithBDI, row.Missing)
			s := row.UnitSummary
			cells[13], cells[14], cells[15], cells[16] = Money(s.Labor), Money(s.Material), Money(s.Equipment), Money(s.Services)
		}
		if err := t.row(cells); err != nil {
			return err
		}
		return analyticItems(t, row.Number, 1, row.Items)
	})
	if err != nil {
		return err
	}
	if err := footer(t, r.Budget, r.BudgetTotals, 6, 11); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    decimal.Decimal
	}{
		{"Custo direto pelos insumos: mão de obra", r.Summary.Labor},
		{"Custo direto pelos insumos: material", r.Summary.Material},
		{"Custo direto pelos insumos: equipamento", r.Summary.Equipment},
		{"Custo direto pelos insumos: serviços", r.Summary.Services},
	} {
		if err := t.row(map[int]string{6: f.name, 11: Money(f.v)}); err != nil {
			return err
		}
	}
	if err := incompleteFooter(t, 6, r.Missing); err != nil {
		return err
	}
	return t.flush()
}

func analyticItems(t *table, number string, level int, items []domain.AnalyticItem) error {
	for i := range items {
		it := &items[i]
		// An item's cells but the first two are the same wherever it is
		// (subtrees are shared between the lines that open the same
		// composition): formatted once per report.
		cells, ok := t.items[it]
		if !ok {
			cells = map[int]string{
				2: KindName(string(it.Kind)), 3: it.Bank, 4: t.month(it.Month),
				5: t.code(it.Code), 6: text(missingNote(it.Description, it.Missing)), 7: t.code(it.Unit),
				8: Quantity(it.Coefficient), 9: priceOrEmpty(it.UnitPrice, it.Missing), 11: priceOrEmpty(it.Partial, it.Missing),
			}
			t.items[it] = cells
		}
		cells[0], cells[1] = t.number(number), strconv.Itoa(level)
		if err := t.row(cells); err != nil {
			return err
		}
		if err := analyticItems(t, number, level+1, it.Items); err != nil {
			return err
		}
	}
	return nil
}

// ABCCSV writes the ABC curve: a row per resource, ranked, then a footer
// row with the total.
func ABCCSV(w io.Writer, r *domain.ABCReport, opts ...CSVOption) error {
	t, err := newTable(w, abcHeaderOf(r), opts...)
	if err != nil {
		return err
	}
	for _, row := range r.Rows {
		desc := row.Description
		if row.Idle {
			desc += " (hora improdutiva)"
		}
		cells := map[int]string{
			0: strconv.Itoa(row.Position), 1: row.Ref.Name, 2: t.month(row.Ref.Month), 3: t.code(row.Code),
			4: text(missingNote(desc, row.Missing)), 5: t.code(row.Unit), 6: abcTypeName(r, &row),
			7: Quantity(row.Quantity), 8: priceOrEmpty(row.UnitPrice, row.Missing), 9: moneyOrEmpty(row.Total, row.Missing),
			10: Money(row.Percent), 11: Money(row.CumulativePercent), 12: string(row.Class),
		}
		if err := t.row(cells); err != nil {
			return err
		}
	}
	if err := t.row(map[int]string{4: "Total", 9: Money(r.Total), 10: Money(hundredIf(len(r.Rows) > 0 && r.Total.IsPositive()))}); err != nil {
		return err
	}
	ms := make([]domain.BudgetMissing, len(r.Missing))
	for i, m := range r.Missing {
		ms[i] = domain.BudgetMissing{MissingPrice: m}
	}
	if err := incompleteFooter(t, 4, ms); err != nil {
		return err
	}
	return t.flush()
}

func hundredIf(ok bool) decimal.Decimal {
	if ok {
		return decimal.NewFromInt(100)
	}
	return decimal.Zero
}

// Filename is the name an export is saved under:
// "orcamento-<code>-<report>.<ext>", the code reduced to letters, digits,
// "-", "_" and "." (accents dropped), so that it is safe in a
// Content-Disposition header and on every file system.
func Filename(b *domain.Budget, report, ext string) string { return VersionFilename(b, 0, report, ext) }

// VersionFilename is Filename for frozen version n of the budget:
// "orcamento-<code>-v<n>-<report>.<ext>", so that the files of two
// versions, and of a version and the budget as it is, are never saved
// under one name; n 0 is the budget as it is (Filename).
func VersionFilename(b *domain.Budget, n int, report, ext string) string {
	var sb strings.Builder
	for _, r := range b.Code {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			sb.WriteRune(r)
		default:
			if base, ok := unaccent[r]; ok {
				sb.WriteRune(base)
			} else {
				sb.WriteByte('_')
			}
		}
	}
	code := strings.Trim(sb.String(), "._")
	if code == "" {
		code = b.ID
	}
	if n > 0 {
		code += "-v" + strconv.Itoa(n)
	}
	return "orcamento-" + code + "-" + report + "." + ext
}

var unaccent = func() map[rune]rune {
	m := map[rune]rune{}
	for base, acc := range map[rune]string{
		'a': "àáâãä", 'A': "ÀÁÂÃÄ", 'e': "èéêë", 'E': "ÈÉÊË", 'i': "ìíîï", 'I': "ÌÍÎÏ",
		'o': "òóôõö", 'O': "ÒÓÔÕÖ", 'u': "ùúûü", 'U': "ÙÚÛÜ", 'c': "ç", 'C': "Ç", 'n': "ñ", 'N': "Ñ",
	} {
		for _, r := range acc {
			m[r] = base
		}
	}
	return m
}()
