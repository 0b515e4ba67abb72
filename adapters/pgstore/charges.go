package pgstore

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Labour charges tables (app.ChargesTx): charges_tables and their
// charges_rows (migration 0009), replaced whole by a put.

var _ app.ChargesTx = (*tx)(nil)

func (t *tx) PutChargesTable(c *domain.ChargesTable) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil {
		return errors.New("pgstore: no charges table")
	}
	if err := c.Validate(); err != nil {
		return err
	}
	key := c.Key()
	if err := t.exec(`DELETE FROM charges_tables WHERE key = $1`, key); err != nil {
		return err
	}
	if err := t.exec(`INSERT INTO charges_tables (key, bank, state, month, regime, items) VALUES ($1, $2, $3, $4, $5, $6)`,
		key, c.Bank, c.State, c.Month, int16(c.Regime), c.Items); err != nil {
		return err
	}
	rows := make([][]any, len(c.Rows))
	for i, r := range c.Rows {
		var items []pgtype.Numeric
		for _, p := range r.Items {
			items = append(items, num(p))
		}
		rows[i] = []any{key, int32(i), r.Code, r.Description, r.Unit, r.Monthly, items, num(r.Total)}
	}
	_, err := t.ptx.CopyFrom(t.ctx, pgx.Identifier{"charges_rows"},
		[]string{"table_key", "position", "code", "description", "unit", "monthly", "items", "total"}, pgx.CopyFromRows(rows))
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *tx) ChargesTable(key string) (*domain.ChargesTable, error) {
	out, err := t.chargesTables(`key = $1`, key)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, domain.Errorf(domain.ENOTFOUND, "no labour charges table %s", key)
	}
	return out[0], nil
}

func (t *tx) ChargesTables(bank string) ([]*domain.ChargesTable, error) {
	return t.chargesTables(`bank = $1`, bank)
}

func (t *tx) chargesTables(where string, arg string) ([]*domain.ChargesTable, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.ChargesTable{}
	byKey := map[string]*domain.ChargesTable{}
	err := t.query(`SELECT key, bank, state, month, regime, items FROM charges_tables WHERE `+where+` ORDER BY key`, []any{arg},
		func(r pgx.Rows) error {
			var c domain.ChargesTable
			var key string
			var regime int16
			if err := r.Scan(&key, &c.Bank, &c.State, &c.Month, &regime, &c.Items); err != nil {
				return err
			}
			c.Regime = domain.Regime(regime)
			out = append(out, &c)
			byKey[key] = &c
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, err
	}
	var d decoder
	err = t.query(`SELECT r.table_key, r.code, r.description, r.unit, r.monthly, r.items::text[], r.total::text
		FROM charges_rows r JOIN charges_tables c ON c.key = r.table_key WHERE c.`+where+` ORDER BY r.table_key, r.position`, []any{arg},
		func(r pgx.Rows) error {
			var key, total string
			var items []string
			var row domain.ChargesRow
			if err := r.Scan(&key, &row.Code, &row.Description, &row.Unit, &row.Monthly, &items, &total); err != nil {
				return err
			}
			for _, p := range items {
				row.Items = append(row.Items, d.dec(p))
			}
			row.Total = d.dec(total)
			c := byKey[key]
			c.Rows = append(c.Rows, row)
			return nil
		})
	if err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}
