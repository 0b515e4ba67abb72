package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The physical-financial schedule (cronograma físico-financeiro) as a
// workbook: the budget documents' header, then per schedule row two sheet
// rows, its value per period (R$) and its share per period (%), the
// per-period total, percent, accumulated value and accumulated percent
// under them. Every figure the table computes is a formula with the
// table's exact value cached:
//
//	value  = TRUNC or ROUND(row value × accumulated share / 100, 2) at the
//	         period's end, less the same at its start (the budget's cut;
//	         domain.NewScheduleTable)
//	total  = SUMIF of the R$ rows of the period's column
//	%      = ROUND(total × 100 / grand total, 2); accumulated likewise
//
// The BDI row of a budget with BDI on the final total (domain: its cells in
// proportion to the periods' totals) holds numbers, not formulas: its
// shares are rounded for showing, and a formula over them would not give
// the cells.

// scheduleHeadingRow is the row of the schedule table's headings (the
// header takes rows 1 to 7).
const scheduleHeadingRow = 9

// scheduleFirstCol is the index (0-based) of the first period's column.
const scheduleFirstCol = 4

// maxScheduleColumns bounds the sheet's columns (sheet.put takes a column
// letter as a byte from 'A').
const maxScheduleColumns = 255 - 'A'

func colName(i int) string {
	name, _ := excelize.ColumnNumberToName(i + 1)
	return name
}

// ScheduleXLSX writes the schedule's table as a workbook.
func ScheduleXLSX(w io.Writer, t *domain.ScheduleTable, doc Document) error {
	n := len(t.Periods)
	if scheduleFirstCol+n > maxScheduleColumns {
		return fmt.Errorf("reports: a schedule of %d periods is too wide for a sheet", n)
	}
	b := t.Budget
	heads := []string{"Item", "Descrição", "Un.", "Valor (R$)"}
	for _, p := range t.Periods {
		heads = append(heads, p.Label)
	}
	cw := newColWidths(heads)
	for _, r := range t.Rows {
		cw.text('B', r.Description)
		cw.number('D', r.Value, 2)
		for k, c := range r.Cells {
			cw.number(byte('A'+scheduleFirstCol+k), c, 2)
		}
	}
	cw.number('D', t.Total, 2)
	lastCol := byte('A' + scheduleFirstCol + n - 1)
	lay := sheetLayout{widths: cw.widths('B', 30, 55), heading: scheduleHeadingRow, last: lastCol, profile: 'D'}
	title := "Cronograma físico-financeiro"
	k, err := newBook(b, doc, "Cronograma", title, lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	if err := k.put('A', 8, scheduleSpan(t)); err != nil {
		return err
	}
	if err := k.heading(scheduleHeadingRow, heads); err != nil {
		return err
	}
	cutFn := cut(b)
	first := scheduleHeadingRow + 1
	row := first
	for _, r := range t.Rows {
		vr, pr := row, row+1
		style, wrap, money := k.text, k.wrap, k.money
		if r.Kind == domain.NodeStage {
			style, wrap, money = k.stage, k.stageWrap, k.stageMoney
		}
		desc := r.Description
		for _, c := range []struct {
			col byte
			v   any
		}{{'A', excelize.Cell{StyleID: style, Value: r.Number}}, {'B', excelize.Cell{StyleID: wrap, Value: desc}},
			{'C', excelize.Cell{StyleID: style, Value: "R$"}}, {'D', number(r.Value, money)}} {
			if err := k.put(c.col, vr, c.v); err != nil {
				return err
			}
		}
		k.fit(vr, 'B', desc, r.Kind == domain.NodeStage)
		bdiRow := r.NodeID == ""
		first := colName(scheduleFirstCol)
		for i, c := range r.Cells {
			col := colName(scheduleFirstCol + i)
			var cell excelize.Cell
			if bdiRow {
				cell = number(c, money)
			} else {
				// The row's accumulated value cut at the period's end, less
				// the same at its start (domain.NewScheduleTable).
				fm := fmt.Sprintf("%s($D%d*SUM(%s%d:%s%d)/100,2)", cutFn, vr, first, pr, col, pr)
				if i > 0 {
					fm += fmt.Sprintf("-%s($D%d*SUM(%s%d:%s%d)/100,2)", cutFn, vr, first, pr, colName(scheduleFirstCol+i-1), pr)
				}
				cell = formula(c, fm, money)
			}
			if err := k.put(byte('A'+scheduleFirstCol+i), vr, cell); err != nil {
				return err
			}
		}
		if err := k.put('C', pr, "%"); err != nil {
			return err
		}
		sum := decimal.Zero
		for _, sh := range r.Shares {
			sum = sum.Add(sh)
		}
		if bdiRow {
			if err := k.put('D', pr, number(sum, k.money)); err != nil {
				return err
			}
		} else if err := k.put('D', pr, formula(sum, fmt.Sprintf("SUM(%s%d:%s%d)", colName(scheduleFirstCol), pr, colName(scheduleFirstCol+n-1), pr), k.money)); err != nil {
			return err
		}
		for i, sh := range r.Shares {
			if err := k.put(byte('A'+scheduleFirstCol+i), pr, number(sh, k.money)); err != nil {
				return err
			}
		}
		row += 2
	}
	lastRow := row - 1
	tot, pct, acc, accPct := row, row+1, row+2, row+3
	sumif := func(col string) string {
		return fmt.Sprintf("SUMIF($C$%d:$C$%d,\"R$\",%s$%d:%s$%d)", first, lastRow, col, first, col, lastRow)
	}
	labels := []struct {
		r int
		s string
	}{{tot, "Total do período"}, {pct, "% do período"}, {acc, "Total acumulado"}, {accPct, "% acumulado"}}
	for _, l := range labels {
		if err := k.put('B', l.r, excelize.Cell{StyleID: k.bold, Value: l.s}); err != nil {
			return err
		}
		switch l.r {
		case tot:
			if err := k.put('D', l.r, formula(t.Total, sumif("D"), k.boldMoney)); err != nil {
				return err
			}
			for i, p := range t.Periods {
				if err := k.put(byte('A'+scheduleFirstCol+i), l.r, formula(p.Total, sumif(colName(scheduleFirstCol+i)), k.boldMoney)); err != nil {
					return err
				}
			}
		case pct, acc, accPct:
			for i, p := range t.Periods {
				col := colName(scheduleFirstCol + i)
				var cell excelize.Cell
				switch l.r {
				case pct:
					cell = formula(p.Percent, fmt.Sprintf("IF($D$%d=0,0,ROUND(%s%d*100/$D$%d,2))", tot, col, tot, tot), k.boldMoney)
				case acc:
					fm := fmt.Sprintf("%s%d", col, tot)
					if i > 0 {
						fm = fmt.Sprintf("%s%d+%s", colName(scheduleFirstCol+i-1), acc, fm)
					}
					cell = formula(p.Accumulated, fm, k.boldMoney)
				default:
					cell = formula(p.AccumulatedPercent, fmt.Sprintf("IF($D$%d=0,0,ROUND(%s%d*100/$D$%d,2))", tot, col, acc, tot), k.boldMoney)
				}
				if err := k.put(byte('A'+scheduleFirstCol+i), l.r, cell); err != nil {
					return err
				}
			}
		}
	}
	if err := k.f.AutoFilter(k.name, fmt.Sprintf("A%d:%s%d", scheduleHeadingRow, colName(scheduleFirstCol+n-1), lastRow), nil); err != nil {
		return err
	}
	if _, err := k.signature(b, doc, accPct+3, 'D'); err != nil {
		return err
	}
	return k.finish(w, b)
}

// scheduleSpan describes the schedule's periods, for the line above the
// table.
func scheduleSpan(t *domain.ScheduleTable) string {
	s := t.Schedule
	unit := "meses"
	if s.Days > 0 {
		unit = fmt.Sprintf("períodos de %d dias", s.Days)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s a partir de %s", s.Periods, unit, s.Start)
	if len(t.Missing) > 0 {
		b.WriteString(" · incompleto: há linhas sem preço")
	}
	return b.String()
}

// schedulePDFBlock is how many periods a page of the schedule's PDF shows
// side by side; a longer schedule is laid out in blocks of periods, each
// opened by a row naming its periods.
const schedulePDFBlock = 8

// SchedulePDF writes the schedule's table as a PDF for the client, with
// the budget documents' header, footer (page numbers) and signature: per
// schedule row its value per period (R$) and its share (%), then the
// periods' totals, percents, accumulated values and accumulated percents.
func SchedulePDF(w io.Writer, t *domain.ScheduleTable, doc Document) error {
	n := len(t.Periods)
	m := min(n, schedulePDFBlock)
	cols := []pdfCol{{"Item", 36, false}, {"Descrição", 0, false}, {"Un.", 24, false}, {"Valor (R$)", 70, true}}
	for i := 0; i < m; i++ {
		title := fmt.Sprintf("Período %d", i+1)
		if n <= schedulePDFBlock {
			title = t.Periods[i].Label
		}
		cols = append(cols, pdfCol{title, 62, true})
	}
	tb := pdfTable{title: "Cronograma físico-financeiro · " + scheduleSpan(t), cols: cols, desc: 1}
	return tablePDF(w, t.Budget, doc, tb, func(emit func(*pdfRow) error) error {
		cells := make([]string, len(cols))
		row := pdfRow{cells: cells}
		put := func(kind pdfRowKind, depth int, item, desc, unit, value string, per func(k int) string, from int) error {
			clear(cells)
			cells[0], cells[1], cells[2], cells[3] = item, desc, unit, value
			for i := 0; i < m && from+i < n; i++ {
				cells[4+i] = per(from + i)
			}
			row.kind, row.depth = kind, depth
			return emit(&row)
		}
		for from := 0; from < n; from += m {
			if n > m {
				labels := func(k int) string { return t.Periods[k].Label }
				if err := put(pdfStage, 1, "", fmt.Sprintf("Períodos %d a %d", from+1, min(from+m, n)), "", "", labels, from); err != nil {
					return err
				}
			}
			for _, r := range t.Rows {
				kind := pdfLine
				if r.Kind == domain.NodeStage {
					kind = pdfTotal
				}
				if err := put(kind, 1, r.Number, r.Description, "R$", brl(r.Value), func(k int) string { return brl(r.Cells[k]) }, from); err != nil {
					return err
				}
				if err := put(pdfLine, 1, "", "", "%", "100,00", func(k int) string { return brl(r.Shares[k]) }, from); err != nil {
					return err
				}
			}
			foot := []struct {
				label, value string
				per          func(k int) string
			}{
				{"Total do período", brl(t.Total), func(k int) string { return brl(t.Periods[k].Total) }},
				{"% do período", "100,00", func(k int) string { return brl(t.Periods[k].Percent) }},
				{"Total acumulado", "", func(k int) string { return brl(t.Periods[k].Accumulated) }},
				{"% acumulado", "", func(k int) string { return brl(t.Periods[k].AccumulatedPercent) }},
			}
			for _, f := range foot {
				if err := put(pdfTotal, 0, "", f.label, "", f.value, f.per, from); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
