package domain

import "github.com/shopspring/decimal"

// StatementRow is one line of a contract's accumulated statement: the
// value each approved measurement paid for it (as its boletim shows: the
// value of the accumulated quantity less the value of the previous one),
// the accumulated quantity and value and the balance.
type StatementRow struct {
	Line                        *ContractLine
	Contracted, Accumulated     decimal.Decimal
	Values                      []decimal.Decimal // per approved measurement, in order
	ContractedValue, AccumValue decimal.Decimal
	BalanceValue                decimal.Decimal
}

// Statement is a contract's accumulated measurement statement over its
// approved measurements.
type Statement struct {
	Contract     *Contract
	Measurements []*Measurement // the approved ones, by number
	Rows         []StatementRow
	Totals       []decimal.Decimal // per measurement: its period total
	Retentions   []decimal.Decimal // per measurement
	Accumulated  decimal.Decimal   // Σ Totals
	Contracted   decimal.Decimal
	Balance      decimal.Decimal
}

// Statement computes the accumulated statement from the approved
// measurements (StatementEach, its rows kept).
func (s *ContractState) Statement(all []*Measurement) *Statement {
	rows := make([]StatementRow, 0, len(s.Lines))
	st, _ := s.StatementEach(all, func(r *StatementRow) error {
		rows = append(rows, *r)
		return nil
	})
	st.Rows = rows
	return st
}

// StatementEach computes the accumulated statement line by line, by the
// boletim's rules (Boletim): a line's value in a measurement is the value
// of its accumulated quantity less the value of the previous one, a
// measurement's total the sum of its lines' values and its retention
// RetentionOf it, so the figures are the boletins' (TestStatementIsTheBoletins)
// at a cost linear in measurements × lines. Each row is handed to row as
// it is computed (a row of its own each time), the first error stopping
// the walk and returned; the statement returned has the totals and no
// Rows.
func (s *ContractState) StatementEach(all []*Measurement, row func(*StatementRow) error) (*Statement, error) {
	c := s.Contract
	st := &Statement{Contract: c}
	for _, m := range all {
		if m.Status == StatusApproved {
			st.Measurements = append(st.Measurements, m)
		}
	}
	sortByNumber(st.Measurements)
	n := len(st.Measurements)
	totals := make([]amount, n)
	var accumulated, contracted amount
	for i := range s.Lines {
		l := &s.Lines[i]
		value := c.BDI.lineValue(l.UnitPrice, l.Supply)
		cq := s.Contracted[l.ID]
		cv := value(amountOf(cq))
		r := StatementRow{Line: l, Contracted: cq, ContractedValue: cv.Decimal(), Values: make([]decimal.Decimal, n)}
		var acc, accValue amount
		for k, m := range st.Measurements {
			q, ok := m.Quantities[l.ID]
			if !ok || q.IsZero() {
				continue
			}
			acc = acc.add(amountOf(q))
			v := value(acc)
			this := v.sub(accValue)
			r.Values[k] = this.Decimal()
			accValue = v
			totals[k] = totals[k].add(this)
		}
		r.Accumulated, r.AccumValue, r.BalanceValue = acc.Decimal(), accValue.Decimal(), cv.sub(accValue).Decimal()
		accumulated, contracted = accumulated.add(accValue), contracted.add(cv)
		if err := row(&r); err != nil {
			return nil, err
		}
	}
	for k := range totals {
		t := totals[k].Decimal()
		st.Totals = append(st.Totals, t)
		st.Retentions = append(st.Retentions, c.RetentionOf(t))
	}
	st.Accumulated, st.Contracted = accumulated.Decimal(), contracted.Decimal()
	st.Balance = contracted.sub(accumulated).Decimal()
	return st, nil
}

func sortByNumber(ms []*Measurement) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Number < ms[j-1].Number; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// Readjustment is the readjustment statement of the approved measurements
// (Readjust, DefaultReadjustPlaces): each one's period total readjusted
// from the contract's base month by the series, the month of a
// measurement the month its period ends, as each boletim's readjustment
// (Boletim.ApplyReadjustment). Every month the series lacks is named at
// once (EINVALID); a contract without approved measurements has an empty
// statement.
func (st *Statement) Readjustment(series *IndexSeries) (*ReadjustStatement, error) {
	c := st.Contract
	if len(st.Measurements) == 0 {
		return &ReadjustStatement{Index: series.Name, BaseMonth: contractMonth(c.BaseMonth), Places: DefaultReadjustPlaces, Rows: []ReadjustRow{}}, nil
	}
	rows := make([]ReadjustInput, len(st.Measurements))
	for k, m := range st.Measurements {
		rows[k] = ReadjustInput{Number: m.Number, Month: contractMonth(m.PeriodEnd), Value: st.Totals[k]}
	}
	return Readjust(series, contractMonth(c.BaseMonth), DefaultReadjustPlaces, rows)
}

// FiguresOut reports whether a figure of the boletim is beyond what an
// answer can show (FigureOut): checked before it is streamed.
func (b *Boletim) FiguresOut() bool {
	for i := range b.Rows {
		r := &b.Rows[i]
		if figuresOut(r.Line.UnitPriceWithBDI, r.Contracted, r.Previous, r.ThisPeriod, r.Accumulated, r.Balance,
			r.ContractedValue, r.PreviousValue, r.ThisValue, r.AccumulatedValue, r.BalanceValue) {
			return true
		}
	}
	return figuresOut(b.Totals.ContractedValue, b.Totals.PreviousValue, b.Totals.AccumulatedValue, b.Totals.BalanceValue,
		b.PeriodTotal, b.Retention, b.Net, b.Readjustment.Decimal, b.ReadjustmentFactor.Decimal)
}

// FiguresOut reports whether a figure of the row is beyond what an answer
// can show (FigureOut): checked as the row is streamed.
func (r *StatementRow) FiguresOut() bool {
	return figuresOut(r.Contracted, r.Accumulated, r.ContractedValue, r.AccumValue, r.BalanceValue) || figuresOut(r.Values...)
}
