package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Labour charges tables (app.ChargesTx) live in the bucket
// "charges_tables", keyed by domain.ChargesKey (BANK/UF/YYYY-MM/regime, so
// that a bank's tables sort by state, month and regime); the value is a
// chargesRecord, decimals as text with their scale. The bucket is made on
// the first write, so files made before it need no upgrade.

var bucketChargesTables = []byte("charges_tables")

var _ app.ChargesTx = (*tx)(nil)

type chargesRecord struct {
	Bank   string             `json:"bank"`
	State  string             `json:"state"`
	Month  string             `json:"month"`
	Regime int                `json:"regime"`
	Items  []string           `json:"items,omitempty"`
	Rows   []chargesRowRecord `json:"rows"`
}

type chargesRowRecord struct {
	Code        string   `json:"code"`
	Description string   `json:"description"`
	Unit        string   `json:"unit"`
	Monthly     bool     `json:"monthly,omitempty"`
	Items       []string `json:"items,omitempty"`
	Total       string   `json:"total"`
}

func (t *tx) PutChargesTable(c *domain.ChargesTable) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if c == nil {
		return errors.New("boltstore: no charges table")
	}
	if err := c.Validate(); err != nil {
		return err
	}
	r := chargesRecord{Bank: c.Bank, State: c.State, Month: c.Month, Regime: int(c.Regime), Items: c.Items}
	for _, row := range c.Rows {
		rr := chargesRowRecord{Code: row.Code, Description: row.Description, Unit: row.Unit, Monthly: row.Monthly, Total: encDec(row.Total)}
		for _, p := range row.Items {
			rr.Items = append(rr.Items, encDec(p))
		}
		r.Rows = append(r.Rows, rr)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b, err := t.btx.CreateBucketIfNotExists(bucketChargesTables)
	if err != nil {
		return err
	}
	return b.Put([]byte(c.Key()), data)
}

func decodeCharges(k, data []byte) (*domain.ChargesTable, error) {
	var r chargesRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, errors.New("boltstore: corrupt charges table " + string(k) + ": " + err.Error())
	}
	var d decoder
	c := &domain.ChargesTable{Bank: r.Bank, State: r.State, Month: r.Month, Regime: domain.Regime(r.Regime), Items: r.Items}
	for _, rr := range r.Rows {
		row := domain.ChargesRow{Code: rr.Code, Description: rr.Description, Unit: rr.Unit, Monthly: rr.Monthly,
			Total: d.dec("total", rr.Total)}
		for _, p := range rr.Items {
			row.Items = append(row.Items, d.dec("items", p))
		}
		c.Rows = append(c.Rows, row)
	}
	return decoded(&d, c, bucketChargesTables, string(k))
}

func (t *tx) ChargesTable(key string) (*domain.ChargesTable, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if b := t.btx.Bucket(bucketChargesTables); b != nil {
		if data := b.Get([]byte(key)); data != nil {
			return decodeCharges([]byte(key), data)
		}
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no labour charges table %s", key)
}

func (t *tx) ChargesTables(bank string) ([]*domain.ChargesTable, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.ChargesTable{}
	b := t.btx.Bucket(bucketChargesTables)
	if b == nil {
		return out, nil
	}
	prefix := []byte(bank + "/")
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		tab, err := decodeCharges(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, tab)
	}
	return out, nil
}
