package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/costdb/costdb/adapters/internal/recordcache"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Contracts (app.ContractTx) live in three buckets made on the first
// write, so files made before them need no upgrade: "contracts" keyed by
// contract ID, "contract_measurements" and "contract_amendments" keyed by
// contract ID, NUL and the number as 8 decimal digits (a contract's records
// sort by number). Values are the records' JSON (decimals as exact
// strings). bbolt has one writer at a time, so LockContract only checks the
// contract exists: two writes of one contract already run one after the
// other.

var (
	bucketContracts            = []byte("contracts")
	bucketContractMeasurements = []byte("contract_measurements")
	bucketContractAmendments   = []byte("contract_amendments")
)

var _ app.ContractTx = (*tx)(nil)

func numberKey(contractID string, n int) []byte {
	return []byte(fmt.Sprintf("%s\x00%08d", contractID, n))
}

func (t *tx) putJSON(bucket, key []byte, v any) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	b, err := t.btx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

func (t *tx) PutContract(c *domain.Contract) error {
	if c == nil || c.ID == "" || c.CompanyID == "" {
		return errors.New("boltstore: a contract needs an ID and a company")
	}
	return t.putJSON(bucketContracts, []byte(c.ID), c)
}

func (t *tx) Contract(id string) (*domain.Contract, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var data []byte
	if b := t.btx.Bucket(bucketContracts); b != nil {
		data = b.Get([]byte(id))
	}
	if data == nil {
		return nil, notFound("contract %s not found", id)
	}
	var c domain.Contract
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("boltstore: corrupt contract %s: %w", id, err)
	}
	return &c, nil
}

func (t *tx) Contracts(companyID string) ([]*domain.Contract, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.Contract{}
	b := t.btx.Bucket(bucketContracts)
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, v []byte) error {
		var c domain.Contract
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("boltstore: corrupt contract %s: %w", k, err)
		}
		if c.CompanyID == companyID {
			out = append(out, &c)
		}
		return nil
	})
	return out, err
}

func (t *tx) LockContract(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	_, err := t.Contract(id)
	return err
}

func (t *tx) PutMeasurement(m *domain.Measurement) error {
	if m == nil || m.ContractID == "" || m.Number < 1 {
		return errors.New("boltstore: a measurement needs a contract and a number")
	}
	return t.putJSON(bucketContractMeasurements, numberKey(m.ContractID, m.Number), m)
}

func (t *tx) PutAmendment(a *domain.Amendment) error {
	if a == nil || a.ContractID == "" || a.Number < 1 {
		return errors.New("boltstore: an amendment needs a contract and a number")
	}
	return t.putJSON(bucketContractAmendments, numberKey(a.ContractID, a.Number), a)
}

// numbered decodes a contract's records of a bucket, by number.
func numbered[T any](t *tx, bucket []byte, contractID string) ([]*T, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*T{}
	b := t.btx.Bucket(bucket)
	if b == nil {
		return out, nil
	}
	prefix := []byte(contractID + "\x00")
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		// A read transaction shares the records it decoded before
		// (recordcache: by their bytes; its readers change nothing).
		x, err := recordcache.Decode(t.records, string(bucket)+"\x00"+string(k), v, func(b []byte) (*T, error) {
			x := new(T)
			return x, json.Unmarshal(b, x)
		})
		if err != nil {
			return nil, fmt.Errorf("boltstore: corrupt record %q in %s: %w", k, bucket, err)
		}
		out = append(out, x)
	}
	return out, nil
}

func (t *tx) Measurements(contractID string) ([]*domain.Measurement, error) {
	return numbered[domain.Measurement](t, bucketContractMeasurements, contractID)
}

func (t *tx) Amendments(contractID string) ([]*domain.Amendment, error) {
	return numbered[domain.Amendment](t, bucketContractAmendments, contractID)
}
