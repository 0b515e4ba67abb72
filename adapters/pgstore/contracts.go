package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/costdb/costdb/adapters/internal/recordcache"
	"strconv"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/jackc/pgx/v5"
)

// Contracts (app.ContractTx): tables contracts, contract_measurements and
// contract_amendments (migration 0011), each record's JSON in body.
// LockContract takes the contract's row FOR UPDATE inside the write
// transaction: a second writer of the same contract waits for the first,
// then (SERIALIZABLE) fails with a serialization failure and is run again,
// reading what the first wrote.

var _ app.ContractTx = (*tx)(nil)

func (t *tx) PutContract(c *domain.Contract) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil || c.ID == "" || c.CompanyID == "" {
		return errors.New("pgstore: a contract needs an ID and a company")
	}
	body, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO contracts (id, company_id, body) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET company_id = EXCLUDED.company_id, body = EXCLUDED.body`, c.ID, c.CompanyID, body)
}

func (t *tx) contracts(where string, args ...any) ([]*domain.Contract, error) {
	out := []*domain.Contract{}
	err := t.query(`SELECT body FROM contracts WHERE `+where+` ORDER BY id`, args, func(rows pgx.Rows) error {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return err
		}
		var c domain.Contract
		if err := json.Unmarshal(body, &c); err != nil {
			return fmt.Errorf("pgstore: corrupt contract: %w", err)
		}
		out = append(out, &c)
		return nil
	})
	return out, err
}

func (t *tx) Contract(id string) (*domain.Contract, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	cs, err := t.contracts(`id = $1`, id)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, notFound("contract %s not found", id)
	}
	return cs[0], nil
}

func (t *tx) Contracts(companyID string) ([]*domain.Contract, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	return t.contracts(`company_id = $1`, companyID)
}

func (t *tx) LockContract(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	var got string
	err := t.ptx.QueryRow(t.ctx, `SELECT id FROM contracts WHERE id = $1 FOR UPDATE`, id).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound("contract %s not found", id)
	}
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *tx) putNumbered(table, contractID string, n int, v any) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if contractID == "" || n < 1 {
		return errors.New("pgstore: a measurement or amendment needs a contract and a number")
	}
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO `+table+` (contract_id, number, body) VALUES ($1, $2, $3)
		ON CONFLICT (contract_id, number) DO UPDATE SET body = EXCLUDED.body`, contractID, n, body)
}

func (t *tx) PutMeasurement(m *domain.Measurement) error {
	if m == nil {
		return errors.New("pgstore: no measurement")
	}
	return t.putNumbered("contract_measurements", m.ContractID, m.Number, m)
}

func (t *tx) PutAmendment(a *domain.Amendment) error {
	if a == nil {
		return errors.New("pgstore: no amendment")
	}
	return t.putNumbered("contract_amendments", a.ContractID, a.Number, a)
}

func pgNumbered[T any](t *tx, table, contractID string) ([]*T, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*T{}
	err := t.query(`SELECT number, body FROM `+table+` WHERE contract_id = $1 ORDER BY number`, []any{contractID}, func(rows pgx.Rows) error {
		var number int
		var body []byte
		if err := rows.Scan(&number, &body); err != nil {
			return err
		}
		// A read-only transaction shares the records it decoded before
		// (recordcache: by their bytes; its readers change nothing).
		x, err := recordcache.Decode(t.records, table+"\x00"+contractID+"\x00"+strconv.Itoa(number), body, func(b []byte) (*T, error) {
			x := new(T)
			return x, json.Unmarshal(b, x)
		})
		if err != nil {
			return fmt.Errorf("pgstore: corrupt record of %s: %w", table, err)
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

func (t *tx) Measurements(contractID string) ([]*domain.Measurement, error) {
	return pgNumbered[domain.Measurement](t, "contract_measurements", contractID)
}

func (t *tx) Amendments(contractID string) ([]*domain.Amendment, error) {
	return pgNumbered[domain.Amendment](t, "contract_amendments", contractID)
}
