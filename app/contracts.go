package app

import (
	"context"
	"fmt"
	"strconv"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// CreateContract makes a contract from version n of a budget of the
// caller's company (domain.NewContract).
func (s *Service) CreateContract(ctx context.Context, p domain.Principal, budgetID string, n int, in domain.ContractInput) (*domain.Contract, error) {
	var out *domain.Contract
	err := s.store.Update(ctx, func(tx Tx) error {
		ct, err := contractTx(tx)
		if err != nil {
			return err
		}
		v, err := s.version(tx, p, budgetID, n)
		if err != nil {
			if isNotFound(err) {
				return domain.FieldErrorf("/version", "budget %s has no version %d", budgetID, n)
			}
			return err
		}
		c, err := domain.NewContract(v, in)
		if err != nil {
			return err
		}
		now := s.now()
		c.ID, c.CreatedAt = NewID(now), now
		out = c
		if err := ct.PutContract(c); err != nil {
			return err
		}
		return s.emit(tx, p.CompanyID, domain.EventContractCreated, contractPath(c.ID),
			map[string]any{"contract_id": c.ID, "number": c.Number, "budget_id": budgetID, "version": n})
	})
	return out, err
}

// Contracts lists the caller's company's contracts.
func (s *Service) Contracts(ctx context.Context, p domain.Principal) ([]*domain.Contract, error) {
	var out []*domain.Contract
	err := s.store.View(ctx, func(tx Tx) error {
		ct, err := contractTx(tx)
		if err != nil {
			return err
		}
		out, err = ct.Contracts(p.CompanyID)
		return err
	})
	return out, err
}

// ContractView is a contract as its approved amendments leave it, with its
// measurements and amendments.
type ContractView struct {
	State        *domain.ContractState
	Measurements []*domain.Measurement
	Amendments   []*domain.Amendment
	// Index is the company's series of the contract's index (nil when it
	// has none): the boletins' readjustment.
	Index *domain.IndexSeries
}

// Contract returns a contract of the caller's company with its
// measurements and amendments.
func (s *Service) Contract(ctx context.Context, p domain.Principal, id string) (*ContractView, error) {
	var out *ContractView
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if out, err = s.contractView(tx, p, id, false); err != nil {
			return err
		}
		// The series of the contract's index, for the readjustment of
		// its boletins; none is not an error.
		if out.Index, err = readIndex(tx, p.CompanyID, domain.IndexName(out.State.Contract.IndexName)); domain.ErrorCode(err) == domain.ENOTFOUND {
			out.Index, err = nil, nil
		}
		return err
	})
	return out, err
}

func (s *Service) contractView(tx Tx, p domain.Principal, id string, lock bool) (*ContractView, error) {
	ct, err := contractTx(tx)
	if err != nil {
		return nil, err
	}
	c, err := ct.Contract(id)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, c.CompanyID, "contract", id); err != nil {
		return nil, err
	}
	if lock {
		if err := ct.LockContract(id); err != nil {
			return nil, err
		}
	}
	ms, err := ct.Measurements(id)
	if err != nil {
		return nil, err
	}
	as, err := ct.Amendments(id)
	if err != nil {
		return nil, err
	}
	return &ContractView{State: domain.NewContractState(c, as), Measurements: ms, Amendments: as}, nil
}

// Measurement returns measurement n of the view; ENOTFOUND when none.
func (v *ContractView) Measurement(n int) (*domain.Measurement, error) {
	for _, m := range v.Measurements {
		if m.Number == n {
			return m, nil
		}
	}
	return nil, notFound("measurement", strconv.Itoa(n))
}

// Amendment returns amendment n of the view; ENOTFOUND when none.
func (v *ContractView) Amendment(n int) (*domain.Amendment, error) {
	for _, a := range v.Amendments {
		if a.Number == n {
			return a, nil
		}
	}
	return nil, notFound("amendment", strconv.Itoa(n))
}

// Boletim returns the boletim of measurement n.
func (v *ContractView) Boletim(n int) (*domain.Boletim, error) {
	m, err := v.Measurement(n)
	if err != nil {
		return nil, err
	}
	b := v.State.Boletim(m, v.Measurements)
	if v.Index != nil {
		b.ApplyReadjustment(v.Index)
	} else {
		name := domain.IndexName(v.State.Contract.IndexName)
		b.ReadjustmentNote = "the company has no index " + name + " (PUT /indexes/" + name + ")"
	}
	return b, nil
}

// MeasurementInput is a measurement's period and quantities; nil fields
// are left as they are on an update.
type MeasurementInput struct {
	PeriodStart, PeriodEnd *string
	Quantities             map[string]decimal.Decimal
}

// contractWrite runs fn on a contract of the caller's company held for the
// transaction (LockContract), then stores what fn returns.
func (s *Service) contractWrite(ctx context.Context, p domain.Principal, id string, fn func(Tx, ContractTx, *ContractView) error) error {
	return s.store.Update(ctx, func(tx Tx) error {
		ct, err := contractTx(tx)
		if err != nil {
			return err
		}
		v, err := s.contractView(tx, p, id, true)
		if err != nil {
			return err
		}
		return fn(tx, ct, v)
	})
}

// CreateMeasurement opens the contract's next measurement as a draft (409
// while one is open). The quantities are checked against the balances when
// it is submitted, and already here so that a draft never holds a line the
// contract lacks.
func (s *Service) CreateMeasurement(ctx context.Context, p domain.Principal, contractID string, in MeasurementInput) (*domain.Measurement, error) {
	var out *domain.Measurement
	err := s.contractWrite(ctx, p, contractID, func(tx Tx, ct ContractTx, v *ContractView) error {
		var start, end string
		if in.PeriodStart != nil {
			start = *in.PeriodStart
		}
		if in.PeriodEnd != nil {
			end = *in.PeriodEnd
		}
		n, nerr := domain.NextMeasurement(v.Measurements)
		m := &domain.Measurement{CompanyID: p.CompanyID, ContractID: contractID, Number: n, PeriodStart: start, PeriodEnd: end,
			Quantities: in.Quantities, Status: domain.StatusDraft}
		if m.Quantities == nil {
			m.Quantities = map[string]decimal.Decimal{}
		}
		if err := checkMeasurement(v, m); err != nil {
			return err
		}
		if nerr != nil {
			return nerr
		}
		now := s.now()
		m.ID, m.CreatedAt, m.UpdatedAt = NewID(now), now, now
		out = m
		return ct.PutMeasurement(m)
	})
	return out, err
}

// checkMeasurement checks the period and the quantities, every error at once.
func checkMeasurement(v *ContractView, m *domain.Measurement) error {
	var val domain.Validation
	if err := val.Merge("", domain.CheckPeriod(m.PeriodStart, m.PeriodEnd)); err != nil {
		return err
	}
	if err := val.Merge("", v.State.CheckMeasurement(m, v.Measurements)); err != nil {
		return err
	}
	return val.Err()
}

// UpdateMeasurement changes a draft measurement's period or quantities
// (the quantities replace the draft's). 409 unless it is a draft.
func (s *Service) UpdateMeasurement(ctx context.Context, p domain.Principal, contractID string, n int, in MeasurementInput) (*domain.Measurement, error) {
	return s.measurementStep(ctx, p, contractID, n, func(v *ContractView, m *domain.Measurement) error {
		if err := m.Editable(); err != nil {
			return err
		}
		if in.PeriodStart != nil {
			m.PeriodStart = *in.PeriodStart
		}
		if in.PeriodEnd != nil {
			m.PeriodEnd = *in.PeriodEnd
		}
		if in.Quantities != nil {
			m.Quantities = in.Quantities
		}
		return checkMeasurement(v, m)
	})
}

// MeasurementAction is a workflow step: submit, approve or reject.
type MeasurementAction string

// The steps.
const (
	ActionSubmit  MeasurementAction = "submit"
	ActionApprove MeasurementAction = "approve"
	ActionReject  MeasurementAction = "reject"
)

// MeasurementStep moves measurement n: submit and approve check the
// balances first (with the contract held, so that two steps of one
// contract never both pass), reject needs a reason.
func (s *Service) MeasurementStep(ctx context.Context, p domain.Principal, contractID string, n int, action MeasurementAction, reason string) (*domain.Measurement, error) {
	return s.measurementStep(ctx, p, contractID, n, func(v *ContractView, m *domain.Measurement) error {
		switch action {
		case ActionSubmit, ActionApprove:
			if m.Status == domain.StatusApproved {
				return m.Editable()
			}
			if err := checkMeasurement(v, m); err != nil {
				return err
			}
			if action == ActionSubmit {
				return m.Submit()
			}
			return m.Approve()
		case ActionReject:
			return m.Reject(reason)
		}
		return domain.Errorf(domain.EBADREQUEST, "unknown step %q: submit, approve or reject", action)
	})
}

func (s *Service) measurementStep(ctx context.Context, p domain.Principal, contractID string, n int, fn func(*ContractView, *domain.Measurement) error) (*domain.Measurement, error) {
	var out *domain.Measurement
	err := s.contractWrite(ctx, p, contractID, func(tx Tx, ct ContractTx, v *ContractView) error {
		m, err := v.Measurement(n)
		if err != nil {
			return err
		}
		was := m.Status
		if err := fn(v, m); err != nil {
			return err
		}
		m.UpdatedAt = s.now()
		out = m
		if err := ct.PutMeasurement(m); err != nil {
			return err
		}
		if m.Status == domain.StatusApproved && was != domain.StatusApproved {
			return s.emit(tx, p.CompanyID, domain.EventMeasurementApproved, contractPath(contractID)+"/measurements/"+strconv.Itoa(m.Number),
				map[string]any{"contract_id": contractID, "measurement": m.Number, "period_start": m.PeriodStart, "period_end": m.PeriodEnd})
		}
		return nil
	})
	return out, err
}

// AmendmentInput is an amendment's changes and new lines (bank, code and
// quantity; the unit price is read from the contract's editions or the
// own base).
type AmendmentInput struct {
	Description string
	Changes     []domain.AmendmentChange
	NewLines    []NewContractLine
}

// NewContractLine is a line an amendment adds.
type NewContractLine struct {
	Bank, Code string
	Quantity   decimal.Decimal
}

// CreateAmendment records a draft amendment after checking it (lines,
// balances, limits): 422 with the figures past the limits.
func (s *Service) CreateAmendment(ctx context.Context, p domain.Principal, contractID string, in AmendmentInput) (*domain.Amendment, *domain.AmendmentLimits, error) {
	var out *domain.Amendment
	var lim domain.AmendmentLimits
	err := s.store.Update(ctx, func(tx Tx) error {
		ct, err := contractTx(tx)
		if err != nil {
			return err
		}
		v, err := s.contractView(tx, p, contractID, true)
		if err != nil {
			return err
		}
		n := 1
		for _, a := range v.Amendments {
			if a.Status != domain.StatusApproved {
				return domain.Errorf(domain.ECONFLICT, "amendment %d is still open (%s): approve it before the next", a.Number, a.Status)
			}
			n = max(n, a.Number+1)
		}
		a := &domain.Amendment{CompanyID: p.CompanyID, ContractID: contractID, Number: n, Description: in.Description,
			Changes: in.Changes, Status: domain.StatusDraft}
		var val domain.Validation
		lines, err := s.priceNewLines(tx, p, v.State.Contract, in.NewLines, &val)
		if err != nil {
			return err
		}
		a.NewLines = lines
		a.PriceNewLines(v.State.Contract)
		lim, err = v.State.CheckAmendment(a, domain.Measured(v.Measurements, 1<<30), v.State.Contract.InitialValue())
		if err := val.Merge("", err); err != nil {
			return err
		}
		if err := val.Err(); err != nil {
			return err
		}
		now := s.now()
		a.ID, a.CreatedAt, a.UpdatedAt = NewID(now), now, now
		out = a
		if err := ct.PutAmendment(a); err != nil {
			return err
		}
		return s.emit(tx, p.CompanyID, domain.EventAmendmentCreated, contractPath(contractID)+"/amendments/"+strconv.Itoa(a.Number),
			map[string]any{"contract_id": contractID, "amendment": a.Number, "description": a.Description})
	})
	if err != nil {
		return nil, nil, err
	}
	return out, &lim, nil
}

// priceNewLines prices the new lines from the contract's editions (the
// banks of its version's budget) or the company's own base, in the
// contract's budget's state and regime: the unit price a budget line of
// that bank and code gets (domain.BudgetPricer over the live store).
func (s *Service) priceNewLines(tx Tx, p domain.Principal, c *domain.Contract, in []NewContractLine, val *domain.Validation) ([]domain.ContractLine, error) {
	if len(in) == 0 {
		return nil, nil
	}
	v, err := s.version(tx, p, c.BudgetID, c.VersionNumber)
	if err != nil {
		return nil, err
	}
	b, _, err := v.Open()
	if err != nil {
		return nil, err
	}
	probe := b.Clone()
	probe.Items = nil
	for i, l := range in {
		ptr := "/new_lines/" + strconv.Itoa(i)
		bank := l.Bank
		if bank == "" {
			bank = domain.BankMyBase
		}
		if _, ok := probe.Bank(bank); !ok && bank != domain.BankMyBase {
			val.Add(ptr+"/bank", "the contract's editions have no bank %s", bank)
			continue
		}
		kind := domain.NodeComposition
		probe.Items = append(probe.Items, domain.BudgetNode{ID: strconv.Itoa(i + 1), Kind: kind, Bank: bank, Code: l.Code, Quantity: l.Quantity})
	}
	r, err := domain.NewBudgetPricer(source{tx: tx, companyID: p.CompanyID}).Synthetic(probe)
	if err != nil {
		return nil, err
	}
	out := make([]domain.ContractLine, 0, len(in))
	j := 0
	for i, l := range in {
		ptr := "/new_lines/" + strconv.Itoa(i)
		if j >= len(r.Rows) || r.Rows[j].NodeID != strconv.Itoa(i+1) {
			continue // bank refused above
		}
		row := r.Rows[j]
		j++
		if row.Missing {
			// A composition code may be a resource: try it as one.
			alt, err := s.priceAsResource(tx, p, b, bank(l.Bank), l)
			if err != nil {
				return nil, err
			}
			if alt == nil {
				val.Add(ptr+"/code", "%s %s has no price in the contract's editions", bank(l.Bank), l.Code)
				continue
			}
			row = *alt
		}
		out = append(out, domain.ContractLine{Bank: row.Bank, Month: row.Month, Code: row.Code, Description: row.Description,
			Unit: row.Unit, Quantity: l.Quantity, UnitPrice: row.UnitPrice})
	}
	return out, nil
}

func bank(b string) string {
	if b == "" {
		return domain.BankMyBase
	}
	return b
}

func (s *Service) priceAsResource(tx Tx, p domain.Principal, b *domain.Budget, bankName string, l NewContractLine) (*domain.SyntheticRow, error) {
	probe := b.Clone()
	probe.Items = []domain.BudgetNode{{ID: "1", Kind: domain.NodeResource, Bank: bankName, Code: l.Code, Quantity: l.Quantity}}
	r, err := domain.NewBudgetPricer(source{tx: tx, companyID: p.CompanyID}).Synthetic(probe)
	if err != nil {
		return nil, err
	}
	if len(r.Rows) != 1 || r.Rows[0].Missing {
		return nil, nil
	}
	return &r.Rows[0], nil
}

// AmendmentStep moves amendment n: submit and approve check it again
// (with the contract held), reject needs a reason.
func (s *Service) AmendmentStep(ctx context.Context, p domain.Principal, contractID string, n int, action MeasurementAction, reason string) (*domain.Amendment, error) {
	var out *domain.Amendment
	err := s.contractWrite(ctx, p, contractID, func(tx Tx, ct ContractTx, v *ContractView) error {
		a, err := v.Amendment(n)
		if err != nil {
			return err
		}
		switch action {
		case ActionSubmit, ActionApprove:
			if a.Status == domain.StatusApproved {
				return a.Editable()
			}
			if _, err := v.State.CheckAmendment(a, domain.Measured(v.Measurements, 1<<30), v.State.Contract.InitialValue()); err != nil {
				return err
			}
			if action == ActionSubmit {
				err = a.Submit()
			} else {
				err = a.Approve()
			}
		case ActionReject:
			err = a.Reject(reason)
		default:
			err = domain.Errorf(domain.EBADREQUEST, "unknown step %q: submit, approve or reject", action)
		}
		if err != nil {
			return err
		}
		a.UpdatedAt = s.now()
		out = a
		return ct.PutAmendment(a)
	})
	return out, err
}

// ContractProgress returns a contract of the caller's company planned
// against measured (domain.NewProgress): the own schedule of the frozen
// version it was made from (ENOTFOUND, saying where to write one, when
// the version has none) against its approved measurements.
func (s *Service) ContractProgress(ctx context.Context, p domain.Principal, id string) (*domain.Progress, error) {
	var out *domain.Progress
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := s.contractView(tx, p, id, false)
		if err != nil {
			return err
		}
		c := v.State.Contract
		ver, err := s.version(tx, p, c.BudgetID, c.VersionNumber)
		if err != nil {
			return err
		}
		t := &scheduleTarget{key: versionScheduleKey(c.CompanyID, c.BudgetID, c.VersionNumber),
			what: fmt.Sprintf("version %d of budget %s (the contract's)", c.VersionNumber, c.BudgetID)}
		sch, err := t.must(tx)
		if domain.ErrorCode(err) == domain.ENOTFOUND {
			return domain.Errorf(domain.ErrorCode(err), "%s: PUT /budgets/%s/versions/%d/schedule", domain.ErrorMessage(err), c.BudgetID, c.VersionNumber)
		}
		if err != nil {
			return err
		}
		b, bp, err := ver.Open()
		if err != nil {
			return err
		}
		syn, err := bp.Synthetic(b)
		if err != nil {
			return err
		}
		table, err := domain.NewScheduleTable(sch, syn)
		if err != nil {
			return err
		}
		out = domain.NewProgress(table, v.State.Statement(v.Measurements))
		return nil
	})
	return out, err
}

// ContractReadjustment returns the readjustment statement of a contract of
// the caller's company over its approved measurements
// (domain.Statement.Readjustment), with the contract as read; ENOTFOUND
// when the company has no series of the contract's index, EINVALID naming
// every month the series lacks.
func (s *Service) ContractReadjustment(ctx context.Context, p domain.Principal, id string) (*ContractView, *domain.ReadjustStatement, error) {
	v, err := s.Contract(ctx, p, id)
	if err != nil {
		return nil, nil, err
	}
	if v.Index == nil {
		name := domain.IndexName(v.State.Contract.IndexName)
		return nil, nil, domain.Errorf(domain.ENOTFOUND, "the company has no index %s (PUT /indexes/%s)", name, name)
	}
	st, err := v.State.Statement(v.Measurements).Readjustment(v.Index)
	if err != nil {
		return nil, nil, err
	}
	return v, st, nil
}
