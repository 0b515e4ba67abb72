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
// measurements, by the boletim's rules (Boletim): in one pass over them in
// order, each line's value this period is the value of its accumulated
// quantity less the value of the previous one, a period's total their sum
// and its retention RetentionOf it, so the figures are the boletins'
// (TestStatementIsTheBoletins) at a cost linear in measurements × lines.
func (s *ContractState) Statement(all []*Measurement) *Statement {
	c := s.Contract
	st := &Statement{Contract: c}
	for _, m := range all {
		if m.Status == StatusApproved {
			st.Measurements = append(st.Measurements, m)
		}
	}
	sortByNumber(st.Measurements)
	st.Rows = make([]StatementRow, len(s.Lines))
	for i := range s.Lines {
		l := &s.Lines[i]
		st.Rows[i] = StatementRow{Line: l, Contracted: s.Contracted[l.ID], ContractedValue: c.Value(l, s.Contracted[l.ID]),
			Values: make([]decimal.Decimal, len(st.Measurements))}
	}
	index := make(map[string]int, len(s.Lines))
	value := make([]func(amount) amount, len(s.Lines))
	acc, accValue := make([]amount, len(s.Lines)), make([]amount, len(s.Lines))
	for i := range s.Lines {
		index[s.Lines[i].ID] = i
		value[i] = c.BDI.lineValue(s.Lines[i].UnitPrice, s.Lines[i].Supply)
	}
	var accumulated amount
	for k, m := range st.Measurements {
		var total amount
		for id, q := range m.Quantities {
			i, ok := index[id]
			if !ok || q.IsZero() {
				continue
			}
			acc[i] = acc[i].add(amountOf(q))
			v := value[i](acc[i])
			this := v.sub(accValue[i])
			st.Rows[i].Values[k] = this.Decimal()
			accValue[i] = v
			total = total.add(this)
		}
		t := total.Decimal()
		st.Totals = append(st.Totals, t)
		st.Retentions = append(st.Retentions, c.RetentionOf(t))
		accumulated = accumulated.add(total)
	}
	st.Accumulated = accumulated.Decimal()
	for i := range st.Rows {
		st.Rows[i].Accumulated, st.Rows[i].AccumValue = acc[i].Decimal(), accValue[i].Decimal()
	}
	var contracted amount
	for i := range st.Rows {
		r := &st.Rows[i]
		cv := amountOf(r.ContractedValue)
		r.BalanceValue = cv.sub(accValue[i]).Decimal()
		contracted = contracted.add(cv)
	}
	st.Contracted = contracted.Decimal()
	st.Balance = contracted.sub(accumulated).Decimal()
	return st
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

// FiguresOut reports whether a figure of the statement is beyond what an
// answer can show (FigureOut): checked before it is streamed.
func (st *Statement) FiguresOut() bool {
	for i := range st.Rows {
		r := &st.Rows[i]
		if figuresOut(r.Contracted, r.Accumulated, r.ContractedValue, r.AccumValue, r.BalanceValue) || figuresOut(r.Values...) {
			return true
		}
	}
	return figuresOut(st.Contracted, st.Accumulated, st.Balance) || figuresOut(st.Totals...) || figuresOut(st.Retentions...)
}
