package domain_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// contractVersion freezes a budget of bank resource lines (code, unit,
// unit price, quantity) in stages, with the BDI and rounding given: the
// version a contract is made from.
func contractVersion(t *testing.T, bdi string, rounding domain.BudgetRounding, stages map[string][][4]string, order []string) *domain.BudgetVersion {
	t.Helper()
	mg := domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
	snap := domain.NewPriceSnapshot()
	b := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "OBRA-1", Description: "Escola", State: "MG",
		Banks: []domain.BankRef{mg}, BDI: dec(bdi), BDIMode: domain.BDIOnUnitPrice, Rounding: rounding}
	for _, name := range order {
		st := domain.BudgetNode{Kind: domain.NodeStage, Description: name}
		for _, l := range stages[name] {
			p := dec(l[2])
			snap.BankResources[mg.EditionKey()+"\x00"+l[0]] = &domain.BankResource{Code: l[0], Description: "Insumo " + l[0],
				Unit: l[1], Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p}}
			st.Items = append(st.Items, domain.BudgetNode{Kind: domain.NodeResource, Bank: "SINAPI", Code: l[0], Quantity: dec(l[3])})
		}
		b.Items = append(b.Items, st)
	}
	b.AssignIDs()
	content, hash, err := domain.Freeze(b, snap)
	if err != nil {
		t.Fatal(err)
	}
	return &domain.BudgetVersion{CompanyID: "c1", BudgetID: "b1", Number: 1, Hash: hash, Content: content}
}

func contractInput() domain.ContractInput {
	return domain.ContractInput{Number: "CT-012/2026", Contractor: "Construtora Exemplo Ltda", StartDate: "2026-09-01",
		BaseMonth: "2026-08", Retention: dec("5"), IndexName: "INCC"}
}

// Example 1 of docs/contracts.md: BDI 25%, truncation, retention 5%.
func example1(t *testing.T) *domain.Contract {
	v := contractVersion(t, "25", domain.BudgetTruncate, map[string][][4]string{
		"Serviços preliminares": {{"R1", "M2", "10.33", "100"}},
		"Alvenaria":             {{"R2", "M3", "123.45", "40"}, {"R3", "UN", "7.77", "300"}},
	}, []string{"Serviços preliminares", "Alvenaria"})
	c, err := domain.NewContract(v, contractInput())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lineByNumber returns the ID of the contract line numbered n.
func lineByNumber(t *testing.T, c *domain.Contract, n string) string {
	t.Helper()
	for _, l := range c.Lines {
		if l.Number == n {
			return l.ID
		}
	}
	t.Fatalf("no line %s", n)
	return ""
}

func measure(c *domain.Contract, n int, q map[string]string) *domain.Measurement {
	m := &domain.Measurement{ContractID: c.ID, Number: n, Status: domain.StatusDraft, Quantities: map[string]decimal.Decimal{}}
	for num, s := range q {
		for _, l := range c.Lines {
			if l.Number == num {
				m.Quantities[l.ID] = dec(s)
			}
		}
		if strings.HasPrefix(num, "A") { // an amendment's new line: its ID is its number
			m.Quantities[num] = dec(s)
		}
	}
	return m
}

func approve(t *testing.T, s *domain.ContractState, m *domain.Measurement, all []*domain.Measurement) {
	t.Helper()
	if err := s.CheckMeasurement(m, all); err != nil {
		t.Fatalf("measurement %d: %v %v", m.Number, err, domain.ErrorFields(err))
	}
	if err := m.Submit(); err != nil {
		t.Fatal(err)
	}
	if err := m.Approve(); err != nil {
		t.Fatal(err)
	}
}

func wantDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s; want %s", what, got, want)
	}
}

// TestContractExample1 holds the domain to example 1 of docs/contracts.md,
// worked by hand: the figures below are the document's.
func TestContractExample1(t *testing.T) {
	c := example1(t)
	if len(c.Lines) != 3 {
		t.Fatalf("lines = %d; want 3", len(c.Lines))
	}
	for _, w := range [][2]string{{"1.1", "12.91"}, {"2.1", "154.31"}, {"2.2", "9.71"}} {
		l, _ := c.Line(lineByNumber(t, c, w[0]))
		wantDec(t, "unit price with BDI of "+w[0], l.UnitPriceWithBDI, w[1])
	}
	wantDec(t, "initial value", c.InitialValue(), "10376.40")

	s := domain.NewContractState(c, nil)
	var all []*domain.Measurement
	m1 := measure(c, 1, map[string]string{"1.1": "60", "2.1": "10.5", "2.2": "0"})
	all = append(all, m1)
	b1 := s.Boletim(m1, all)
	wantDec(t, "m1 period total", b1.PeriodTotal, "2394.85")
	wantDec(t, "m1 retention", b1.Retention, "119.74")
	wantDec(t, "m1 net", b1.Net, "2275.11")
	wantDec(t, "m1 stage 1", b1.Stages[0].ThisValue, "774.60")
	wantDec(t, "m1 stage 2", b1.Stages[1].ThisValue, "1620.25")
	approve(t, s, m1, all)

	if _, err := domain.NextMeasurement(append(all, &domain.Measurement{Number: 2, Status: domain.StatusSubmitted})); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("a second open measurement: %v; want a conflict", err)
	}
	n, err := domain.NextMeasurement(all)
	if err != nil || n != 2 {
		t.Fatalf("next = %d, %v", n, err)
	}
	m2 := measure(c, 2, map[string]string{"1.1": "40", "2.1": "12.25", "2.2": "150"})
	all = append(all, m2)
	b2 := s.Boletim(m2, all)
	wantDec(t, "m2 period total", b2.PeriodTotal, "3863.20")
	wantDec(t, "m2 retention", b2.Retention, "193.16")
	wantDec(t, "m2 net", b2.Net, "3670.04")
	r21 := b2.Rows[1]
	wantDec(t, "m2 2.1 previous", r21.Previous, "10.5")
	wantDec(t, "m2 2.1 accumulated value", r21.AccumulatedValue, "3510.55")
	wantDec(t, "m2 2.1 this value", r21.ThisValue, "1890.30")
	wantDec(t, "m2 2.1 balance", r21.Balance, "17.25")
	wantDec(t, "m2 2.1 balance value", r21.BalanceValue, "2661.85")
	approve(t, s, m2, all)

	// Amendment 1: 2.2 + 100 UN, 2.1 − 5 M3, a new line R4 (45.67/M) × 20.
	a := &domain.Amendment{Number: 1, Status: domain.StatusDraft,
		Changes:  []domain.AmendmentChange{{LineID: lineByNumber(t, c, "2.2"), Quantity: dec("100")}, {LineID: lineByNumber(t, c, "2.1"), Quantity: dec("-5")}},
		NewLines: []domain.ContractLine{{Bank: "SINAPI", Code: "R4", Description: "Insumo R4", Unit: "M", UnitPrice: dec("45.67"), Quantity: dec("20")}}}
	a.PriceNewLines(c)
	wantDec(t, "new line's unit price with BDI", a.NewLines[0].UnitPriceWithBDI, "57.08")
	lim, err := s.CheckAmendment(a, domain.Measured(all, 3), c.InitialValue())
	if err != nil {
		t.Fatalf("amendment 1: %v %v", err, domain.ErrorFields(err))
	}
	wantDec(t, "additions", lim.Additions, "2112.60")
	wantDec(t, "reductions", lim.Reductions, "771.55")
	wantDec(t, "max additions", lim.MaxAdditions, "2594.10")
	if err := a.Submit(); err != nil {
		t.Fatal(err)
	}
	if err := a.Approve(); err != nil {
		t.Fatal(err)
	}
	s = domain.NewContractState(c, []*domain.Amendment{a})

	// Beyond a balance: every line named at once.
	over := measure(c, 3, map[string]string{"2.1": "12.26", "2.2": "250.001", "1.1": "0.01"})
	err = s.CheckMeasurement(over, all)
	fs := domain.ErrorFields(err)
	if domain.ErrorCode(err) != domain.EINVALID || len(fs) != 3 {
		t.Fatalf("over the balance: %v %v; want 3 field errors", err, fs)
	}
	if !strings.Contains(fs[1].Message, "line 2.1") || !strings.Contains(fs[1].Message, "balance of 12.25 M3") || fs[1].Field != "/quantities/"+lineByNumber(t, c, "2.1") {
		t.Errorf("error for 2.1 = %+v", fs[1])
	}

	m3 := measure(c, 3, map[string]string{"2.1": "12.25", "2.2": "250", "A1.1": "20"})
	all = append(all, m3)
	b3 := s.Boletim(m3, all)
	wantDec(t, "m3 period total", b3.PeriodTotal, "5459.40")
	wantDec(t, "m3 retention", b3.Retention, "272.97")
	wantDec(t, "m3 net", b3.Net, "5186.43")
	wantDec(t, "m3 contracted", b3.Totals.ContractedValue, "11717.45")
	wantDec(t, "m3 accumulated", b3.Totals.AccumulatedValue, "11717.45")
	wantDec(t, "m3 balance", b3.Totals.BalanceValue, "0")
	approve(t, s, m3, all)
	if err := m3.Editable(); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("approved measurement editable: %v", err)
	}
	if err := m3.Reject("late"); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("approved measurement rejected: %v", err)
	}
}

// TestContractIndependent computes example 1's boletins from the rules
// (unit price with BDI = trunc(price × 1.25, 2); value of a quantity =
// trunc(unit with BDI × quantity, 2); this period = value(accumulated) −
// value(previous); retention = trunc(5% × period total, 2)) with plain
// decimals, and compares every row and total with the domain's.
func TestContractIndependent(t *testing.T) {
	c := example1(t)
	prices := map[string]decimal.Decimal{"1.1": dec("10.33"), "2.1": dec("123.45"), "2.2": dec("7.77"), "A1.1": dec("45.67")}
	contracted := map[string]decimal.Decimal{"1.1": dec("100"), "2.1": dec("40"), "2.2": dec("300")}
	trunc := func(d decimal.Decimal) decimal.Decimal { return d.Truncate(2) }
	value := func(n string, q decimal.Decimal) decimal.Decimal {
		return trunc(trunc(prices[n].Mul(dec("1.25"))).Mul(q))
	}
	periods := []map[string]string{
		{"1.1": "60", "2.1": "10.5"},
		{"1.1": "40", "2.1": "12.25", "2.2": "150"},
		{"2.1": "12.25", "2.2": "250", "A1.1": "20"},
	}
	s := domain.NewContractState(c, nil)
	var all []*domain.Measurement
	acc := map[string]decimal.Decimal{}
	for i, p := range periods {
		if i == 2 {
			a := &domain.Amendment{Number: 1, Status: domain.StatusApproved,
				Changes:  []domain.AmendmentChange{{LineID: lineByNumber(t, c, "2.2"), Quantity: dec("100")}, {LineID: lineByNumber(t, c, "2.1"), Quantity: dec("-5")}},
				NewLines: []domain.ContractLine{{Bank: "SINAPI", Code: "R4", Unit: "M", UnitPrice: dec("45.67"), Quantity: dec("20")}}}
			a.PriceNewLines(c)
			s = domain.NewContractState(c, []*domain.Amendment{a})
			contracted["2.2"] = contracted["2.2"].Add(dec("100"))
			contracted["2.1"] = contracted["2.1"].Sub(dec("5"))
			contracted["A1.1"] = dec("20")
		}
		m := measure(c, i+1, p)
		all = append(all, m)
		b := s.Boletim(m, all)
		total := decimal.Zero
		for _, r := range b.Rows {
			n := r.Line.Number
			prev := acc[n]
			now := prev.Add(dec(orZero(p[n])))
			this := value(n, now).Sub(value(n, prev))
			total = total.Add(this)
			wantDec(t, "period "+p[n]+" line "+n+" this value", r.ThisValue, this.String())
			wantDec(t, "line "+n+" balance", r.Balance, contracted[n].Sub(now).String())
			wantDec(t, "line "+n+" balance value", r.BalanceValue, value(n, contracted[n]).Sub(value(n, now)).String())
			acc[n] = now
		}
		ret := trunc(total.Mul(dec("0.05")))
		wantDec(t, "period total", b.PeriodTotal, total.String())
		wantDec(t, "retention", b.Retention, ret.String())
		wantDec(t, "net", b.Net, total.Sub(ret).String())
		approve(t, s, m, all)
	}
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// TestAmendmentLimitBoundary: an addition of exactly 25% of the initial
// value passes, one centavo more is refused with the figures; the same for
// reductions, and 50% for a renovation.
func TestAmendmentLimitBoundary(t *testing.T) {
	c := example1(t) // initial value 10376.40: 25% is 2594.10, 50% is 5188.20
	s := domain.NewContractState(c, nil)
	newLine := func(price string) *domain.Amendment {
		a := &domain.Amendment{Number: 1, NewLines: []domain.ContractLine{{Bank: "SINAPI", Code: "X", Unit: "UN", UnitPrice: dec(price), Quantity: dec("1")}}}
		a.PriceNewLines(c)
		return a
	}
	// 2075.28 × 1.25 = 2594.10 exactly; 2075.29 × 1.25 = 2594.1125 → 2594.11.
	if _, err := s.CheckAmendment(newLine("2075.28"), nil, c.InitialValue()); err != nil {
		t.Errorf("25%% exactly: %v %v", err, domain.ErrorFields(err))
	}
	_, err := s.CheckAmendment(newLine("2075.29"), nil, c.InitialValue())
	fs := domain.ErrorFields(err)
	if domain.ErrorCode(err) != domain.EINVALID || len(fs) != 1 || !strings.Contains(fs[0].Message, "R$ 2594.11") || !strings.Contains(fs[0].Message, "R$ 2594.1") {
		t.Errorf("25%% + R$ 0,01: %v %+v", err, fs)
	}
	// Reductions are not netted against additions: 2.1 − 16.8 M3 is
	// 154.31 × 16.8 = 2592.408 → 2592.40 (passes); − 16.82 → 2595.49 refused
	// even with an addition beside it.
	id21 := lineByNumber(t, c, "2.1")
	red := func(q string) *domain.Amendment {
		return &domain.Amendment{Number: 1, Changes: []domain.AmendmentChange{{LineID: id21, Quantity: dec(q)}}}
	}
	if _, err := s.CheckAmendment(red("-16.8"), nil, c.InitialValue()); err != nil {
		t.Errorf("reduction under 25%%: %v", err)
	}
	a := red("-16.82")
	a.Changes = append(a.Changes, domain.AmendmentChange{LineID: lineByNumber(t, c, "2.2"), Quantity: dec("100")})
	if _, err := s.CheckAmendment(a, nil, c.InitialValue()); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("reduction over 25%% with an addition: %v", err)
	}
	c.Renovation = true
	if _, err := s.CheckAmendment(newLine("2075.29"), nil, c.InitialValue()); err != nil {
		t.Errorf("renovation, 25%% + R$ 0,01: %v", err)
	}
	// 4150.56 × 1.25 = 5188.20; 4150.57 × 1.25 = 5188.2125 → 5188.21.
	if _, err := s.CheckAmendment(newLine("4150.56"), nil, c.InitialValue()); err != nil {
		t.Errorf("renovation, 50%% exactly: %v", err)
	}
	if _, err := s.CheckAmendment(newLine("4150.57"), nil, c.InitialValue()); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("renovation, 50%% + R$ 0,01: %v", err)
	}
}

// TestContractExample2 holds the domain to example 2 of docs/contracts.md:
// rounding half up, BDI 22.12%, retention 3%, one line measured in thirds.
func TestContractExample2(t *testing.T) {
	v := contractVersion(t, "22.12", domain.BudgetRound, map[string][][4]string{"Pintura": {{"P1", "M2", "87.65", "1"}}}, []string{"Pintura"})
	in := contractInput()
	in.Retention = dec("3")
	c, err := domain.NewContract(v, in)
	if err != nil {
		t.Fatal(err)
	}
	wantDec(t, "unit price with BDI", c.Lines[0].UnitPriceWithBDI, "107.04")
	s := domain.NewContractState(c, nil)
	var all []*domain.Measurement
	for i, w := range [][4]string{{"0.333", "35.64", "1.07", "34.57"}, {"0.333", "35.65", "1.07", "34.58"}, {"0.334", "35.75", "1.07", "34.68"}} {
		m := measure(c, i+1, map[string]string{"1.1": w[0]})
		all = append(all, m)
		b := s.Boletim(m, all)
		wantDec(t, "period total", b.PeriodTotal, w[1])
		wantDec(t, "retention", b.Retention, w[2])
		wantDec(t, "net", b.Net, w[3])
		approve(t, s, m, all)
	}
}

func TestContractInputErrorsAtOnce(t *testing.T) {
	err := (&domain.ContractInput{StartDate: "2026-13-01", BaseMonth: "08/2026", Retention: dec("100.5")}).Validate()
	if fs := domain.ErrorFields(err); len(fs) != 6 {
		t.Errorf("errors = %+v; want 6 (number, contractor, start_date, base_month, retention, index)", fs)
	}
}

func TestMeasurementWorkflow(t *testing.T) {
	m := &domain.Measurement{Number: 1, Status: domain.StatusDraft}
	if err := m.Approve(); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("approve a draft: %v", err)
	}
	if err := m.Submit(); err != nil {
		t.Fatal(err)
	}
	if err := m.Editable(); domain.ErrorCode(err) != domain.ECONFLICT {
		t.Errorf("submitted editable: %v", err)
	}
	if err := m.Reject(" "); domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("reject without a reason: %v", err)
	}
	if err := m.Reject("quantidade de 2.1 não confere"); err != nil || m.Status != domain.StatusDraft || m.RejectReason == "" {
		t.Errorf("reject: %v %+v", err, m)
	}
	if err := m.Editable(); err != nil {
		t.Errorf("rejected draft not editable: %v", err)
	}
}

// TestContractStatement: example 1's accumulated statement adds the three
// boletins: 2,394.85 + 3,863.20 + 5,459.40 = 11,717.45, the contracted
// value after the amendment, balance 0.
func TestContractStatement(t *testing.T) {
	c := example1(t)
	a := &domain.Amendment{Number: 1, Status: domain.StatusApproved,
		Changes:  []domain.AmendmentChange{{LineID: lineByNumber(t, c, "2.2"), Quantity: dec("100")}, {LineID: lineByNumber(t, c, "2.1"), Quantity: dec("-5")}},
		NewLines: []domain.ContractLine{{Bank: "SINAPI", Code: "R4", Unit: "M", UnitPrice: dec("45.67"), Quantity: dec("20")}}}
	a.PriceNewLines(c)
	s := domain.NewContractState(c, []*domain.Amendment{a})
	ms := []*domain.Measurement{
		measure(c, 2, map[string]string{"1.1": "40", "2.1": "12.25", "2.2": "150"}),
		measure(c, 1, map[string]string{"1.1": "60", "2.1": "10.5"}),
		measure(c, 3, map[string]string{"2.1": "12.25", "2.2": "250", "A1.1": "20"}),
		measure(c, 4, map[string]string{"1.1": "1"}), // a draft: not in the statement
	}
	for _, m := range ms[:3] {
		m.Status = domain.StatusApproved
	}
	st := s.Statement(ms)
	if len(st.Totals) != 3 {
		t.Fatalf("totals %v", st.Totals)
	}
	for i, want := range []string{"2394.85", "3863.20", "5459.40"} {
		wantDec(t, "total of measurement "+want, st.Totals[i], want)
	}
	wantDec(t, "accumulated", st.Accumulated, "11717.45")
	wantDec(t, "contracted", st.Contracted, "11717.45")
	wantDec(t, "balance", st.Balance, "0")
	wantDec(t, "2.1 in measurement 2", st.Rows[1].Values[1], "1890.30")
}

// TestStatementIsTheBoletins: the statement, computed in one pass, gives
// every figure each approved measurement's boletim gives (its lines' value
// this period, its total and retention, the accumulated quantities and
// values), over measurements given out of order, with a draft and with
// lines measured in some periods only, under half-up rounding too.
func TestStatementIsTheBoletins(t *testing.T) {
	for _, rounding := range []domain.BudgetRounding{domain.BudgetTruncate, domain.BudgetRound} {
		c := example1(t)
		c.BDI.Rounding = rounding
		s := domain.NewContractState(c, nil)
		ms := []*domain.Measurement{
			measure(c, 3, map[string]string{"2.1": "0.333", "2.2": "17.5"}),
			measure(c, 1, map[string]string{"1.1": "0.333", "2.1": "10.5"}),
			measure(c, 2, map[string]string{"1.1": "0.333", "2.2": "0.001"}),
			measure(c, 4, map[string]string{"1.1": "0.334", "2.1": "1"}),
			measure(c, 5, map[string]string{"1.1": "1"}), // a draft
		}
		for _, m := range ms[:4] {
			m.Status = domain.StatusApproved
		}
		st := s.Statement(ms)
		if len(st.Measurements) != 4 {
			t.Fatalf("%d measurements in the statement", len(st.Measurements))
		}
		for k, m := range st.Measurements {
			if m.Number != k+1 {
				t.Fatalf("measurement %d at %d", m.Number, k)
			}
			b := s.Boletim(m, ms)
			wantDec(t, fmt.Sprintf("%s total %d", rounding, m.Number), st.Totals[k], b.PeriodTotal.String())
			wantDec(t, fmt.Sprintf("%s retention %d", rounding, m.Number), st.Retentions[k], b.Retention.String())
			for i, r := range b.Rows {
				wantDec(t, fmt.Sprintf("%s line %s in %d", rounding, r.Line.Number, m.Number), st.Rows[i].Values[k], r.ThisValue.String())
				if k == 3 {
					wantDec(t, "accumulated "+r.Line.Number, st.Rows[i].Accumulated, r.Accumulated.String())
					wantDec(t, "accumulated value "+r.Line.Number, st.Rows[i].AccumValue, r.AccumulatedValue.String())
					wantDec(t, "balance value "+r.Line.Number, st.Rows[i].BalanceValue, r.BalanceValue.String())
				}
			}
		}
	}
}

// The boletim's readjustment (docs/readjustment.md's rule): example 1's
// first measurement, its period ending 09/2027, 13 months after the base
// month 08/2026: I0 1000 (08/2026), I 1057.321 (08/2027), factor 0.0573;
// 2394.85 × 0.0573 = 137.224905 → 137.22; net 2394.85 − 119.74 + 137.22 =
// 2412.33. A series without 08/2027 leaves it null, saying so.
func TestBoletimReadjustment(t *testing.T) {
	c := example1(t)
	s := domain.NewContractState(c, nil)
	m1 := measure(c, 1, map[string]string{"1.1": "60", "2.1": "10.5", "2.2": "0"})
	m1.PeriodStart, m1.PeriodEnd = "2027-09-01", "2027-09-30"
	b := s.Boletim(m1, []*domain.Measurement{m1})
	incc, err := domain.NewIndexSeries("INCC", []domain.IndexPoint{{Month: "08/2026", Value: dec("1000")}, {Month: "08/2027", Value: dec("1057.321")}})
	if err != nil {
		t.Fatal(err)
	}
	b.ApplyReadjustment(incc)
	if !b.Readjustment.Valid || b.ReadjustmentNote != "" {
		t.Fatalf("readjustment %v, note %q", b.Readjustment, b.ReadjustmentNote)
	}
	wantDec(t, "factor", b.ReadjustmentFactor.Decimal, "0.0573")
	wantDec(t, "readjustment", b.Readjustment.Decimal, "137.22")
	wantDec(t, "net", b.Net, "2412.33")

	short, _ := domain.NewIndexSeries("INCC", []domain.IndexPoint{{Month: "08/2026", Value: dec("1000")}})
	b = s.Boletim(m1, []*domain.Measurement{m1})
	b.ApplyReadjustment(short)
	if b.Readjustment.Valid || !strings.Contains(b.ReadjustmentNote, "no number for 08/2027") {
		t.Errorf("a series without the anniversary: %v, note %q", b.Readjustment, b.ReadjustmentNote)
	}
	wantDec(t, "net without readjustment", b.Net, "2275.11")
}

// TestStatementReadjustment: the statement's readjustment gives, per
// approved measurement, the boletin's own readjustment and factor (one in
// the first year, factor 0; two after the first anniversary); a series
// without the anniversary's month is named.
func TestStatementReadjustment(t *testing.T) {
	c := example1(t) // base month 08/2026
	s := domain.NewContractState(c, nil)
	ms := []*domain.Measurement{
		measure(c, 1, map[string]string{"1.1": "60"}),
		measure(c, 2, map[string]string{"2.1": "10.5"}),
		measure(c, 3, map[string]string{"2.2": "150"}),
	}
	for i, end := range []string{"2027-06-30", "2027-08-31", "2027-10-31"} {
		ms[i].PeriodStart, ms[i].PeriodEnd, ms[i].Status = end[:8]+"01", end, domain.StatusApproved
	}
	incc, err := domain.NewIndexSeries("INCC", []domain.IndexPoint{{Month: "08/2026", Value: dec("1000")}, {Month: "08/2027", Value: dec("1057.321")}})
	if err != nil {
		t.Fatal(err)
	}
	st := s.Statement(ms)
	rj, err := st.Readjustment(incc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rj.Rows) != 3 {
		t.Fatalf("rows %+v", rj.Rows)
	}
	sum := decimal.Zero
	for k, m := range st.Measurements {
		b := s.Boletim(m, ms)
		b.ApplyReadjustment(incc)
		r := rj.Rows[k]
		if r.Number != m.Number || !r.Value.Equal(b.PeriodTotal) || !r.Amount.Equal(b.Readjustment.Decimal) || !r.Factor.Equal(b.ReadjustmentFactor.Decimal) {
			t.Errorf("measurement %d: row %+v, boletim %s × %s = %s", m.Number, r, b.PeriodTotal, b.ReadjustmentFactor.Decimal, b.Readjustment.Decimal)
		}
		sum = sum.Add(r.Amount)
	}
	wantDec(t, "factor of the first", rj.Rows[0].Factor, "0")
	wantDec(t, "factor after the anniversary", rj.Rows[2].Factor, "0.0573")
	wantDec(t, "total", rj.TotalAmount, sum.String())
	short, _ := domain.NewIndexSeries("INCC", []domain.IndexPoint{{Month: "08/2026", Value: dec("1000")}})
	if _, err := st.Readjustment(short); err == nil || !strings.Contains(domain.ErrorMessage(err)+fmt.Sprint(domain.ErrorFields(err)), "08/2027") {
		t.Errorf("without 08/2027: %v", err)
	}
}
