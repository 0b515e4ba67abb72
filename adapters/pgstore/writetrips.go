package pgstore

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A write transaction's round trips (issue 29, item 4). A change of a
// stored composition (add_items: the composition read, then put) cost six
// round trips for the put alone: the insert tried first, refused by the
// primary key, the savepoint rolled back and released, the code's holder
// looked up, the old row deleted, the new one inserted. A record this
// transaction has read (known) is put in one round trip instead: the old
// row deleted and the new one inserted inside a savepoint, in one batch.
// When that finds no old row of the same company, or a unique key refuses
// the new row (its code is another record's), the savepoint is rolled back
// and the general path runs, which answers exactly as before. The stamp
// the insert draws is returned by it and kept (stamps), so that the
// prepared write's check of what it stored (CompositionStamp) costs no
// round trip. The put of a setting (the write generations' bumps) is sent
// with the next statement or the COMMIT (lazyTx.later).

// knownKey names a record this transaction read: its table and ID.
type knownKey struct{ table, id string }

// noteKnown notes that the transaction read the record id of table, in
// company.
func (t *tx) noteKnown(table, id, company string) {
	if !t.writable {
		return
	}
	if t.known == nil {
		t.known = map[knownKey]string{}
	}
	t.known[knownKey{table, id}] = company
}

// replaceKnown puts a record read in this transaction, of the same
// company, in one round trip. done says whether it did; when it did not
// (and err is nil) nothing was changed and put's general path is to run.
func (t *tx) replaceKnown(table, id, companyID string, fill func(b *pgx.Batch)) (done bool, err error) {
	if company, ok := t.known[knownKey{table, id}]; !ok || company != companyID && company != anyCompany {
		return false, nil
	}
	var old, oldFold string
	existed := false
	b := &pgx.Batch{}
	b.Queue(`SAVEPOINT pgstore_put`)
	returning, dest := `company_id`, []any{&old}
	if table == "resources" {
		// Its description's tokens leave the vocabulary (listterms.go).
		returning, dest = `company_id, description_fold`, []any{&old, &oldFold}
	}
	b.Queue(`DELETE FROM `+table+` WHERE id = $1 RETURNING `+returning, id).QueryRow(func(row pgx.Row) error {
		err := row.Scan(dest...)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		existed = err == nil
		return err
	})
	fill(b)
	b.Queue(`RELEASE SAVEPOINT pgstore_put`)
	err = t.ptx.SendBatch(t.ctx, b).Close()
	if err == nil && existed && old == companyID {
		if table == "resources" {
			t.noteTerms(resourceTerms, old, oldFold, -1)
		}
		return true, nil // the same company: its list counts stay
	}
	var pe *pgconn.PgError
	if err != nil && (!errors.As(err, &pe) || pe.Code != "23505") {
		return false, t.fail(err)
	}
	if err := t.exec(`ROLLBACK TO SAVEPOINT pgstore_put`); err != nil {
		return false, err
	}
	return false, t.exec(`RELEASE SAVEPOINT pgstore_put`)
}

// noteStamp keeps the stamp the put of composition id drew; forgetStamp
// forgets it (the composition is put again, or deleted).
func (t *tx) noteStamp(id string, stamp int64) {
	if t.stamps == nil {
		t.stamps = map[string]int64{}
	}
	t.stamps[id] = stamp
}

func (t *tx) forgetStamp(id string) { delete(t.stamps, id) }

// later sends a write whose answer is only whether it failed with the
// next statement (lazyTx.later).
func (t *tx) later(sql string, args ...any) error {
	if lt, ok := t.ptx.(*lazyTx); ok {
		lt.later(sql, args)
		return nil
	}
	return t.exec(sql, args...)
}
