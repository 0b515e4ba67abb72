package pgstore

import (
	"fmt"
	"math/rand/v2"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Inside Batch (app.BatchTx) the resources and compositions put are held
// and written with COPY, batchAt records at a time and whenever the
// transaction reads resources or compositions, instead of one savepoint
// and one round trip of INSERTs each: a company import or costdb migrate
// writes tens of thousands of them. A record put in a batch must be new:
// its id, and its code in its company, taken by a stored record is
// ECONFLICT (the unique indexes refuse the COPY), as is a code taken by
// an earlier record of the batch.

var _ app.BatchTx = (*tx)(nil)

// batchAt is how many records a batch holds before it writes them, so
// that its memory stays bounded however many it puts.
const batchAt = 5000

type heldRecords struct {
	resources    []*domain.Resource
	compositions []*domain.Composition
	// codes maps the held records' unique keys to their ids.
	resCodes, compCodes map[string]string
	wrote               int // records written
}

func (h *heldRecords) len() int { return len(h.resources) + len(h.compositions) }

// Batch is app.BatchTx.
func (t *tx) Batch(fn func() error) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if t.held != nil {
		return fn()
	}
	t.held = &heldRecords{resCodes: map[string]string{}, compCodes: map[string]string{}}
	err := fn()
	if err == nil {
		err = t.writeHeld()
	}
	wrote := t.held.wrote
	t.held = nil
	if err == nil && wrote >= analyzeAfter {
		// The planner's statistics still count the tables as they were
		// before the batch: a company that had no resources would have
		// its reads of them (the import prices every composition it
		// wrote) planned as scans of the whole table, one per read.
		err = t.exec(`ANALYZE resources, compositions, composition_banks, composition_items`)
	}
	return err
}

// analyzeAfter is how many records a batch writes before the tables'
// statistics are taken again at its end.
const analyzeAfter = 1000

// holdResource holds v in the batch (a copy of what the writes need).
func (t *tx) holdResource(v *domain.Resource) error {
	h := t.held
	k := v.CompanyID + "\x00" + v.Code
	if id, ok := h.resCodes[k]; ok && id != v.ID {
		return conflict("resource code "+v.Code, id)
	}
	h.resCodes[k] = v.ID
	c := *v
	h.resources = append(h.resources, &c)
	if h.len() >= batchAt {
		return t.writeHeld()
	}
	return nil
}

func (t *tx) holdComposition(v *domain.Composition) error {
	h := t.held
	k := v.CompanyID + "\x00" + v.Code + "\x00" + v.State
	if id, ok := h.compCodes[k]; ok && id != v.ID {
		return conflict(fmt.Sprintf("composition code %s (%s)", v.Code, v.State), id)
	}
	h.compCodes[k] = v.ID
	c := *v
	h.compositions = append(h.compositions, &c)
	if h.len() >= batchAt {
		return t.writeHeld()
	}
	return nil
}

// writeHeld writes the held records with COPY and adds them to the list
// counts. The code maps go with them, so that a batch's memory stays
// bounded: a later put taking a code written already is refused by the
// unique index (ECONFLICT naming the index) when it is written.
func (t *tx) writeHeld() error {
	h := t.held
	if h == nil || h.len() == 0 {
		return nil
	}
	counts := map[[2]string]int{}
	if rs := h.resources; len(rs) > 0 {
		if err := t.copyRows("resources", append([]string{"company_id", "id", "user_id", "department_id", "group_id", "code", "second_code", "description",
			"type", "unit", "is_sicro", "status", "note", "code_fold", "code_key", "description_fold", "description_ci", "unit_fold", "unit_ci",
			"created_at", "created_at_ns", "tags"}, priceColumns...), len(rs), func(i int) []any {
			v := rs[i]
			at, ns := ts(v.CreatedAt)
			return append([]any{v.CompanyID, v.ID, v.UserID, v.DepartmentID, v.GroupID, v.Code, v.SecondCode, v.Description,
				int32(v.Type), v.Unit, v.IsSicro, v.Status, v.Note, app.Fold(v.Code), app.CodeKey(app.Fold(v.Code)),
				app.Fold(v.Description), ciFold(v.Description), app.Fold(v.Unit), ciFold(v.Unit), at, ns, tagsArg(v.Tags)}, priceRow(v)...)
		}); err != nil {
			return err
		}
		for _, v := range rs {
			counts[[2]string{v.CompanyID, "resources"}]++
			t.noteTerms(resourceTerms, v.CompanyID, app.Fold(v.Description), 1)
		}
	}
	if cs := h.compositions; len(cs) > 0 {
		if err := t.copyRows("compositions", compositionColumns, len(cs), func(i int) []any { return compositionRow(cs[i]) }); err != nil {
			return err
		}
		var banks, items [][]any
		for _, c := range cs {
			for i, br := range c.Banks {
				banks = append(banks, []any{c.CompanyID, c.ID, int32(i), br.Name, br.State, br.Month, br.Region, br.Report, br.AskedRegion, br.WithLaborCharges})
			}
			for i, it := range c.Items {
				items = append(items, []any{c.CompanyID, c.ID, int32(i), it.Bank, it.Code, string(it.Kind), num(it.Quantity), optNum(it.Utilization)})
			}
			counts[[2]string{c.CompanyID, "compositions"}]++
		}
		if err := t.copyRows("composition_banks", []string{"company_id", "composition_id", "pos", "name", "state", "month", "region", "report", "asked_region", "with_labor_charges"},
			len(banks), func(i int) []any { return banks[i] }); err != nil {
			return err
		}
		if err := t.copyRows("composition_items", []string{"company_id", "composition_id", "pos", "bank", "code", "kind", "quantity", "utilization"},
			len(items), func(i int) []any { return items[i] }); err != nil {
			return err
		}
	}
	b := &pgx.Batch{}
	for k, n := range counts {
		b.Queue(`INSERT INTO list_counts (company_id, list, shard, n) VALUES ($1, $2, $3, $4)
			ON CONFLICT (company_id, list, shard) DO UPDATE SET n = list_counts.n + excluded.n`, k[0], k[1], rand.IntN(countShards), n)
	}
	h.wrote += h.len()
	h.resources, h.compositions = nil, nil
	h.resCodes, h.compCodes = map[string]string{}, map[string]string{}
	if err := t.writeTerms(); err != nil { // with b, and bounded as the batch is
		return err
	}
	return t.send(b)
}

// copyRows copies n rows (row(i) each) into table's columns.
func (t *tx) copyRows(table string, cols []string, n int, row func(i int) []any) error {
	if n == 0 {
		return nil
	}
	_, err := t.ptx.CopyFrom(t.ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(n, func(i int) ([]any, error) { return row(i), nil }))
	if err != nil {
		return t.fail(err)
	}
	return nil
}
