package reports

import (
	"fmt"
	"io"
	"strconv"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// A contract's documents (docs/contracts.md): the boletim de medição of a
// measurement and the accumulated statement, as workbooks and PDFs with
// the budget documents' header (the contract's frozen version: its number
// and hash), a line naming the contract, page numbers and the signature
// block. Every figure the boletim computes is a formula over the sheet's
// own cells with the boletim's exact value cached:
//
//	value(q)       = TRUNC or ROUND(unit price with BDI × q, 2)   (the contract's cut; Contract.Value)
//	this period    = value(accumulated) − value(previous)
//	balance        = value(contracted) − value(accumulated)
//	subtotal/total = SUM of the lines' cells
//	retention      = cut(period total × retention / 100, 2)
//	readjustment   = ROUND(period total × factor, 2)           (domain.Readjust)
//	net            = period total − retention + readjustment
//
// The statement's per-measurement values are the boletins' (numbers); its
// accumulated and balance values, totals and retentions are formulas.

// contractLine names the contract above a table.
func contractLine(c *domain.Contract) string {
	return fmt.Sprintf("Contrato %s · contratada: %s · início %s · retenção %s%% · índice %s (base %s)",
		c.Number, c.Contractor, dateLabel(c.StartDate), brl(c.Retention), c.IndexName, c.BaseMonth)
}

// measurementLine names a measurement above its boletim.
func measurementLine(m *domain.Measurement) string {
	return fmt.Sprintf("Medição nº %d · período de %s a %s · %s", m.Number, dateLabel(m.PeriodStart), dateLabel(m.PeriodEnd), statusLabel(m.Status))
}

// statusLabel names a measurement's status in Portuguese.
func statusLabel(s domain.RecordStatus) string {
	return map[domain.RecordStatus]string{domain.StatusDraft: "rascunho", domain.StatusSubmitted: "enviada",
		domain.StatusApproved: "aprovada"}[s]
}

// contractCut is the name of the spreadsheet function of the contract's cut.
func contractCut(c *domain.Contract) string {
	if c.BDI.Rounding == domain.BudgetRound {
		return "ROUND"
	}
	return "TRUNC"
}

// The boletim's columns.
var boletimHeads = []string{"Item", "Código", "Descrição", "Un.", "Preço unit. c/ BDI (R$)",
	"Qtd. contratada", "Qtd. anterior", "Qtd. do período", "Qtd. acumulada", "Qtd. saldo",
	"Valor contratado (R$)", "Valor anterior (R$)", "Valor do período (R$)", "Valor acumulado (R$)", "Valor saldo (R$)"}

// boletimHeadingRow is the row of the boletim's headings (the header takes
// rows 1 to 7, the contract and the measurement rows 8 and 9).
const boletimHeadingRow = 11

// BoletimXLSX writes a boletim de medição as a workbook; b is the budget
// of the contract's frozen version (the header).
func BoletimXLSX(w io.Writer, bol *domain.Boletim, b *domain.Budget, doc Document) error {
	c, m := bol.Contract, bol.Measurement
	cw := newColWidths(boletimHeads)
	for _, r := range bol.Rows {
		l := r.Line
		cw.text('B', l.Code)
		cw.text('C', l.Description)
		cw.number('E', l.UnitPriceWithBDI, 2)
		for i, q := range []decimal.Decimal{r.Contracted, r.Previous, r.ThisPeriod, r.Accumulated, r.Balance} {
			cw.number(byte('F'+i), q, places(q, 2, maxShownPlaces))
		}
	}
	for i, v := range []decimal.Decimal{bol.Totals.ContractedValue, bol.Totals.PreviousValue, bol.Totals.ThisValue,
		bol.Totals.AccumulatedValue, bol.Totals.BalanceValue} {
		cw.number(byte('K'+i), v, 2)
	}
	lay := sheetLayout{widths: cw.widths('C', 30, 60), heading: boletimHeadingRow, last: 'O', profile: 'K'}
	k, err := newBook(b, doc, "Boletim", fmt.Sprintf("Boletim de medição nº %d", m.Number), lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	if err := k.put('A', 8, contractLine(c)); err != nil {
		return err
	}
	if err := k.put('A', 9, measurementLine(m)); err != nil {
		return err
	}
	if err := k.heading(boletimHeadingRow, boletimHeads); err != nil {
		return err
	}
	cutFn := contractCut(c)
	row := boletimHeadingRow + 1
	stage, stageStart := -1, row
	closeStage := func() error {
		if stage < 0 || bol.Stages[stage].Number == "" {
			return nil // lines at the top level are in no stage
		}
		st := bol.Stages[stage]
		label := "Subtotal da etapa " + st.Number + " · " + st.Name
		if err := k.band(row, 'J', map[byte]string{'C': label}); err != nil {
			return err
		}
		for i, v := range []decimal.Decimal{st.ContractedValue, st.PreviousValue, st.ThisValue, st.AccumulatedValue, st.BalanceValue} {
			col := byte('K' + i)
			if err := k.put(col, row, formula(v, fmt.Sprintf("SUM(%c%d:%c%d)", col, stageStart, col, row-1), k.stageMoney)); err != nil {
				return err
			}
		}
		row++
		return nil
	}
	stageOf := map[string]int{}
	for i, st := range bol.Stages {
		stageOf[st.Number] = i
	}
	for _, r := range bol.Rows {
		l := r.Line
		if s := stageOf[l.Stage]; s != stage {
			if err := closeStage(); err != nil {
				return err
			}
			stage = s
			if st := bol.Stages[s]; st.Number != "" {
				// The stage's heading: a shaded band.
				if err := k.band(row, 'O', map[byte]string{'A': st.Number, 'C': st.Name}); err != nil {
					return err
				}
				row++
			}
			stageStart = row
		}
		qs := []excelize.Cell{number(r.Contracted, k.qty(r.Contracted)), number(r.Previous, k.qty(r.Previous)),
			number(r.ThisPeriod, k.qty(r.ThisPeriod)),
			formula(r.Accumulated, fmt.Sprintf("G%d+H%d", row, row), k.qty(r.Accumulated)),
			formula(r.Balance, fmt.Sprintf("F%d-I%d", row, row), k.qty(r.Balance))}
		value := func(qcol byte) string { return fmt.Sprintf("%s(E%d*%c%d,2)", cutFn, row, qcol, row) }
		vs := []excelize.Cell{formula(r.ContractedValue, value('F'), k.money), formula(r.PreviousValue, value('G'), k.money),
			formula(r.ThisValue, fmt.Sprintf("N%d-L%d", row, row), k.money), formula(r.AccumulatedValue, value('I'), k.money),
			formula(r.BalanceValue, fmt.Sprintf("K%d-N%d", row, row), k.money)}
		cells := []any{excelize.Cell{StyleID: k.text, Value: l.Number}, excelize.Cell{StyleID: k.text, Value: l.Code},
			excelize.Cell{StyleID: k.wrap, Value: l.Description}, excelize.Cell{StyleID: k.text, Value: l.Unit}, number(l.UnitPriceWithBDI, k.money)}
		for _, q := range qs {
			cells = append(cells, q)
		}
		for _, v := range vs {
			cells = append(cells, v)
		}
		for i, v := range cells {
			if err := k.put(byte('A'+i), row, v); err != nil {
				return err
			}
		}
		k.fit(row, 'C', l.Description, false)
		row++
	}
	if err := closeStage(); err != nil {
		return err
	}
	lastLine := row - 1
	total := row
	if err := k.put('C', total, excelize.Cell{StyleID: k.bold, Value: "Total"}); err != nil {
		return err
	}
	for i, v := range []decimal.Decimal{bol.Totals.ContractedValue, bol.Totals.PreviousValue, bol.Totals.ThisValue,
		bol.Totals.AccumulatedValue, bol.Totals.BalanceValue} {
		col := byte('K' + i)
		// The lines' cells (their item number set), not the subtotals'.
		fm := fmt.Sprintf("SUMIF($A$%d:$A$%d,\"<>\",%c%d:%c%d)", boletimHeadingRow+1, lastLine, col, boletimHeadingRow+1, col, lastLine)
		if err := k.put(col, total, formula(v, fm, k.boldMoney)); err != nil {
			return err
		}
	}
	// The footer: period total, retention, readjustment, net (column M,
	// its label in C).
	foot := total + 2
	readj := "Reajuste"
	if bol.ReadjustmentFactor.Valid {
		readj = "Reajuste (fator " + bol.ReadjustmentFactor.Decimal.String() + ")"
	}
	rows := []struct {
		label string
		cell  excelize.Cell
	}{
		{"Valor do período (c/ BDI)", formula(bol.PeriodTotal, fmt.Sprintf("M%d", total), k.boldMoney)},
		{"Retenção (" + brl(c.Retention) + "%)", formula(bol.Retention, fmt.Sprintf("%s(M%d*%s/100,2)", cutFn, foot, c.Retention.String()), k.boldMoney)},
	}
	if bol.Readjustment.Valid {
		rows = append(rows, struct {
			label string
			cell  excelize.Cell
		}{readj, formula(bol.Readjustment.Decimal, fmt.Sprintf("ROUND(M%d*%s,2)", foot, bol.ReadjustmentFactor.Decimal.String()), k.boldMoney)})
	}
	net := fmt.Sprintf("M%d-M%d", foot, foot+1)
	if bol.Readjustment.Valid {
		net += fmt.Sprintf("+M%d", foot+2)
	}
	rows = append(rows, struct {
		label string
		cell  excelize.Cell
	}{"Valor líquido", formula(bol.Net, net, k.boldMoney)})
	for i, r := range rows {
		if err := k.put('C', foot+i, excelize.Cell{StyleID: k.bold, Value: r.label}); err != nil {
			return err
		}
		if err := k.put('M', foot+i, r.cell); err != nil {
			return err
		}
	}
	next := foot + len(rows)
	if !bol.Readjustment.Valid && bol.ReadjustmentNote != "" {
		if err := k.put('C', next, "Reajuste não calculado: "+bol.ReadjustmentNote); err != nil {
			return err
		}
		next++
	}
	if err := k.tableEnd(lay, lastLine); err != nil {
		return err
	}
	if _, err := k.signature(b, doc, next+2, 'C'); err != nil {
		return err
	}
	return k.finish(w, b)
}

// BoletimPDF writes a boletim de medição as a PDF.
func BoletimPDF(w io.Writer, bol *domain.Boletim, b *domain.Budget, doc Document) error {
	c, m := bol.Contract, bol.Measurement
	cols := []pdfCol{{"Item", 26, false}, {"Código", 34, false}, {"Descrição", 0, false}, {"Un.", 20, false},
		{"Preço c/BDI", 50, true}, {"Qtd. contr.", 47, true}, {"Qtd. ant.", 44, true}, {"Qtd. per.", 44, true},
		{"Qtd. acum.", 47, true}, {"Qtd. saldo", 46, true}, {"Valor contr.", 54, true}, {"Valor ant.", 52, true},
		{"Valor per.", 52, true}, {"Valor acum.", 54, true}, {"Valor saldo", 54, true}}
	summary := [][2]string{{"Valor do período (c/ BDI)", "R$ " + brl(bol.PeriodTotal)},
		{"Retenção (" + brl(c.Retention) + "%)", "R$ " + brl(bol.Retention)}}
	if bol.Readjustment.Valid {
		summary = append(summary, [2]string{"Reajuste (fator " + bol.ReadjustmentFactor.Decimal.String() + ")", "R$ " + brl(bol.Readjustment.Decimal)})
	} else if bol.ReadjustmentNote != "" {
		summary = append(summary, [2]string{"Reajuste", "não calculado: " + bol.ReadjustmentNote})
	}
	summary = append(summary, [2]string{"Valor líquido", "R$ " + brl(bol.Net)})
	tb := pdfTable{title: fmt.Sprintf("Boletim de medição nº %d · contrato %s (%s) · período de %s a %s · %s", m.Number, c.Number, c.Contractor,
		dateLabel(m.PeriodStart), dateLabel(m.PeriodEnd), statusLabel(m.Status)),
		cols: cols, desc: 2, summary: summary,
		rule: "Quantidades na unidade da linha; valores em R$ = preço unit. c/ BDI × quantidade, " + map[string]string{"TRUNC": "truncado", "ROUND": "arredondado"}[contractCut(c)] + " a 2 casas; valor do período = acumulado − anterior."}
	return tablePDF(w, b, doc, tb, func(emit func(*pdfRow) error) error {
		cells := make([]string, len(cols))
		row := pdfRow{cells: cells}
		stageOf := map[string]int{}
		for i, st := range bol.Stages {
			stageOf[st.Number] = i
		}
		subtotal := func(st domain.BoletimStage, label string) error {
			clear(cells)
			cells[2] = label
			cells[10], cells[11], cells[12], cells[13], cells[14] = brl(st.ContractedValue), brl(st.PreviousValue), brl(st.ThisValue),
				brl(st.AccumulatedValue), brl(st.BalanceValue)
			row.kind, row.depth, row.carry = pdfTotal, 0, false
			return emit(&row)
		}
		stage := -1
		for _, r := range bol.Rows {
			l := r.Line
			if s := stageOf[l.Stage]; s != stage {
				if stage >= 0 && bol.Stages[stage].Number != "" {
					if err := subtotal(bol.Stages[stage], "Subtotal"); err != nil {
						return err
					}
				}
				stage = s
				if st := bol.Stages[s]; st.Number != "" {
					clear(cells)
					cells[0], cells[2] = st.Number, st.Name
					row.kind, row.depth, row.carry = pdfStage, 1, true
					if err := emit(&row); err != nil {
						return err
					}
				}
			}
			clear(cells)
			cells[0], cells[1], cells[2], cells[3], cells[4] = l.Number, l.Code, l.Description, l.Unit, brl(l.UnitPriceWithBDI)
			for i, q := range []decimal.Decimal{r.Contracted, r.Previous, r.ThisPeriod, r.Accumulated, r.Balance} {
				cells[5+i] = brlPlaces(q, int32(places(q, 2, maxShownPlaces)))
			}
			cells[10], cells[11], cells[12], cells[13], cells[14] = brl(r.ContractedValue), brl(r.PreviousValue), brl(r.ThisValue),
				brl(r.AccumulatedValue), brl(r.BalanceValue)
			row.kind, row.depth, row.carry = pdfLine, 2, false
			if err := emit(&row); err != nil {
				return err
			}
		}
		if stage >= 0 && bol.Stages[stage].Number != "" {
			if err := subtotal(bol.Stages[stage], "Subtotal"); err != nil {
				return err
			}
		}
		return subtotal(bol.Totals, "Total")
	})
}

// statementBlock is how many measurements a page of the statement's PDF
// shows side by side.
const statementBlock = 6

// StatementXLSX writes a contract's accumulated statement as a workbook:
// per line its contracted quantity and value, the value each approved
// measurement paid, the accumulated and the balance values; per
// measurement its total and retention.
func StatementXLSX(w io.Writer, st *domain.Statement, b *domain.Budget, doc Document) error {
	c := st.Contract
	n := len(st.Measurements)
	const first = 6 // the first measurement's column (G)
	if first+n+2 > maxScheduleColumns {
		return fmt.Errorf("reports: a statement of %d measurements is too wide for a sheet", n)
	}
	heads := []string{"Item", "Código", "Descrição", "Un.", "Qtd. contratada", "Valor contratado (R$)"}
	for _, m := range st.Measurements {
		heads = append(heads, "Medição "+strconv.Itoa(m.Number)+" ("+dateLabel(m.PeriodEnd)+")")
	}
	heads = append(heads, "Valor acumulado (R$)", "Valor saldo (R$)")
	accCol, balCol := colName(first+n), colName(first+n+1)
	cw := newColWidths(heads)
	for _, r := range st.Rows {
		cw.text('B', r.Line.Code)
		cw.text('C', r.Line.Description)
		cw.number('E', r.Contracted, places(r.Contracted, 2, maxShownPlaces))
	}
	cw.number('F', st.Contracted, 2)
	for i := range n {
		cw.number(byte('A'+first+i), st.Totals[i], 2)
	}
	cw.number(accCol[0], st.Accumulated, 2)
	cw.number(balCol[0], st.Contracted, 2)
	lay := sheetLayout{widths: cw.widths('C', 30, 55), heading: boletimHeadingRow, last: balCol[0], profile: 'F'}
	k, err := newBook(b, doc, "Medições", "Medições acumuladas", lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	if err := k.put('A', 8, contractLine(c)); err != nil {
		return err
	}
	if err := k.put('A', 9, fmt.Sprintf("%d medições aprovadas", n)); err != nil {
		return err
	}
	if err := k.heading(boletimHeadingRow, heads); err != nil {
		return err
	}
	row := boletimHeadingRow + 1
	firstRow := row
	for _, r := range st.Rows {
		l := r.Line
		cells := []any{excelize.Cell{StyleID: k.text, Value: l.Number}, excelize.Cell{StyleID: k.text, Value: l.Code},
			excelize.Cell{StyleID: k.wrap, Value: l.Description}, excelize.Cell{StyleID: k.text, Value: l.Unit},
			number(r.Contracted, k.qty(r.Contracted)), number(r.ContractedValue, k.money)}
		for _, v := range r.Values {
			cells = append(cells, number(v, k.money))
		}
		cells = append(cells, formula(r.AccumValue, fmt.Sprintf("SUM(%s%d:%s%d)", colName(first), row, colName(first+n-1), row), k.money),
			formula(r.BalanceValue, fmt.Sprintf("F%d-%s%d", row, accCol, row), k.money))
		if n == 0 {
			cells[len(cells)-2] = number(r.AccumValue, k.money)
		}
		for i, v := range cells {
			if err := k.put(byte('A'+i), row, v); err != nil {
				return err
			}
		}
		k.fit(row, 'C', l.Description, false)
		row++
	}
	last := row - 1
	sum := func(col string) string { return fmt.Sprintf("SUM(%s%d:%s%d)", col, firstRow, col, last) }
	total, ret := row, row+1
	if err := k.put('C', total, excelize.Cell{StyleID: k.bold, Value: "Total"}); err != nil {
		return err
	}
	if err := k.put('F', total, formula(st.Contracted, sum("F"), k.boldMoney)); err != nil {
		return err
	}
	for i := range n {
		if err := k.put(byte('A'+first+i), total, formula(st.Totals[i], sum(colName(first+i)), k.boldMoney)); err != nil {
			return err
		}
	}
	if err := k.put(accCol[0], total, formula(st.Accumulated, sum(accCol), k.boldMoney)); err != nil {
		return err
	}
	if err := k.put(balCol[0], total, formula(st.Balance, sum(balCol), k.boldMoney)); err != nil {
		return err
	}
	if err := k.put('C', ret, excelize.Cell{StyleID: k.bold, Value: "Retenção (" + brl(c.Retention) + "%)"}); err != nil {
		return err
	}
	for i := range n {
		col := colName(first + i)
		if err := k.put(byte('A'+first+i), ret, formula(st.Retentions[i], fmt.Sprintf("%s(%s%d*%s/100,2)", contractCut(c), col, total, c.Retention.String()), k.boldMoney)); err != nil {
			return err
		}
	}
	if err := k.tableEnd(lay, last); err != nil {
		return err
	}
	if _, err := k.signature(b, doc, ret+3, 'C'); err != nil {
		return err
	}
	return k.finish(w, b)
}

// StatementPDF writes a contract's accumulated statement as a PDF: the
// measurements in blocks of statementBlock, each block opened by a row
// naming them.
func StatementPDF(w io.Writer, st *domain.Statement, b *domain.Budget, doc Document) error {
	c := st.Contract
	n := len(st.Measurements)
	m := max(min(n, statementBlock), 1)
	cols := []pdfCol{{"Item", 30, false}, {"Descrição", 0, false}, {"Un.", 22, false}, {"Contratado (R$)", 64, true}}
	for i := 0; i < m; i++ {
		title := fmt.Sprintf("Coluna %d", i+1)
		if n <= statementBlock && i < n {
			title = fmt.Sprintf("Medição %d", st.Measurements[i].Number)
		}
		cols = append(cols, pdfCol{title, 60, true})
	}
	cols = append(cols, pdfCol{"Acumulado (R$)", 72, true}, pdfCol{"Saldo (R$)", 64, true})
	tb := pdfTable{title: "Medições acumuladas · " + contractLine(c), cols: cols, desc: 1,
		summary: [][2]string{{"Valor contratado", "R$ " + brl(st.Contracted)}, {"Medido acumulado", "R$ " + brl(st.Accumulated)},
			{"Saldo do contrato", "R$ " + brl(st.Balance)}}}
	return tablePDF(w, b, doc, tb, func(emit func(*pdfRow) error) error {
		cells := make([]string, len(cols))
		row := pdfRow{cells: cells}
		put := func(kind pdfRowKind, item, desc, unit, contracted string, per func(k int) string, from int, acc, bal string) error {
			clear(cells)
			cells[0], cells[1], cells[2], cells[3] = item, desc, unit, contracted
			for i := 0; i < m && from+i < n; i++ {
				cells[4+i] = per(from + i)
			}
			cells[4+m], cells[5+m] = acc, bal
			row.kind, row.depth = kind, 1
			return emit(&row)
		}
		for from := 0; from < max(n, 1); from += m {
			if n > m {
				if err := put(pdfStage, "", fmt.Sprintf("Medições %d a %d", st.Measurements[from].Number, st.Measurements[min(from+m, n)-1].Number), "", "",
					func(k int) string { return "Medição " + strconv.Itoa(st.Measurements[k].Number) }, from, "", ""); err != nil {
					return err
				}
			}
			for _, r := range st.Rows {
				if err := put(pdfLine, r.Line.Number, r.Line.Description, r.Line.Unit, brl(r.ContractedValue),
					func(k int) string { return brl(r.Values[k]) }, from, brl(r.AccumValue), brl(r.BalanceValue)); err != nil {
					return err
				}
			}
			if err := put(pdfTotal, "", "Total", "", brl(st.Contracted), func(k int) string { return brl(st.Totals[k]) }, from, brl(st.Accumulated), brl(st.Balance)); err != nil {
				return err
			}
			if err := put(pdfTotal, "", "Retenção ("+brl(c.Retention)+"%)", "", "", func(k int) string { return brl(st.Retentions[k]) }, from, "", ""); err != nil {
				return err
			}
		}
		return nil
	})
}

// band writes a shaded bold row from column A to last: the texts given by
// column (wrapped, fitted), the other cells empty on the shade.
func (k *book) band(row int, last byte, texts map[byte]string) error {
	for col := byte('A'); col <= last; col++ {
		text, ok := texts[col]
		cell := excelize.Cell{StyleID: k.stage}
		if ok {
			cell = excelize.Cell{StyleID: k.stageWrap, Value: text}
		}
		if err := k.put(col, row, cell); err != nil {
			return err
		}
		if ok {
			k.fit(row, col, text, true)
		}
	}
	return nil
}

// The readjustment statement's columns.
var readjustHeads = []string{"Medição", "Mês", "Valor do período (R$)", "Anos", "Aniversário", "I0", "I", "Fator", "Reajuste (R$)"}

// ReadjustmentXLSX writes a contract's readjustment statement as a
// workbook: per approved measurement its month, period total, the index
// numbers I0 (base month) and I (the anniversary's), the factor and the
// readjustment = ROUND(value × factor, 2), then the totals. The factor is
// the exact trunc(I / I0 − 1) to the statement's places, written as a
// number: a spreadsheet divides in binary floating point, and TRUNC of
// 1057.321 / 1000 − 1 could give 0.0572 where the exact factor is 0.0573.
func ReadjustmentXLSX(w io.Writer, st *domain.ReadjustStatement, c *domain.Contract, b *domain.Budget, doc Document) error {
	cw := newColWidths(readjustHeads)
	for _, r := range st.Rows {
		cw.number('C', r.Value, 2)
		cw.number('F', r.I0, places(r.I0, 2, 10))
		cw.number('G', r.I, places(r.I, 2, 10))
		cw.number('I', r.Amount, 2)
	}
	cw.number('C', st.Total, 2)
	lay := sheetLayout{widths: cw.widths('B', 10, 14), heading: boletimHeadingRow, last: 'I', profile: 'F'}
	k, err := newBook(b, doc, "Reajuste", "Reajustamento · índice "+st.Index, lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	if err := k.put('A', 8, contractLine(c)); err != nil {
		return err
	}
	if err := k.put('A', 9, fmt.Sprintf("Reajuste = valor × (I / I0 − 1), o fator truncado a %d casas; I0 do mês-base %s, I do aniversário anterior ao mês da medição; arredondado a 2 casas.", st.Places, st.BaseMonth)); err != nil {
		return err
	}
	if err := k.heading(boletimHeadingRow, readjustHeads); err != nil {
		return err
	}
	row := boletimHeadingRow + 1
	for _, r := range st.Rows {
		anniversary := r.Anniversary
		if anniversary == "" {
			anniversary = "1º ano"
		}
		cells := []any{excelize.Cell{StyleID: k.text, Value: r.Number}, excelize.Cell{StyleID: k.text, Value: r.Month},
			number(r.Value, k.money), excelize.Cell{StyleID: k.text, Value: r.Years}, excelize.Cell{StyleID: k.text, Value: anniversary},
			number(r.I0, k.num[min(places(r.I0, 2, maxShownPlaces), maxShownPlaces)]), number(r.I, k.num[min(places(r.I, 2, maxShownPlaces), maxShownPlaces)]),
			number(r.Factor, k.num[min(max(int(st.Places), 2), maxShownPlaces)]),
			formula(r.Amount, fmt.Sprintf("ROUND(C%d*H%d,2)", row, row), k.money)}
		for i, v := range cells {
			if err := k.put(byte('A'+i), row, v); err != nil {
				return err
			}
		}
		row++
	}
	last := row - 1
	if err := k.put('B', row, excelize.Cell{StyleID: k.bold, Value: "Total"}); err != nil {
		return err
	}
	first := boletimHeadingRow + 1
	if len(st.Rows) > 0 {
		if err := k.put('C', row, formula(st.Total, fmt.Sprintf("SUM(C%d:C%d)", first, last), k.boldMoney)); err != nil {
			return err
		}
		if err := k.put('I', row, formula(st.TotalAmount, fmt.Sprintf("SUM(I%d:I%d)", first, last), k.boldMoney)); err != nil {
			return err
		}
	}
	if err := k.tableEnd(lay, last); err != nil {
		return err
	}
	if _, err := k.signature(b, doc, row+3, 'C'); err != nil {
		return err
	}
	return k.finish(w, b)
}

// ReadjustmentPDF writes a contract's readjustment statement as a PDF.
func ReadjustmentPDF(w io.Writer, st *domain.ReadjustStatement, c *domain.Contract, b *domain.Budget, doc Document) error {
	cols := []pdfCol{{"Medição", 50, false}, {"Mês", 0, false}, {"Valor do período (R$)", 100, true}, {"Anos", 40, true},
		{"Aniversário", 70, false}, {"I0", 80, true}, {"I", 80, true}, {"Fator", 60, true}, {"Reajuste (R$)", 90, true}}
	tb := pdfTable{title: "Reajustamento · índice " + st.Index + " · " + contractLine(c), cols: cols, desc: 1,
		summary: [][2]string{{"Valor medido", "R$ " + brl(st.Total)}, {"Reajuste", "R$ " + brl(st.TotalAmount)}},
		rule:    fmt.Sprintf("Reajuste = valor × (I / I0 − 1), o fator truncado a %d casas; I0 do mês-base %s, I do aniversário anterior ao mês da medição; arredondado a 2 casas.", st.Places, st.BaseMonth)}
	return tablePDF(w, b, doc, tb, func(emit func(*pdfRow) error) error {
		cells := make([]string, len(cols))
		row := pdfRow{cells: cells, kind: pdfLine, depth: 1}
		for _, r := range st.Rows {
			anniversary := r.Anniversary
			if anniversary == "" {
				anniversary = "1º ano"
			}
			copy(cells, []string{strconv.Itoa(r.Number), r.Month, brl(r.Value), strconv.Itoa(r.Years), anniversary,
				pdfExact(r.I0), pdfExact(r.I), pdfExact(r.Factor), brl(r.Amount)})
			if err := emit(&row); err != nil {
				return err
			}
		}
		clear(cells)
		cells[1], cells[2], cells[8] = "Total", brl(st.Total), brl(st.TotalAmount)
		row.kind, row.depth = pdfTotal, 0
		return emit(&row)
	})
}

// The conformity report's columns.
var conformityHeads = []string{"Item", "Banco", "Código", "Descrição", "Un.", "Quantidade", "Preço c/ BDI (R$)",
	"Referência (R$)", "Diferença (R$)", "Diferença (%)", "Total c/ BDI (R$)", "Referência do total (R$)", "Sobrepreço (R$)", "Amostra"}

// ConformityXLSX writes a conformity report as a workbook (the proposal's
// header): per line its prices against the reference's, the difference
// (a formula) and the overprice (a formula, on lines above the
// reference), per stage and global totals (SUM), and art. 59's figures.
func ConformityXLSX(w io.Writer, c *domain.Conformity, doc Document) error {
	b := c.Proposal.Budget
	cw := newColWidths(conformityHeads)
	for _, l := range c.Lines {
		cw.text('D', l.Row.Description)
		cw.number('K', l.Row.TotalWithBDI, 2)
	}
	cw.number('K', c.Total, 2)
	cw.number('L', c.ReferenceTotal, 2)
	lay := sheetLayout{widths: cw.widths('D', 30, 55), heading: boletimHeadingRow, last: 'N', profile: 'K'}
	k, err := newBook(b, doc, "Conformidade", "Conformidade com a referência", lay)
	if err != nil {
		return err
	}
	defer k.f.Close()
	ref := c.Reference.Budget
	if err := k.put('A', 8, fmt.Sprintf("Referência: %s — %s (%s)", ref.Code, ref.Description, EditionsLabel(ref))); err != nil {
		return err
	}
	if err := k.put('A', 9, fmt.Sprintf("Linhas acima da referência: %d · sem referência: %d · amostra: as linhas que somam 80%% do valor", c.Above, c.Unmatched)); err != nil {
		return err
	}
	if err := k.heading(boletimHeadingRow, conformityHeads); err != nil {
		return err
	}
	row := boletimHeadingRow + 1
	first := row
	yes := map[bool]string{true: "sim", false: ""}
	for _, l := range c.Lines {
		r := l.Row
		cells := []any{excelize.Cell{StyleID: k.text, Value: r.Number}, excelize.Cell{StyleID: k.text, Value: r.Bank},
			excelize.Cell{StyleID: k.text, Value: r.Code}, excelize.Cell{StyleID: k.wrap, Value: r.Description},
			excelize.Cell{StyleID: k.text, Value: r.Unit}, number(r.Quantity, k.qty(r.Quantity)), number(r.UnitPriceWithBDI, k.money)}
		if l.Matched {
			cells = append(cells, number(l.Reference, k.money), formula(l.Difference, fmt.Sprintf("G%d-H%d", row, row), k.money),
				formula(l.Percent, fmt.Sprintf("IF(H%d=0,0,ROUND(I%d*100/H%d,2))", row, row, row), k.money))
		} else {
			cells = append(cells, excelize.Cell{StyleID: k.text, Value: "sem referência"}, "", "")
		}
		cells = append(cells, number(r.TotalWithBDI, k.money))
		if l.Matched {
			cells = append(cells, number(l.ReferenceTotal, k.money))
		} else {
			cells = append(cells, "")
		}
		if l.Above {
			cells = append(cells, formula(l.Overprice, fmt.Sprintf("K%d-L%d", row, row), k.money))
		} else {
			cells = append(cells, "")
		}
		cells = append(cells, excelize.Cell{StyleID: k.text, Value: yes[l.Sample]})
		for i, v := range cells {
			if err := k.put(byte('A'+i), row, v); err != nil {
				return err
			}
		}
		k.fit(row, 'D', r.Description, false)
		row++
	}
	last := row - 1
	sum := func(col byte) string { return fmt.Sprintf("SUM(%c%d:%c%d)", col, first, col, last) }
	foot := row + 1
	rows := []struct {
		label string
		col   byte
		cell  excelize.Cell
	}{
		{"Total da proposta (c/ BDI)", 'K', formula(c.Total, sum('K'), k.boldMoney)},
		{"Total da referência (c/ BDI)", 'K', number(c.ReferenceTotal, k.boldMoney)},
		{"Proposta / referência (%)", 'K', formula(c.Percent, fmt.Sprintf("ROUND(K%d*100/K%d,2)", foot, foot+1), k.boldMoney)},
		{"Sobrepreço (linhas acima da referência)", 'M', formula(c.Overprice, sum('M'), k.boldMoney)},
	}
	for i, r := range rows {
		if err := k.put('D', foot+i, excelize.Cell{StyleID: k.bold, Value: r.label}); err != nil {
			return err
		}
		if err := k.put(r.col, foot+i, r.cell); err != nil {
			return err
		}
	}
	next := foot + len(rows)
	flag := func(b bool) string {
		if b {
			return "SIM"
		}
		return "não"
	}
	notes := []string{
		fmt.Sprintf("Inexequível (abaixo de %s%% da referência, Lei 14.133/2021, art. 59, § 4º): %s", brl(c.Limits.Unfeasible), flag(c.Unfeasible)),
		fmt.Sprintf("Garantia adicional (abaixo de %s%%, art. 59, § 5º): %s", brl(c.Limits.Guarantee), flag(c.GuaranteeRequired)),
	}
	if c.GuaranteeRequired {
		notes[1] += " · R$ " + brl(c.Guarantee)
	}
	for i, n := range notes {
		if err := k.put('D', next+1+i, excelize.Cell{StyleID: k.bold, Value: n}); err != nil {
			return err
		}
	}
	if err := k.tableEnd(lay, last); err != nil {
		return err
	}
	if _, err := k.signature(b, doc, next+5, 'D'); err != nil {
		return err
	}
	return k.finish(w, b)
}

// ConformityPDF writes a conformity report as a PDF.
func ConformityPDF(w io.Writer, c *domain.Conformity, doc Document) error {
	cols := []pdfCol{{"Item", 28, false}, {"Código", 40, false}, {"Descrição", 0, false}, {"Un.", 22, false},
		{"Quant.", 50, true}, {"Preço c/BDI", 54, true}, {"Referência", 54, true}, {"Dif. (%)", 44, true},
		{"Total c/BDI", 64, true}, {"Sobrepreço", 60, true}, {"Amostra", 40, false}}
	ref := c.Reference.Budget
	summary := [][2]string{{"Total da proposta (c/ BDI)", "R$ " + brl(c.Total)}, {"Total da referência (c/ BDI)", "R$ " + brl(c.ReferenceTotal)},
		{"Proposta / referência", brl(c.Percent) + "%"}, {"Linhas acima da referência", strconv.Itoa(c.Above) + " · sobrepreço R$ " + brl(c.Overprice)},
		{"Inexequível (< " + brl(c.Limits.Unfeasible) + "%, Lei 14.133, art. 59, § 4º)", map[bool]string{true: "SIM", false: "não"}[c.Unfeasible]}}
	g := "não"
	if c.GuaranteeRequired {
		g = "SIM · R$ " + brl(c.Guarantee)
	}
	summary = append(summary, [2]string{"Garantia adicional (< " + brl(c.Limits.Guarantee) + "%, art. 59, § 5º)", g})
	tb := pdfTable{title: "Conformidade com a referência " + ref.Code + " — " + ref.Description + " (" + EditionsLabel(ref) + ")",
		cols: cols, desc: 2, summary: summary}
	return tablePDF(w, c.Proposal.Budget, doc, tb, func(emit func(*pdfRow) error) error {
		cells := make([]string, len(cols))
		row := pdfRow{cells: cells, depth: 1}
		for _, l := range c.Lines {
			r := l.Row
			clear(cells)
			cells[0], cells[1], cells[2], cells[3] = r.Number, r.Code, r.Description, r.Unit
			cells[4], cells[5], cells[8] = brlPlaces(r.Quantity, int32(places(r.Quantity, 2, maxShownPlaces))), brl(r.UnitPriceWithBDI), brl(r.TotalWithBDI)
			if l.Matched {
				cells[6], cells[7] = brl(l.Reference), brl(l.Percent)
			} else {
				cells[6] = "—"
			}
			if l.Above {
				cells[9] = brl(l.Overprice)
			}
			if l.Sample {
				cells[10] = "sim"
			}
			row.kind = pdfLine
			if l.Above {
				row.kind = pdfTotal // bold: above the reference
			}
			if err := emit(&row); err != nil {
				return err
			}
		}
		return nil
	})
}
