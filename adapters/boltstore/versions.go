package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	bolt "go.etcd.io/bbolt"
)

// Frozen budget versions (app.VersionTx) live in the bucket
// "budget_versions", keyed by budget id, NUL and the version number as 8
// decimal digits (so that a budget's versions sort by number); the value
// is a versionRecord, the content kept as the exact bytes that were hashed.
// The bucket is made on the first write, so files made before it need no
// upgrade; deleting a budget deletes its versions.

var bucketBudgetVersions = []byte("budget_versions")

var _ app.VersionTx = (*tx)(nil)

type versionRecord struct {
	CompanyID string `json:"company_id"`
	BudgetID  string `json:"budget_id"`
	Number    int    `json:"number"`
	FrozenAt  string `json:"frozen_at"`
	Hash      string `json:"hash"`
	Content   []byte `json:"content"` // base64: kept byte for byte
}

func versionKey(budgetID string, n int) []byte {
	return []byte(fmt.Sprintf("%s\x00%08d", budgetID, n))
}

func (t *tx) PutBudgetVersion(v *domain.BudgetVersion) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if v == nil || v.BudgetID == "" || v.CompanyID == "" || v.Number < 1 {
		return errors.New("boltstore: a version needs a budget, a company and a number")
	}
	b, err := t.btx.CreateBucketIfNotExists(bucketBudgetVersions)
	if err != nil {
		return err
	}
	k := versionKey(v.BudgetID, v.Number)
	if b.Get(k) != nil {
		return domain.Errorf(domain.ECONFLICT, "version %d of budget %s already exists: a version is never replaced", v.Number, v.BudgetID)
	}
	data, err := json.Marshal(versionRecord{CompanyID: v.CompanyID, BudgetID: v.BudgetID, Number: v.Number,
		FrozenAt: encTime(v.FrozenAt), Hash: v.Hash, Content: v.Content})
	if err != nil {
		return err
	}
	return b.Put(k, data)
}

func (t *tx) versions() *bolt.Bucket { return t.btx.Bucket(bucketBudgetVersions) }

func decodeVersion(data []byte) (*domain.BudgetVersion, error) {
	var r versionRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("boltstore: corrupt version record: %w", err)
	}
	var d decoder
	v := &domain.BudgetVersion{CompanyID: r.CompanyID, BudgetID: r.BudgetID, Number: r.Number,
		FrozenAt: d.time("frozen_at", r.FrozenAt), Hash: r.Hash, Content: r.Content}
	return decoded(&d, v, bucketBudgetVersions, r.BudgetID)
}

func (t *tx) BudgetVersion(budgetID string, n int) (*domain.BudgetVersion, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var data []byte
	if b := t.versions(); b != nil {
		data = b.Get(versionKey(budgetID, n))
	}
	if data == nil {
		return nil, notFound("version %d of budget %s not found", n, budgetID)
	}
	return decodeVersion(data)
}

func (t *tx) BudgetVersions(budgetID string) ([]*domain.BudgetVersion, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.BudgetVersion{}
	b := t.versions()
	if b == nil {
		return out, nil
	}
	prefix := []byte(budgetID + "\x00")
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		x, err := decodeVersion(v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// deleteVersions deletes a budget's versions.
func (t *tx) deleteVersions(budgetID string) error {
	b := t.versions()
	if b == nil {
		return nil
	}
	prefix := []byte(budgetID + "\x00")
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
