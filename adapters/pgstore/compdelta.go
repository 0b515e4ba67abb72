package pgstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The put of a composition whose stored version is known writes only what
// changed (issue 29, P6 on PostgreSQL). A change of a stored composition
// (add_items, remove_items, a patch) was written as a delete of its row,
// whose cascade removed every item and bank row, and the insert of all of
// them again: some 20 rows and their entries in every index (the list
// indexes and trigram indexes of the row included) for one item added.
// When the transaction knows the composition as it is stored, the put is
// instead, in one round trip (in a group: sent with the COMMIT, stampPool)
// and without a savepoint:
//   - an UPDATE of the composition's row that draws a new stamp, as every
//     put does (an ETag, app.CompositionStamper), and sets only the columns
//     whose values differ (has_banks and has_items always: a copy may not
//     tell an empty list from none);
//   - per position of the items and of the banks: an UPDATE where the row
//     differs, an INSERT where the position is new, one DELETE of the
//     positions past the new end.
//
// The stored version is known in two ways, never by a guess of content:
//   - the transaction read it (a single composition read in a write
//     transaction is kept as its base until it is put or deleted): under
//     SERIALIZABLE a concurrent change of it then fails this transaction,
//     which runs again and reads it again;
//   - the caller hands it with its stamp (app.CompositionBasePutter: the
//     prepared write of app/storecache, which read it in a snapshot), and
//     the transaction has checked that stamp (CompositionStamp, or the
//     guessed check of stampcheck.go, queued ahead of the put in the same
//     pipeline, so that a wrong guess fails before anything is written).
//
// The delta is taken only when the company, code and state stay (the
// general path answers a taken code and a move between companies, with
// their list counts); anything else is the full put. Either way the rows
// left are the ones the full put leaves (compdelta_test.go compares them).

// compositionColumns are the composition row's columns, in
// compositionRow's order.
var compositionColumns = []string{"company_id", "id", "user_id", "department_id", "group_id", "code", "second_code", "description",
	"type", "unit", "state", "is_sicro", "labor", "rounding", "note", "team_production", "fic", "labor_addition", "has_banks", "has_items",
	"code_fold", "code_key", "description_fold", "description_ci", "unit_fold", "unit_ci", "state_fold", "state_ci", "type_fold", "type_ci",
	"created_at", "created_at_ns", "tags", "labour_charges"}

// alwaysSet are the columns of the row the delta sets whatever the base
// says: a base handed by a caller is only as exact as the caller's copy,
// and these two are cheap and never indexed.
var alwaysSet = map[string]bool{"has_banks": true, "has_items": true}

// compositionRow is what the composition's row stores, column by column.
func compositionRow(c *domain.Composition) []any {
	at, ns := ts(c.CreatedAt)
	return []any{c.CompanyID, c.ID, c.UserID, c.DepartmentID, c.GroupID, c.Code, c.SecondCode, c.Description,
		c.Type, c.Unit, c.State, c.IsSicro, c.Labor, int(c.Rounding), c.Note,
		num(c.TeamProduction), num(c.FIC), num(c.LaborAddition), c.Banks != nil, c.Items != nil,
		app.Fold(c.Code), app.CodeKey(app.Fold(c.Code)), app.Fold(c.Description), ciFold(c.Description),
		app.Fold(c.Unit), ciFold(c.Unit), app.Fold(c.State), ciFold(c.State), app.Fold(c.Type), ciFold(c.Type), at, ns, tagsArg(c.Tags), optNum(c.LabourCharges)}
}

// bankRow and itemRow are what a bank's and an item's row store after
// their keys (company, composition, position).
func bankRow(br domain.BankRef) []any {
	return []any{br.Name, br.State, br.Month, br.Region, br.Report, br.AskedRegion, br.WithLaborCharges}
}

func itemRow(it domain.Item) []any {
	return []any{it.Bank, it.Code, string(it.Kind), num(it.Quantity), optNum(it.Utilization)}
}

// same reports whether two values of a column are stored alike. It says
// no when unsure (a type it does not know): the column is then written.
func same(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int:
		y, ok := b.(int)
		return ok && x == y
	case int32:
		y, ok := b.(int32)
		return ok && x == y
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case []string:
		y, ok := b.([]string)
		return ok && slices.Equal(x, y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case *bool:
		y, ok := b.(*bool)
		return ok && (x == nil) == (y == nil) && (x == nil || *x == *y)
	case pgtype.Numeric:
		y, ok := b.(pgtype.Numeric)
		if !ok || x.Valid != y.Valid {
			return false
		}
		if !x.Valid {
			return true
		}
		// The same digits and the same exponent: numeric keeps the scale.
		return !x.NaN && !y.NaN && x.InfinityModifier == 0 && y.InfinityModifier == 0 &&
			x.Exp == y.Exp && x.Int != nil && y.Int != nil && x.Int.Cmp(y.Int) == 0
	}
	return false
}

// sameRow reports whether two rows' values are stored alike.
func sameRow(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// noteBase keeps c, read in this write transaction as stored, as the base
// of its next put (a copy: the caller changes c).
func (t *tx) noteBase(c *domain.Composition) {
	if !t.writable || t.held != nil {
		return
	}
	if t.bases == nil {
		t.bases = map[string]*domain.Composition{}
	}
	t.bases[c.ID] = c.Clone()
}

// forgetBase forgets what the transaction knew of the stored composition
// id: it is put or deleted.
func (t *tx) forgetBase(id string) {
	delete(t.bases, id)
	delete(t.checked, id)
}

// noteChecked notes that the composition id is stored with the stamp, as
// far as this transaction is concerned: read, or checked ahead of the
// next statement (stampcheck.go).
func (t *tx) noteChecked(id string, stamp int64) {
	if !t.writable {
		return
	}
	if t.checked == nil {
		t.checked = map[string]int64{}
	}
	t.checked[id] = stamp
}

// deltaPuts counts the puts made as a delta (the tests tell the paths
// apart by it).
var deltaPuts atomic.Int64

var _ app.CompositionBasePutter = (*tx)(nil)

// PutCompositionOver is app.CompositionBasePutter: the put of c over base,
// the composition stored under stamp, which this transaction has checked
// (else the full put).
func (t *tx) PutCompositionOver(base *domain.Composition, stamp []byte, c *domain.Composition) error {
	if base == nil || c == nil || base.ID != c.ID || len(stamp) != 8 {
		return t.PutComposition(c)
	}
	n, ok := t.checked[c.ID]
	if _, own := t.stamps[c.ID]; own || !ok || n != int64(binary.BigEndian.Uint64(stamp)) {
		return t.PutComposition(c)
	}
	return t.putComposition(c, base)
}

// deltaFits reports whether c may be written over base as a delta.
func deltaFits(base, c *domain.Composition) bool {
	return base != nil && base.ID == c.ID && base.CompanyID == c.CompanyID && base.Code == c.Code && base.State == c.State
}

// errNoBase is a composition that was not stored where its checked base
// said: it cannot happen, and fails the write rather than guess.
var errNoBase = errors.New("pgstore: the composition's stored row is not the one read")

// putDelta writes c over base, the stored composition (deltaFits), in one
// round trip. A unique key that refuses a row can only be a concurrent
// writer's (base is what this transaction sees stored): the transaction
// runs again, as put's general path does.
func (t *tx) putDelta(base, c *domain.Composition) error {
	if lt, ok := t.ptx.(*lazyTx); ok && t.stampPool != nil {
		if stamp, err := t.stampPool.take(t.ctx); err == nil {
			// In a group: the delta goes with the next statement or the
			// COMMIT, with a stamp drawn ahead (stampPool).
			b := &pgx.Batch{}
			t.queueDelta(b, base, c, stamp)
			lt.pending = append(lt.pending, b.QueuedQueries...)
			t.noteStamp(c.ID, stamp)
			return nil
		}
	}
	b := &pgx.Batch{}
	t.queueDelta(b, base, c, 0)
	err := t.ptx.SendBatch(t.ctx, b).Close()
	var pe *pgconn.PgError
	if err != nil && errors.As(err, &pe) && pe.Code == "23505" {
		t.aborted = true
		return &pgconn.PgError{Code: "40001", Message: "pgstore: " + pe.ConstraintName + " is held by a concurrent transaction"}
	}
	if err != nil {
		return t.fail(err)
	}
	return nil
}

// queueDelta queues on b the statements that turn base, the stored
// composition, into c (deltaFits). Its new stamp is stamp, drawn ahead,
// or when 0 drawn by the UPDATE and returned (noted when it is answered).
func (t *tx) queueDelta(b *pgx.Batch, base, c *domain.Composition, stamp int64) {
	var set strings.Builder
	args := []any{c.CompanyID, c.ID}
	if stamp != 0 {
		args = append(args, stamp)
		set.WriteString(`UPDATE compositions SET stamp = $3`)
	} else {
		set.WriteString(`UPDATE compositions SET stamp = nextval('composition_stamps')`)
	}
	old, row := compositionRow(base), compositionRow(c)
	for i, col := range compositionColumns {
		if i < 2 || (!alwaysSet[col] && same(old[i], row[i])) {
			continue
		}
		args = append(args, row[i])
		set.WriteString(", " + col + " = $" + strconv.Itoa(len(args)))
	}
	deltaPuts.Add(1)
	if stamp != 0 {
		// The row is there: its stamp was checked ahead in this
		// transaction, or it was read in it.
		set.WriteString(` WHERE company_id = $1 AND id = $2`)
		b.Queue(set.String(), args...)
	} else {
		set.WriteString(` WHERE company_id = $1 AND id = $2 RETURNING stamp`)
		b.Queue(set.String(), args...).QueryRow(func(r pgx.Row) error {
			var stamp int64
			if err := r.Scan(&stamp); err != nil {
				if errors.Is(err, pgx.ErrNoRows) {
					return errNoBase
				}
				return err
			}
			t.noteStamp(c.ID, stamp)
			return nil
		})
	}
	queueRows(b, c, len(base.Banks), len(c.Banks), func(i int) bool { return sameRow(bankRow(base.Banks[i]), bankRow(c.Banks[i])) },
		func(i int) []any { return bankRow(c.Banks[i]) }, "composition_banks",
		[]string{"name", "state", "month", "region", "report", "asked_region", "with_labor_charges"})
	queueRows(b, c, len(base.Items), len(c.Items), func(i int) bool { return sameRow(itemRow(base.Items[i]), itemRow(c.Items[i])) },
		func(i int) []any { return itemRow(c.Items[i]) }, "composition_items",
		[]string{"bank", "code", "kind", "quantity", "utilization"})
}

// queueRows queues the statements that turn the n positions stored of a
// child table of c into its m: sameAt(i) says whether position i (below
// both) is unchanged, rowAt(i) is the new row of position i.
func queueRows(b *pgx.Batch, c *domain.Composition, n, m int, sameAt func(int) bool, rowAt func(int) []any, table string, cols []string) {
	var update, insert string
	for i := 0; i < m; i++ {
		if i < n && sameAt(i) {
			continue
		}
		args := append([]any{c.CompanyID, c.ID, int32(i)}, rowAt(i)...)
		if i < n {
			if update == "" {
				sets := make([]string, len(cols))
				for j, col := range cols {
					sets[j] = col + " = $" + strconv.Itoa(j+4)
				}
				update = `UPDATE ` + table + ` SET ` + strings.Join(sets, ", ") + ` WHERE company_id = $1 AND composition_id = $2 AND pos = $3`
			}
			b.Queue(update, args...)
			continue
		}
		if insert == "" {
			marks := make([]string, len(cols)+3)
			for j := range marks {
				marks[j] = "$" + strconv.Itoa(j+1)
			}
			insert = `INSERT INTO ` + table + ` (company_id, composition_id, pos, ` + strings.Join(cols, ", ") + `) VALUES (` + strings.Join(marks, ", ") + `)`
		}
		b.Queue(insert, args...)
	}
	if m < n {
		b.Queue(`DELETE FROM `+table+` WHERE company_id = $1 AND composition_id = $2 AND pos >= $3`, c.CompanyID, c.ID, int32(m))
	}
}

// stampPool keeps composition stamps drawn ahead from the sequence
// composition_stamps, so that a grouped delta put need not wait for the
// stamp its UPDATE would draw: its statements go with the next statement
// or the group's COMMIT, and a group of writes costs one round trip more
// than its first statement, not one per write. A stamp is only ever
// compared for equality (app.CompositionStamper), and the sequence never
// gives a number twice, whoever draws it; the numbers drawn and not used
// are left out, as a rolled-back put's are.
type stampPool struct {
	mu   sync.Mutex
	pool *pgxpool.Pool
	free []int64
}

// stampsAhead is how many stamps one draw takes.
const stampsAhead = 256

// take returns a stamp never used, drawing more when none is left.
func (p *stampPool) take(ctx context.Context) (int64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) == 0 {
		if p.pool == nil {
			return 0, errors.New("pgstore: no pool to draw stamps from")
		}
		var drawn []int64
		if err := p.pool.QueryRow(ctx, `SELECT array(SELECT nextval('composition_stamps') FROM generate_series(1, $1))`, stampsAhead).Scan(&drawn); err != nil {
			return 0, err
		}
		p.free = drawn
	}
	n := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return n, nil
}
