package boltstore

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Reference banks' change logs (app.ChangeLogTx) live in the bucket
// "bank_changes", keyed by bank, NUL, the month as YYYY-MM (so that months
// sort), NUL and the line's position as 8 decimal digits; the value is a
// changeRecord. The bucket is made on the first write, so files made before
// it need no upgrade.

var bucketBankChanges = []byte("bank_changes")

var _ app.ChangeLogTx = (*tx)(nil)

type changeRecord struct {
	State       string `json:"state,omitempty"`
	Composition bool   `json:"composition,omitempty"`
	Code        string `json:"code"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
}

// changeMonthKey turns MM/YYYY into YYYY-MM.
func changeMonthKey(month string) string { return month[3:] + "-" + month[:2] }

func changePrefix(bank, month string) []byte {
	return []byte(bank + "\x00" + changeMonthKey(month) + "\x00")
}

func (t *tx) PutChanges(bank, month string, changes []domain.BankChange) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if bank == "" || !domain.ValidMonth(month) {
		return fmt.Errorf("boltstore: a change log needs a bank and a month MM/YYYY, not %q %q", bank, month)
	}
	b, err := t.btx.CreateBucketIfNotExists(bucketBankChanges)
	if err != nil {
		return err
	}
	prefix := changePrefix(bank, month)
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	for i, ch := range changes {
		if ch.Bank != bank || ch.Month != month {
			return fmt.Errorf("boltstore: change %d is of %s %s, not of %s %s", i, ch.Bank, ch.Month, bank, month)
		}
		data, err := json.Marshal(changeRecord{State: ch.State, Composition: ch.Composition, Code: ch.Code,
			Description: ch.Description, Kind: string(ch.Kind), Text: ch.Text})
		if err != nil {
			return err
		}
		if err := b.Put(append(append([]byte(nil), prefix...), fmt.Sprintf("%08d", i)...), data); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) Changes(bank, month string) ([]domain.BankChange, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []domain.BankChange{}
	b := t.btx.Bucket(bucketBankChanges)
	if b == nil || !domain.ValidMonth(month) {
		return out, nil
	}
	prefix := changePrefix(bank, month)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var r changeRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, fmt.Errorf("boltstore: corrupt change record %q: %w", k, err)
		}
		out = append(out, domain.BankChange{Bank: bank, Month: month, State: r.State, Composition: r.Composition, Code: r.Code,
			Description: r.Description, Kind: domain.ChangeKind(r.Kind), Text: r.Text})
	}
	return out, nil
}

func (t *tx) ChangeMonths(bank string) ([]string, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []string{}
	b := t.btx.Bucket(bucketBankChanges)
	if b == nil {
		return out, nil
	}
	prefix := []byte(bank + "\x00")
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); {
		ym := string(k[len(prefix) : len(prefix)+7]) // YYYY-MM
		out = append(out, ym[5:]+"/"+ym[:4])
		// skip the rest of the month
		next := append(append([]byte(nil), k[:len(prefix)+8]...), 0xff)
		k, _ = c.Seek(next)
	}
	return out, nil
}
