package boltstore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The list indexes (docs/storage.md, "Lists"). For each kind of company
// record (groups, resources, compositions, budgets):
//
//   - <kind>_by_company: companyID \x00 id → the record's row (row.go):
//     every field a list filters or sorts by, texts also folded (app.Fold),
//     and the own items the record uses. Filters that need a scan read
//     rows in place, never whole records.
//   - <kind>_order: companyID \x00 field \x00 esc(key) esc(tie) id → id, one
//     entry per record and sort field: the cursor walks a sorted list and
//     touches only the page.
//   - <kind>_uses (compositions, budgets): companyID \x00 kind \x00
//     esc(code) esc(state) id → empty, one entry per own item used.
//   - list_counts: companyID \x00 <kind> → the number of records, 8 bytes
//     big-endian, so that the total of an unfiltered list costs one read.
//
// esc writes a byte string so that the order of the encoded tuples is the
// order of the tuples: 0x00 becomes 0x00 0xFF and the string ends with 0x00
// 0x01.

// listKind describes one kind of listed record.
type listKind struct {
	name    string
	records []byte // the records, by id
	rows    []byte // <kind>_by_company
	order   []byte // <kind>_order
	uses    []byte // <kind>_uses, nil when the kind uses nothing
	sorts   []app.Field
	filters []app.Field
	intType bool // FieldType is an integer (resources), else a text
	tagged  bool // its records have tags (app.Tagged)
}

var (
	bucketGroupsOrder       = []byte("groups_order")
	bucketResourcesOrder    = []byte("resources_order")
	bucketCompositionsOrder = []byte("compositions_order")
	bucketCompositionsUses  = []byte("compositions_uses")
	bucketBudgetsOrder      = []byte("budgets_order")
	bucketBudgetsUses       = []byte("budgets_uses")
	bucketListCounts        = []byte("list_counts")

	listBuckets = [][]byte{
		bucketGroupsOrder, bucketResourcesOrder, bucketCompositionsOrder, bucketCompositionsUses,
		bucketBudgetsOrder, bucketBudgetsUses, bucketListCounts,
	}
)

var (
	groupKind = &listKind{
		name: "groups", records: bucketGroups, rows: bucketGroupsByCompany, order: bucketGroupsOrder,
		sorts:   []app.Field{app.FieldDescription, app.FieldCreatedAt},
		filters: []app.Field{app.FieldDescription, app.FieldCreatedAt},
	}
	resourceKind = &listKind{
		name: "resources", records: bucketResources, rows: bucketResourcesByCompany, order: bucketResourcesOrder,
		sorts: []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldStatus, app.FieldIsSicro, app.FieldCreatedAt, app.FieldGroup},
		filters: []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldGroup,
			app.FieldStatus, app.FieldIsSicro, app.FieldCreatedAt},
		intType: true, tagged: true,
	}
	compositionKind = &listKind{
		name: "compositions", records: bucketCompositions, rows: bucketCompositionsByCompany,
		order: bucketCompositionsOrder, uses: bucketCompositionsUses,
		sorts: []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldState, app.FieldIsSicro, app.FieldCreatedAt, app.FieldGroup},
		filters: []app.Field{app.FieldCode, app.FieldDescription, app.FieldType, app.FieldUnit, app.FieldState,
			app.FieldGroup, app.FieldIsSicro, app.FieldCreatedAt},
		tagged: true,
	}
	budgetKind = &listKind{
		name: "budgets", records: bucketBudgets, rows: bucketBudgetsByCompany,
		order: bucketBudgetsOrder, uses: bucketBudgetsUses,
		sorts: []app.Field{app.FieldCode, app.FieldDescription, app.FieldClient, app.FieldState, app.FieldCreatedAt, app.FieldUpdatedAt},
		filters: []app.Field{app.FieldCode, app.FieldDescription, app.FieldClient, app.FieldState,
			app.FieldCreatedAt, app.FieldUpdatedAt},
		tagged: true,
	}
	listKinds = []*listKind{groupKind, resourceKind, compositionKind, budgetKind}
)

// row is what the list indexes keep of a record (stored as row.go says).
type row struct {
	Code     string
	FCode    string
	Desc     string
	FDesc    string
	Client   string
	FClient  string
	Unit     string
	State    string
	TypeText string
	TypeNum  int
	Group    string
	Status   bool
	Sicro    bool
	Priced   []string // states with a price line, sorted
	Created  instant
	Updated  instant
	Uses     []usedEntry // own items, sorted, once each
}

// usedEntry is an own item a record uses: kind and code.
type usedEntry struct {
	Kind string
	Code string
}

// instant is a time as Unix seconds and nanoseconds, which orders every
// time.Time (the zero time too) as Compare does.
type instant [2]int64

func nanos(t time.Time) instant { return instant{t.Unix(), int64(t.Nanosecond())} }

func (a instant) compare(b instant) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// bytes returns the bytes an instant sorts by.
func (a instant) bytes() []byte {
	return append(sortable(a[0]), sortable(a[1])...)
}

func groupRow(g *domain.Group) *row {
	return &row{Desc: g.Description, FDesc: app.Fold(g.Description), Created: nanos(g.CreatedAt)}
}

func resourceRow(r *domain.Resource) *row {
	return &row{
		Code: r.Code, FCode: app.Fold(r.Code), Desc: r.Description, FDesc: app.Fold(r.Description),
		Unit: r.Unit, TypeNum: r.Type, Group: r.GroupID, Status: r.Status, Sicro: r.IsSicro,
		Priced: r.States(), Created: nanos(r.CreatedAt),
	}
}

func compositionRow(c *domain.Composition) *row {
	w := &row{
		Code: c.Code, FCode: app.Fold(c.Code), Desc: c.Description, FDesc: app.Fold(c.Description),
		Unit: c.Unit, State: c.State, TypeText: c.Type, Group: c.GroupID, Sicro: c.IsSicro,
		Created: nanos(c.CreatedAt),
	}
	for _, it := range c.Items {
		if it.IsOwn() {
			w.Uses = append(w.Uses, usedEntry{Kind: string(it.Kind), Code: it.Code})
		}
	}
	w.Uses = sortedUses(w.Uses)
	return w
}

func budgetRow(b *domain.Budget) *row {
	w := &row{
		Code: b.Code, FCode: app.Fold(b.Code), Desc: b.Description, FDesc: app.Fold(b.Description),
		Client: b.Client, FClient: app.Fold(b.Client), State: b.State,
		Created: nanos(b.CreatedAt), Updated: nanos(b.UpdatedAt),
	}
	for _, e := range b.Outline() {
		n := e.Node
		if n.Kind.IsLine() && n.Bank == domain.BankMyBase {
			w.Uses = append(w.Uses, usedEntry{Kind: string(n.Kind), Code: n.Code})
		}
	}
	w.Uses = sortedUses(w.Uses)
	return w
}

func sortedUses(us []usedEntry) []usedEntry {
	slices.SortFunc(us, func(a, b usedEntry) int {
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Code, b.Code)
	})
	return slices.Compact(us)
}

// esc appends s, encoded so that tuples keep their order (see above).
func esc(buf, s []byte) []byte {
	for _, c := range s {
		if c == 0 {
			buf = append(buf, 0, 0xFF)
			continue
		}
		buf = append(buf, c)
	}
	return append(buf, 0, 1)
}

// sortable returns the bytes an int64 sorts by (sign bit flipped, big-endian).
func sortable(v int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v)^(1<<63))
	return b[:]
}

func boolByte(v bool) []byte {
	if v {
		return []byte{1}
	}
	return []byte{0}
}

// sortKey returns the bytes a row sorts by on field f: esc(key) esc(tie),
// as app.Query orders (folded text then the text; natural order of the
// folded code then the code; numbers; false before true; instants).
func (k *listKind) sortKey(w *rowView, f app.Field) []byte {
	pair := func(key, tie []byte) []byte { return esc(esc(nil, key), tie) }
	text := func(s []byte) []byte { return pair([]byte(app.Fold(string(s))), s) }
	switch f {
	case app.FieldCode:
		return pair(app.CodeKey(string(w.FCode)), w.Code)
	case app.FieldDescription:
		return pair(w.FDesc, w.Desc)
	case app.FieldClient:
		return pair(w.FClient, w.Client)
	case app.FieldUnit:
		return text(w.Unit)
	case app.FieldState:
		return text(w.State)
	case app.FieldType:
		if k.intType {
			return pair(sortable(int64(w.TypeNum)), nil)
		}
		return text(w.TypeText)
	case app.FieldStatus:
		return pair(boolByte(w.Status), nil)
	case app.FieldIsSicro:
		return pair(boolByte(w.Sicro), nil)
	case app.FieldCreatedAt:
		return pair(w.Created.bytes(), nil)
	case app.FieldUpdatedAt:
		return pair(w.Updated.bytes(), nil)
	case app.FieldGroup: // not a sort key of app's: it finds a group's members
		return pair(w.Group, nil)
	}
	return nil
}

func orderPrefix(companyID string, f app.Field) []byte {
	return key(companyID, string(f), "")
}

func (k *listKind) orderKey(companyID, id string, f app.Field, w *rowView) []byte {
	return append(append(orderPrefix(companyID, f), k.sortKey(w, f)...), id...)
}

// usesPrefix is the prefix of the uses entries of an own item: for a
// composition, in the state of the records that use it.
func usesPrefix(companyID, kind, code, state string) []byte {
	if kind != string(domain.KindComposition) {
		state = ""
	}
	p := key(companyID, kind, "")
	p = esc(p, []byte(code))
	return esc(p, []byte(state))
}

func countKey(companyID string, k *listKind) []byte { return key(companyID, k.name) }

// readRow returns the row of the record id of the company, or nil.
func (t *tx) readRow(k *listKind, companyID, id string) (*row, error) {
	data := t.iget(k.rows, key(companyID, id))
	if len(data) == 0 {
		return nil, nil
	}
	var v rowView
	if err := parseRow(data, &v); err != nil {
		return nil, fmt.Errorf("boltstore: corrupt index entry of %s %s: %w", k.name, id, err)
	}
	return v.row()
}

// relistRow updates every list index of record id: it leaves oldCompany
// (when the record was stored, with the row old) and joins newCompany with
// the row w (nil: the record is deleted).
func (t *tx) relistRow(k *listKind, id, oldCompany string, old *row, newCompany string, w *row) error {
	counts := t.bucket(bucketListCounts)
	if old != nil {
		var ov rowView
		if err := parseRow(encodeRow(old), &ov); err != nil {
			return err
		}
		if err := t.idelete(k.rows, key(oldCompany, id)); err != nil {
			return err
		}
		if err := t.indexWords(k, oldCompany, id, &ov, -1); err != nil {
			return err
		}
		for _, f := range k.sorts {
			if err := t.idelete(k.order, k.orderKey(oldCompany, id, f, &ov)); err != nil {
				return err
			}
		}
		if k.uses != nil {
			for _, u := range old.Uses {
				if err := t.idelete(k.uses, append(usesPrefix(oldCompany, u.Kind, u.Code, old.State), id...)); err != nil {
					return err
				}
			}
		}
		if err := addCount(counts, countKey(oldCompany, k), -1); err != nil {
			return err
		}
	}
	if w == nil {
		return nil
	}
	data := encodeRow(w)
	var nv rowView
	if err := parseRow(data, &nv); err != nil {
		return err
	}
	if err := t.iput(k.rows, key(newCompany, id), data); err != nil {
		return err
	}
	if err := t.indexWords(k, newCompany, id, &nv, 1); err != nil {
		return err
	}
	for _, f := range k.sorts {
		if err := t.iput(k.order, k.orderKey(newCompany, id, f, &nv), []byte(id)); err != nil {
			return err
		}
	}
	if k.uses != nil {
		for _, u := range w.Uses {
			if err := t.iput(k.uses, append(usesPrefix(newCompany, u.Kind, u.Code, w.State), id...), []byte{}); err != nil {
				return err
			}
		}
	}
	return addCount(counts, countKey(newCompany, k), 1)
}

// reindexList reads the old row of record id (in oldCompany, when found) and
// updates the list indexes to w in newCompany (nil w: deleted).
func (t *tx) reindexList(k *listKind, id string, found bool, oldCompany, newCompany string, w *row) error {
	if found && w != nil && oldCompany == newCompany {
		// Unchanged (add_items changes no listed field): every entry is
		// already right, and rewriting them would only dirty pages the
		// commit then writes.
		if data := t.iget(k.rows, key(oldCompany, id)); len(data) > 0 && bytes.Equal(data, encodeRow(w)) {
			return nil
		}
	}
	var old *row
	if found {
		var err error
		if old, err = t.readRow(k, oldCompany, id); err != nil {
			return err
		}
		if old == nil {
			return fmt.Errorf("boltstore: %s %s has no entry in %s", k.name, id, k.rows)
		}
	}
	return t.relistRow(k, id, oldCompany, old, newCompany, w)
}

func addCount(b *bolt.Bucket, k []byte, delta int64) error {
	var n int64
	if v := b.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	n += delta
	if n <= 0 {
		return b.Delete(k)
	}
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], uint64(n))
	return b.Put(k, v[:])
}

func (t *tx) count(k *listKind, companyID string) int {
	if v := t.bucket(bucketListCounts).Get(countKey(companyID, k)); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// check refuses a query that names a field the kind does not have.
func (k *listKind) check(q app.Query) error {
	for _, c := range q.Where {
		switch c.Op {
		case app.PricedIn:
			if k != resourceKind {
				return fmt.Errorf("boltstore: %s cannot be filtered by the states they are priced in", k.name)
			}
			continue
		case app.Uses:
			if k.uses == nil {
				return fmt.Errorf("boltstore: %s use no items", k.name)
			}
			continue
		case app.Tagged:
			if !k.tagged {
				return fmt.Errorf("boltstore: %s have no tags", k.name)
			}
			continue
		case app.Contains, app.EqualFold, app.Equal, app.AtOrAfter, app.Before:
		default:
			return fmt.Errorf("boltstore: unknown condition %d", c.Op)
		}
		if len(c.Fields) == 0 || (c.Op != app.Contains && len(c.Fields) != 1) {
			return fmt.Errorf("boltstore: condition %d on %d fields", c.Op, len(c.Fields))
		}
		for _, f := range c.Fields {
			if !slices.Contains(k.filters, f) {
				return fmt.Errorf("boltstore: %s cannot be filtered by %s", k.name, f)
			}
		}
	}
	for _, o := range q.Sort {
		if !slices.Contains(k.sorts, o.Field) {
			return fmt.Errorf("boltstore: %s cannot be sorted by %s", k.name, o.Field)
		}
	}
	return nil
}

// query answers q for the company: the ids of the page, in order, and the
// total.
func (t *tx) query(k *listKind, companyID string, q app.Query) ([]string, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	if err := k.check(q); err != nil {
		return nil, 0, err
	}
	offset := max(q.Offset, 0)
	limit := q.Limit
	if len(q.Where) == 0 {
		total := t.count(k, companyID)
		if offset >= total {
			return []string{}, total, nil
		}
		switch len(q.Sort) {
		case 0:
			return t.pageByID(k, companyID, offset, limit), total, nil
		case 1:
			return t.pageByOrder(k, companyID, q.Sort[0], offset, limit, nil), total, nil
		}
	}
	if k == compositionKind && len(q.Where) == 1 && len(q.Sort) == 0 && q.Where[0].Op == app.Equal && q.Where[0].Fields[0] == app.FieldCode {
		ids, total := t.pageByCode(companyID, q.Where[0].Text, offset, limit)
		return ids, total, nil
	}
	if len(q.Where) == 1 && len(q.Sort) == 0 {
		switch c := q.Where[0]; {
		case c.Op == app.Uses:
			prefix := usesPrefix(companyID, string(c.Item.Kind), c.Item.Code, c.Item.State)
			ids, total := t.pageByPrefix(k.uses, prefix, offset, limit)
			return ids, total, nil
		case c.Op == app.Equal && c.Fields[0] == app.FieldGroup && slices.Contains(k.sorts, app.FieldGroup):
			prefix := append(orderPrefix(companyID, app.FieldGroup), k.sortKey(&rowView{Group: []byte(c.Text)}, app.FieldGroup)...)
			ids, total := t.pageByPrefix(k.order, prefix, offset, limit)
			return ids, total, nil
		}
	}
	if ids, total, ok, err := t.queryWords(k, companyID, q, offset, limit); ok {
		return ids, total, err
	}
	return t.scan(k, companyID, q, offset, limit, nil)
}

// window reports whether the n-th (from 0) record matching goes in the page
// and whether the page is complete after it.
func window(n, offset, limit int) (in, full bool) {
	in = n >= offset && (limit <= 0 || n < offset+limit)
	full = limit > 0 && n+1 >= offset+limit
	return in, full
}

// pager keeps the ids of a page (offset, limit) of the entries it is
// given, in order.
type pager struct {
	offset, limit int
	n             int // entries given so far
	ids           []string
	keep          func(id []byte) bool // the entries that count; nil: all
}

func newPager(offset, limit int) *pager { return &pager{offset: offset, limit: limit, ids: []string{}} }

// add counts an entry and keeps its id when it is in the page; false once
// the page is full.
func (p *pager) add(id []byte) bool {
	if p.keep != nil && !p.keep(id) {
		return true
	}
	in, full := window(p.n, p.offset, p.limit)
	p.n++
	if in {
		p.ids = append(p.ids, string(id))
	}
	return !full
}

// pageByID walks the company's rows in ID order; it reads keys only.
func (t *tx) pageByID(k *listKind, companyID string, offset, limit int) []string {
	prefix := key(companyID, "")
	p := newPager(offset, limit)
	c := t.bucket(k.rows).Cursor()
	for kk, _ := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, _ = c.Next() {
		if !p.add(kk[len(prefix):]) {
			break
		}
	}
	return p.ids
}

// pageByOrder walks the sort index of one field. Descending, it walks the
// groups of equal keys from the last, each group forward, so that ties stay
// in ID order. keep, when set, says which ids count (the others are
// skipped).
func (t *tx) pageByOrder(k *listKind, companyID string, o app.Order, offset, limit int, keep func(id []byte) bool) []string {
	prefix := orderPrefix(companyID, o.Field)
	p := newPager(offset, limit)
	if keep != nil {
		p.keep = keep
	}
	c := t.bucket(k.order).Cursor()
	if !o.Desc {
		for kk, v := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, v = c.Next() {
			if !p.add(v) {
				break
			}
		}
		return p.ids
	}
	// The last entry of the prefix: seek past it, step back.
	end := append(bytes.Clone(prefix[:len(prefix)-1]), 1)
	kk, _ := c.Seek(end)
	var v []byte
	if kk == nil {
		kk, v = c.Last()
	} else {
		kk, v = c.Prev()
	}
	// A group's entries are gathered stepping back, up to smallGroup of
	// them, and given in reverse: no seek for the groups of one entry (a
	// unique key such as the code). A larger group is walked forward
	// from its first entry, then the walk steps back from there.
	const smallGroup = 32
	var ids [][]byte
	for kk != nil && bytes.HasPrefix(kk, prefix) {
		group := kk[:len(kk)-len(v)]
		ids = ids[:0]
		for kk != nil && bytes.HasPrefix(kk, prefix) && len(ids) < smallGroup && bytes.Equal(kk[:len(kk)-len(v)], group) {
			ids = append(ids, v)
			kk, v = c.Prev()
		}
		if len(ids) < smallGroup || kk == nil || !bytes.HasPrefix(kk, prefix) || !bytes.Equal(kk[:len(kk)-len(v)], group) {
			for i := len(ids) - 1; i >= 0; i-- {
				if !p.add(ids[i]) {
					return p.ids
				}
			}
			continue
		}
		group = bytes.Clone(group)
		for gk, gv := c.Seek(group); gk != nil && bytes.HasPrefix(gk, group); gk, gv = c.Next() {
			if !p.add(gv) {
				return p.ids
			}
		}
		c.Seek(group)
		kk, v = c.Prev()
	}
	return p.ids
}

// pageByPrefix walks the entries of an index under prefix, each the prefix
// and an id, in ID order: the users of an own item (uses index) or the
// members of a group (order index).
func (t *tx) pageByPrefix(bucket, prefix []byte, offset, limit int) ([]string, int) {
	p := newPager(offset, limit)
	c := t.bucket(bucket).Cursor()
	for kk, _ := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, _ = c.Next() {
		p.add(kk[len(prefix):]) // every entry counts: the total
	}
	return p.ids, p.n
}

// pageByCode finds the company's compositions with the code (one per state)
// in the unique code index, and pages them in ID order.
func (t *tx) pageByCode(companyID, code string, offset, limit int) ([]string, int) {
	if code == "" || strings.IndexByte(code, 0) >= 0 {
		return []string{}, 0
	}
	prefix := key(companyID, code, "")
	var all []string
	c := t.bucket(bucketCompositionByCode).Cursor()
	for kk, v := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, v = c.Next() {
		if bytes.IndexByte(kk[len(prefix):], 0) < 0 { // code \x00 state, not a longer code
			all = append(all, string(v))
		}
	}
	slices.Sort(all)
	ids := []string{}
	for i, id := range all {
		if in, _ := window(i, offset, limit); in {
			ids = append(ids, id)
		}
	}
	return ids, len(all)
}

// scan answers any query by reading the company's rows (not its records),
// or only the rows of the candidates (cands, in ID order, when not nil: the
// records the word index found), or only the rows of an item's users when
// a condition is Uses: it keeps the rows that match, sorts them and cuts
// the page.
func (t *tx) scan(k *listKind, companyID string, q app.Query, offset, limit int, cands []string) ([]string, int, error) {
	match, err := t.matcher(k, companyID, q.Where)
	if err != nil {
		return nil, 0, err
	}
	type hit struct {
		id   string
		keys [][]byte
	}
	var hits []hit
	ids := []string{}
	n := 0 // matches so far
	var v rowView
	add := func(id []byte, data []byte) error {
		if err := parseRow(data, &v); err != nil {
			return fmt.Errorf("boltstore: corrupt index entry of %s %s: %w", k.name, id, err)
		}
		if !match(id, &v) {
			return nil
		}
		if len(q.Sort) == 0 { // ID order: keep the page's ids only
			if in, _ := window(n, offset, limit); in {
				ids = append(ids, string(id))
			}
			n++
			return nil
		}
		h := hit{id: string(id)}
		for _, o := range q.Sort {
			h.keys = append(h.keys, k.sortKey(&v, o.Field))
		}
		hits = append(hits, h)
		return nil
	}
	if cands != nil {
		rows := t.bucket(k.rows)
		for _, id := range cands {
			if err := add([]byte(id), rows.Get(key(companyID, id))); err != nil {
				return nil, 0, err
			}
		}
	} else if i := slices.IndexFunc(q.Where, func(c app.Cond) bool { return c.Op == app.Uses }); i >= 0 {
		// The users of an item are the candidates: read their rows only.
		item := q.Where[i].Item
		prefix := usesPrefix(companyID, string(item.Kind), item.Code, item.State)
		rows := t.bucket(k.rows)
		c := t.bucket(k.uses).Cursor()
		for kk, _ := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, _ = c.Next() {
			id := kk[len(prefix):]
			if err := add(id, rows.Get(key(companyID, string(id)))); err != nil {
				return nil, 0, err
			}
		}
	} else {
		prefix := key(companyID, "")
		c := t.bucket(k.rows).Cursor()
		for kk, data := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, data = c.Next() {
			if err := add(kk[len(prefix):], data); err != nil {
				return nil, 0, err
			}
		}
	}
	if len(q.Sort) == 0 {
		return ids, n, nil
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		for i, o := range q.Sort {
			c := bytes.Compare(a.keys[i], b.keys[i])
			if o.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.id, b.id)
	})
	total := len(hits)
	for i := range hits {
		in, full := window(i, offset, limit)
		if in {
			ids = append(ids, hits[i].id)
		}
		if full {
			break
		}
	}
	return ids, total, nil
}

// matcher compiles the conditions into one test of a row.
func (t *tx) matcher(k *listKind, companyID string, where []app.Cond) (func(id []byte, w *rowView) bool, error) {
	var tests []func(id []byte, w *rowView) bool
	for _, c := range where {
		switch c.Op {
		case app.Contains:
			want := []byte(app.Fold(c.Text))
			tests = append(tests, func(_ []byte, w *rowView) bool {
				for _, f := range c.Fields {
					if bytes.Contains(foldedText(w, f), want) {
						return true
					}
				}
				return false
			})
		case app.EqualFold:
			f, want := c.Fields[0], []byte(c.Text)
			tests = append(tests, func(_ []byte, w *rowView) bool { return bytes.EqualFold(rawText(w, f), want) })
		case app.Equal:
			f := c.Fields[0]
			switch {
			case f == app.FieldStatus:
				tests = append(tests, func(_ []byte, w *rowView) bool { return w.Status == c.Bool })
			case f == app.FieldIsSicro:
				tests = append(tests, func(_ []byte, w *rowView) bool { return w.Sicro == c.Bool })
			case f == app.FieldType && k.intType:
				tests = append(tests, func(_ []byte, w *rowView) bool { return w.TypeNum == c.Int })
			case f == app.FieldCreatedAt || f == app.FieldUpdatedAt:
				at := nanos(c.Time)
				tests = append(tests, func(_ []byte, w *rowView) bool { return timeOf(w, f) == at })
			default:
				tests = append(tests, func(_ []byte, w *rowView) bool { return string(rawText(w, f)) == c.Text })
			}
		case app.AtOrAfter, app.Before:
			f, at, after := c.Fields[0], nanos(c.Time), c.Op == app.AtOrAfter
			tests = append(tests, func(_ []byte, w *rowView) bool {
				if after {
					return timeOf(w, f).compare(at) >= 0
				}
				return timeOf(w, f).compare(at) < 0
			})
		case app.PricedIn:
			tests = append(tests, func(_ []byte, w *rowView) bool {
				for _, st := range w.Priced {
					if string(st) == c.Text {
						return true
					}
				}
				return false
			})
		case app.Tagged:
			// The rows hold no tags: the record is read (a scan, as a text
			// filter's).
			records := t.bucket(k.records)
			tests = append(tests, func(id []byte, _ *rowView) bool {
				data := records.Get(id)
				if !bytes.Contains(data, []byte(`"tags":[`)) {
					return false
				}
				var r struct {
					Tags []string `json:"tags"`
				}
				return json.Unmarshal(data, &r) == nil && slices.Contains(r.Tags, c.Text)
			})
		case app.Uses:
			prefix := usesPrefix(companyID, string(c.Item.Kind), c.Item.Code, c.Item.State)
			uses := t.bucket(k.uses)
			buf := bytes.Clone(prefix)
			tests = append(tests, func(id []byte, _ *rowView) bool {
				buf = append(buf[:len(prefix)], id...)
				return uses.Get(buf) != nil
			})
		}
	}
	return func(id []byte, w *rowView) bool {
		for _, test := range tests {
			if !test(id, w) {
				return false
			}
		}
		return true
	}, nil
}

func foldedText(w *rowView, f app.Field) []byte {
	switch f {
	case app.FieldCode:
		return w.FCode
	case app.FieldDescription:
		return w.FDesc
	case app.FieldClient:
		return w.FClient
	}
	return nil
}

func rawText(w *rowView, f app.Field) []byte {
	switch f {
	case app.FieldCode:
		return w.Code
	case app.FieldDescription:
		return w.Desc
	case app.FieldClient:
		return w.Client
	case app.FieldUnit:
		return w.Unit
	case app.FieldState:
		return w.State
	case app.FieldType:
		return w.TypeText
	case app.FieldGroup:
		return w.Group
	}
	return nil
}

func timeOf(w *rowView, f app.Field) instant {
	if f == app.FieldUpdatedAt {
		return w.Updated
	}
	return w.Created
}

// rebuildLists (re)builds every list index from the records: for a file
// written before the indexes existed (schema version 1).
func rebuildLists(btx *bolt.Tx) error {
	for _, name := range append(slices.Clone(listBuckets), wordBuckets...) {
		if btx.Bucket(name) != nil {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		if _, err := btx.CreateBucket(name); err != nil {
			return err
		}
	}
	for _, k := range listKinds {
		if err := btx.DeleteBucket(k.rows); err != nil {
			return err
		}
		if _, err := btx.CreateBucket(k.rows); err != nil {
			return err
		}
	}
	t := &tx{btx: btx, writable: true}
	type each struct {
		k   *listKind
		row func(data []byte) (string, string, *row, error)
	}
	decode := func(data []byte, v interface{ companyAndID() (string, string) }, conv func(*decoder) *row) (string, string, *row, error) {
		if err := json.Unmarshal(data, v); err != nil {
			return "", "", nil, err
		}
		var d decoder
		w := conv(&d)
		if d.err != nil {
			return "", "", nil, d.err
		}
		co, id := v.companyAndID()
		return co, id, w, nil
	}
	all := []each{
		{groupKind, func(data []byte) (string, string, *row, error) {
			var r groupRecord
			return decode(data, &r, func(d *decoder) *row { return groupRow(r.domain(d)) })
		}},
		{resourceKind, func(data []byte) (string, string, *row, error) {
			var r resourceRecord
			return decode(data, &r, func(d *decoder) *row { return resourceRow(r.domain(d)) })
		}},
		{compositionKind, func(data []byte) (string, string, *row, error) {
			var r compositionRecord
			return decode(data, &r, func(d *decoder) *row { return compositionRow(r.domain(d)) })
		}},
		{budgetKind, func(data []byte) (string, string, *row, error) {
			var r budgetRecord
			return decode(data, &r, func(d *decoder) *row { return budgetRow(r.domain(d)) })
		}},
	}
	for _, e := range all {
		err := btx.Bucket(e.k.records).ForEach(func(k, v []byte) error {
			co, id, w, err := e.row(v)
			if err != nil {
				return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, e.k.records, err)
			}
			return t.relistRow(e.k, id, "", nil, co, w)
		})
		if err != nil {
			return err
		}
	}
	return t.flushWords()
}

func (r *groupRecord) companyAndID() (string, string)       { return r.CompanyID, r.ID }
func (r *resourceRecord) companyAndID() (string, string)    { return r.CompanyID, r.ID }
func (r *compositionRecord) companyAndID() (string, string) { return r.CompanyID, r.ID }
func (r *budgetRecord) companyAndID() (string, string)      { return r.CompanyID, r.ID }
