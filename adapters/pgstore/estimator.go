package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The estimator's additions (migration 0002): a budget's TCU BDI in the
// column budgets.tcu_bdi, and frozen budget versions (app.VersionTx) in
// budget_versions, deleted with their budget.

var _ app.VersionTx = (*tx)(nil)

// tcuBDI is the JSON of budgets.tcu_bdi; decimals as exact strings.
type tcuBDI struct {
	WorkType       string            `json:"work_type,omitempty"`
	BDIParts       map[string]string `json:"bdi_parts,omitempty"`
	SupplyBDI      string            `json:"supply_bdi,omitempty"`
	SupplyBDIParts map[string]string `json:"supply_bdi_parts,omitempty"`
	SupplyNodes    []string          `json:"supply_nodes,omitempty"`
}

func partsMap(p *domain.BDIParts) map[string]string {
	if p == nil {
		return nil
	}
	return map[string]string{"ac": encDec(p.AC), "s": encDec(p.S), "r": encDec(p.R), "g": encDec(p.G), "df": encDec(p.DF),
		"l": encDec(p.L), "taxes": encDec(p.Taxes), "cprb": encDec(p.CPRB)}
}

func (d *decoder) parts(m map[string]string) *domain.BDIParts {
	if m == nil {
		return nil
	}
	return &domain.BDIParts{AC: d.dec(m["ac"]), S: d.dec(m["s"]), R: d.dec(m["r"]), G: d.dec(m["g"]), DF: d.dec(m["df"]),
		L: d.dec(m["l"]), Taxes: d.dec(m["taxes"]), CPRB: d.dec(m["cprb"])}
}

// encodeTCU returns the column's value for v: nil when it has no TCU BDI.
func encodeTCU(v *domain.Budget) (*string, error) {
	if v.WorkType == "" && v.BDIParts == nil && v.SupplyBDI.IsZero() && v.SupplyBDIParts == nil && v.SupplyNodes == nil {
		return nil, nil
	}
	r := tcuBDI{WorkType: v.WorkType, BDIParts: partsMap(v.BDIParts), SupplyBDIParts: partsMap(v.SupplyBDIParts), SupplyNodes: v.SupplyNodes}
	if !v.SupplyBDI.IsZero() {
		r.SupplyBDI = encDec(v.SupplyBDI)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// decodeTCU sets v's TCU BDI from the column.
func (d *decoder) decodeTCU(v *domain.Budget, col *string) {
	if col == nil {
		return
	}
	var r tcuBDI
	if err := json.Unmarshal([]byte(*col), &r); err != nil {
		if d.err == nil {
			d.err = fmt.Errorf("pgstore: bad tcu_bdi %q: %w", *col, err)
		}
		return
	}
	v.WorkType, v.BDIParts, v.SupplyBDIParts, v.SupplyNodes = r.WorkType, d.parts(r.BDIParts), d.parts(r.SupplyBDIParts), r.SupplyNodes
	if r.SupplyBDI != "" {
		v.SupplyBDI = d.dec(r.SupplyBDI)
	}
}

func (t *tx) PutBudgetVersion(v *domain.BudgetVersion) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if v == nil || v.BudgetID == "" || v.CompanyID == "" || v.Number < 1 {
		return errors.New("pgstore: a version needs a budget, a company and a number")
	}
	var n int
	if err := t.ptx.QueryRow(t.ctx, `SELECT count(*) FROM budget_versions WHERE budget_id = $1 AND number = $2`, v.BudgetID, v.Number).Scan(&n); err != nil {
		return t.fail(err)
	}
	if n > 0 {
		return domain.Errorf(domain.ECONFLICT, "version %d of budget %s already exists: a version is never replaced", v.Number, v.BudgetID)
	}
	at, ns := ts(v.FrozenAt)
	return t.exec(`INSERT INTO budget_versions (company_id, budget_id, number, frozen_at, frozen_at_ns, hash, content)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, v.CompanyID, v.BudgetID, v.Number, at, ns, v.Hash, v.Content)
}

func (t *tx) versions(where string, args ...any) ([]*domain.BudgetVersion, error) {
	rows, err := t.ptx.Query(t.ctx, `SELECT company_id, budget_id, number, frozen_at, frozen_at_ns, hash, content
		FROM budget_versions WHERE `+where+` ORDER BY number`, args...)
	if err != nil {
		return nil, t.fail(err)
	}
	out := []*domain.BudgetVersion{}
	for rows.Next() {
		var v domain.BudgetVersion
		var at time.Time
		var ns int32
		if err := rows.Scan(&v.CompanyID, &v.BudgetID, &v.Number, &at, &ns, &v.Hash, &v.Content); err != nil {
			rows.Close()
			return nil, t.fail(err)
		}
		v.FrozenAt = fromTS(at, ns)
		out = append(out, &v)
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(err)
	}
	return out, nil
}

func (t *tx) BudgetVersion(budgetID string, n int) (*domain.BudgetVersion, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	vs, err := t.versions(`budget_id = $1 AND number = $2`, budgetID, n)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, notFound("version %d of budget %s not found", n, budgetID)
	}
	return vs[0], nil
}

func (t *tx) BudgetVersions(budgetID string) ([]*domain.BudgetVersion, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return t.versions(`budget_id = $1`, budgetID)
}

// encDec writes a decimal with its exponent (4.0000 stays 4.0000).
func encDec(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}
