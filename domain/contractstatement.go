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
// measurements (their boletins, so the figures are the boletins').
func (s *ContractState) Statement(all []*Measurement) *Statement {
	st := &Statement{Contract: s.Contract}
	for _, m := range all {
		if m.Status == StatusApproved {
			st.Measurements = append(st.Measurements, m)
		}
	}
	sortByNumber(st.Measurements)
	st.Rows = make([]StatementRow, len(s.Lines))
	for i := range s.Lines {
		l := &s.Lines[i]
		st.Rows[i] = StatementRow{Line: l, Contracted: s.Contracted[l.ID], ContractedValue: s.Contract.Value(l, s.Contracted[l.ID])}
	}
	for _, m := range st.Measurements {
		b := s.Boletim(m, st.Measurements)
		for i, r := range b.Rows {
			st.Rows[i].Values = append(st.Rows[i].Values, r.ThisValue)
			st.Rows[i].Accumulated = r.Accumulated
			st.Rows[i].AccumValue = r.AccumulatedValue
		}
		st.Totals = append(st.Totals, b.PeriodTotal)
		st.Retentions = append(st.Retentions, b.Retention)
		st.Accumulated = st.Accumulated.Add(b.PeriodTotal)
	}
	for i := range st.Rows {
		r := &st.Rows[i]
		r.BalanceValue = r.ContractedValue.Sub(r.AccumValue)
		st.Contracted = st.Contracted.Add(r.ContractedValue)
	}
	st.Balance = st.Contracted.Sub(st.Accumulated)
	return st
}

func sortByNumber(ms []*Measurement) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Number < ms[j-1].Number; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
