package domain

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Measurement is a contract's measurement (medição) of one period: the
// quantity executed per line. Measurements are numbered in order, and a
// contract has at most one open (draft or submitted) at a time.
type Measurement struct {
	ID          string
	CompanyID   string
	ContractID  string
	Number      int
	PeriodStart string // YYYY-MM-DD
	PeriodEnd   string // YYYY-MM-DD
	// Quantities executed in the period, by line ID; lines not named were
	// not executed.
	Quantities   map[string]decimal.Decimal
	Status       RecordStatus
	RejectReason string // the last rejection's, while the draft is not submitted again
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (m *Measurement) flow() *workflow {
	return &workflow{Status: m.Status, RejectReason: m.RejectReason}
}

func (m *Measurement) set(w *workflow) { m.Status, m.RejectReason = w.Status, w.RejectReason }

// Open reports whether the measurement is still open (not approved).
func (m *Measurement) Open() bool { return m.Status != StatusApproved }

// Editable returns an ECONFLICT error unless the measurement is a draft.
func (m *Measurement) Editable() error { return m.flow().editable("measurement", m.Number) }

// Submit moves a draft to submitted; the caller checks its balances first
// (ContractState.CheckMeasurement).
func (m *Measurement) Submit() error {
	w := m.flow()
	err := w.submit("measurement", m.Number)
	m.set(w)
	return err
}

// Approve moves a submitted measurement to approved: immutable from then on.
func (m *Measurement) Approve() error {
	w := m.flow()
	err := w.approve("measurement", m.Number)
	m.set(w)
	return err
}

// Reject sends a submitted measurement back to draft with the reason.
func (m *Measurement) Reject(reason string) error {
	w := m.flow()
	err := w.reject("measurement", m.Number, reason)
	m.set(w)
	return err
}

// CheckPeriod checks a measurement's period, all fields at once.
func CheckPeriod(start, end string) error {
	var v Validation
	s, err1 := time.Parse(time.DateOnly, start)
	if err1 != nil {
		v.Add("/period_start", "must be a date YYYY-MM-DD")
	}
	e, err2 := time.Parse(time.DateOnly, end)
	if err2 != nil {
		v.Add("/period_end", "must be a date YYYY-MM-DD")
	}
	if err1 == nil && err2 == nil && e.Before(s) {
		v.Add("/period_end", "must not be before period_start (%s)", start)
	}
	return v.Err()
}

// NextMeasurement returns the number the next measurement of a contract
// takes, or an ECONFLICT error while one is open.
func NextMeasurement(ms []*Measurement) (int, error) {
	n := 0
	for _, m := range ms {
		if m.Open() {
			return 0, Errorf(ECONFLICT, "measurement %d is still open (%s): approve it before opening the next", m.Number, m.Status)
		}
		n = max(n, m.Number)
	}
	return n + 1, nil
}

// ContractState is a contract as its approved amendments leave it: its
// lines (the amendments' new lines appended) with their current contracted
// quantity, and the additions and reductions approved so far.
type ContractState struct {
	Contract   *Contract
	Lines      []ContractLine
	Contracted map[string]decimal.Decimal // by line ID, after approved amendments
	Additions  decimal.Decimal            // value of approved additions (new lines included)
	Reductions decimal.Decimal            // value of approved reductions
	index      map[string]int             // line ID → position in Lines (line)
}

// NewContractState applies the approved amendments, in their order, to the
// contract.
func NewContractState(c *Contract, amendments []*Amendment) *ContractState {
	s := &ContractState{Contract: c, Lines: slices.Clone(c.Lines), Contracted: map[string]decimal.Decimal{}}
	for _, l := range c.Lines {
		s.Contracted[l.ID] = l.Quantity
	}
	as := slices.Clone(amendments)
	sort.Slice(as, func(i, j int) bool { return as[i].Number < as[j].Number })
	for _, a := range as {
		if a.Status == StatusApproved {
			add, red := s.amendmentValues(a)
			s.Additions, s.Reductions = s.Additions.Add(add), s.Reductions.Add(red)
			s.apply(a)
		}
	}
	return s
}

func (s *ContractState) line(id string) (*ContractLine, bool) {
	if s.index == nil {
		s.index = make(map[string]int, len(s.Lines))
		for i := range s.Lines {
			s.index[s.Lines[i].ID] = i
		}
	}
	i, ok := s.index[id]
	if !ok {
		return nil, false
	}
	return &s.Lines[i], true
}

// Measured sums the quantities of the approved measurements numbered below
// n, by line ID.
func Measured(ms []*Measurement, below int) map[string]decimal.Decimal {
	sums := measured(ms, below)
	out := make(map[string]decimal.Decimal, len(sums))
	for id, q := range sums {
		out[id] = q.Decimal()
	}
	return out
}

// measured is Measured as amounts (the one money path, cents.go).
func measured(ms []*Measurement, below int) map[string]amount {
	out := map[string]amount{}
	for _, m := range ms {
		if m.Status == StatusApproved && m.Number < below {
			for id, q := range m.Quantities {
				out[id] = out[id].add(amountOf(q))
			}
		}
	}
	return out
}

func lineLabel(l *ContractLine) string {
	return fmt.Sprintf("line %s (%s %s)", l.Number, l.Bank, l.Code)
}

// CheckMeasurement checks a measurement's quantities against the lines'
// balances (contracted after approved amendments, less what the approved
// measurements before it measured): every bad quantity at once, each named
// by its pointer /quantities/<line ID> with the line and its balance.
func (s *ContractState) CheckMeasurement(m *Measurement, all []*Measurement) error {
	prev := Measured(all, m.Number)
	var v Validation
	ids := make([]string, 0, len(m.Quantities))
	for id := range m.Quantities {
		ids = append(ids, id)
	}
	s.sortIDs(ids)
	for _, id := range ids {
		q := m.Quantities[id]
		ptr := "/quantities/" + id
		l, ok := s.line(id)
		switch {
		case !ok:
			v.Add(ptr, "the contract has no line %s", id)
		case q.IsNegative():
			v.Add(ptr, "%s: the quantity must not be negative", lineLabel(l))
		default:
			bal := s.Contracted[id].Sub(prev[id])
			if q.GreaterThan(bal) {
				v.Add(ptr, "%s: %s exceeds the line's balance of %s %s", lineLabel(l), q.String(), bal.String(), l.Unit)
			}
		}
	}
	return v.Err()
}

// sortIDs orders line IDs as the contract's lines, unknown ones last by ID.
func (s *ContractState) sortIDs(ids []string) {
	pos := make(map[string]int, len(s.Lines))
	for i, l := range s.Lines {
		pos[l.ID] = i
	}
	sort.Slice(ids, func(i, j int) bool {
		pi, oki := pos[ids[i]]
		pj, okj := pos[ids[j]]
		if oki != okj {
			return oki
		}
		if !oki {
			return ids[i] < ids[j]
		}
		return pi < pj
	})
}

// BoletimRow is one line of a boletim de medição: quantities and values
// with BDI. Values: contracted, previous and accumulated are the line's
// Value of their quantity; this period's is accumulated less previous, and
// the balance's contracted less accumulated, so that a line's payments add
// up exactly to the value of what was measured, and to the contracted
// value once the line is fully measured.
type BoletimRow struct {
	Line                                                   *ContractLine
	Contracted, Previous, ThisPeriod, Accumulated, Balance decimal.Decimal
	ContractedValue, PreviousValue, ThisValue              decimal.Decimal
	AccumulatedValue, BalanceValue                         decimal.Decimal
}

// BoletimStage is the subtotal of a top-level stage.
type BoletimStage struct {
	Number, Name                              string
	ContractedValue, PreviousValue, ThisValue decimal.Decimal
	AccumulatedValue, BalanceValue            decimal.Decimal
}

// Boletim is the boletim de medição of one measurement.
type Boletim struct {
	Contract    *Contract
	Measurement *Measurement
	Rows        []BoletimRow
	Stages      []BoletimStage // in the order of the lines
	Totals      BoletimStage   // over every line (Number and Name empty)
	PeriodTotal decimal.Decimal
	Retention   decimal.Decimal // cut(PeriodTotal × retention / 100), the contract's rounding
	// Readjustment is null until ApplyReadjustment computes it from the
	// contract's index and base month (ReadjustmentFactor the factor);
	// ReadjustmentNote says why it is null when the series lacks a month
	// or the company has no series of the contract's index.
	Readjustment       decimal.NullDecimal
	ReadjustmentFactor decimal.NullDecimal
	ReadjustmentNote   string
	Net                decimal.Decimal // PeriodTotal − Retention (+ Readjustment when set)
}

// Boletim computes the boletim of measurement m: previous are the approved
// measurements numbered below it (in all), the contracted quantities those
// of the state.
func (s *ContractState) Boletim(m *Measurement, all []*Measurement) *Boletim {
	c := s.Contract
	prev := measured(all, m.Number)
	b := &Boletim{Contract: c, Measurement: m, Rows: make([]BoletimRow, 0, len(s.Lines))}
	stageAt := map[string]int{}
	var stages []boletimSums
	var totals boletimSums
	for i := range s.Lines {
		l := &s.Lines[i]
		value := c.BDI.lineValue(l.UnitPrice, l.Supply)
		contracted, previous, this := amountOf(s.Contracted[l.ID]), prev[l.ID], amountOf(m.Quantities[l.ID])
		acc := previous.add(this)
		var sums boletimSums
		sums[0], sums[1], sums[3] = value(contracted), value(previous), value(acc)
		sums[2], sums[4] = sums[3].sub(sums[1]), sums[0].sub(sums[3])
		b.Rows = append(b.Rows, BoletimRow{Line: l, Contracted: contracted.Decimal(), Previous: previous.Decimal(), ThisPeriod: this.Decimal(),
			Accumulated: acc.Decimal(), Balance: contracted.sub(acc).Decimal(),
			ContractedValue: sums[0].Decimal(), PreviousValue: sums[1].Decimal(), ThisValue: sums[2].Decimal(),
			AccumulatedValue: sums[3].Decimal(), BalanceValue: sums[4].Decimal()})
		k, ok := stageAt[l.Stage]
		if !ok {
			k = len(b.Stages)
			stageAt[l.Stage] = k
			b.Stages = append(b.Stages, BoletimStage{Number: l.Stage, Name: l.StageName})
			stages = append(stages, boletimSums{})
		}
		stages[k].add(&sums)
		totals.add(&sums)
	}
	for k := range b.Stages {
		stages[k].set(&b.Stages[k])
	}
	totals.set(&b.Totals)
	b.PeriodTotal = b.Totals.ThisValue
	b.Retention = c.RetentionOf(b.PeriodTotal)
	b.Net = b.PeriodTotal.Sub(b.Retention)
	return b
}

// boletimSums are a boletim's five values (contracted, previous, this
// period, accumulated, balance) as amounts, summed on the one money path.
type boletimSums [5]amount

func (s *boletimSums) add(r *boletimSums) {
	for i := range s {
		s[i] = s[i].add(r[i])
	}
}

func (s *boletimSums) set(st *BoletimStage) {
	st.ContractedValue, st.PreviousValue, st.ThisValue = s[0].Decimal(), s[1].Decimal(), s[2].Decimal()
	st.AccumulatedValue, st.BalanceValue = s[3].Decimal(), s[4].Decimal()
}

// RetentionOf is what the contract withholds from a period total:
// cut(total × retention / 100), by the contract's rounding.
func (c *Contract) RetentionOf(total decimal.Decimal) decimal.Decimal {
	return c.BDI.Rounding.cutMul(total, c.Retention.Shift(-2))
}

// ApplyReadjustment sets the boletim's readjustment (Readjust, the default
// places): the period's total readjusted from the contract's base month by
// the series, the measurement's month the month its period ends; the net
// adds it. When the series lacks a month the rule needs, the readjustment
// stays null and ReadjustmentNote says which, never a zero.
func (b *Boletim) ApplyReadjustment(s *IndexSeries) {
	c, m := b.Contract, b.Measurement
	base, month := contractMonth(c.BaseMonth), contractMonth(m.PeriodEnd)
	st, err := Readjust(s, base, DefaultReadjustPlaces, []ReadjustInput{{Number: m.Number, Month: month, Value: b.PeriodTotal}})
	if err != nil {
		var msgs []string
		for _, f := range ErrorFields(err) {
			msgs = append(msgs, f.Message)
		}
		if len(msgs) == 0 {
			msgs = append(msgs, ErrorMessage(err))
		}
		b.ReadjustmentNote = strings.Join(msgs, "; ")
		return
	}
	row := st.Rows[0]
	b.Readjustment = decimal.NullDecimal{Decimal: row.Amount, Valid: true}
	b.ReadjustmentFactor = decimal.NullDecimal{Decimal: row.Factor, Valid: true}
	b.Net = b.PeriodTotal.Sub(b.Retention).Add(row.Amount)
}

// contractMonth turns "YYYY-MM" or "YYYY-MM-DD" into "MM/YYYY" (as it is
// when it is neither).
func contractMonth(s string) string {
	if len(s) >= 7 && s[4] == '-' {
		return s[5:7] + "/" + s[:4]
	}
	return s
}
