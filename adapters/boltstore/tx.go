package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/costdb/costdb/adapters/internal/recordcache"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// tx is one bbolt transaction seen through the app.Tx port. Every value read
// is decoded (and so copied) before the method returns: nothing returned
// points into bbolt's memory map.
type tx struct {
	btx      *bolt.Tx
	writable bool
	done     bool
	// records is the store's cache of decoded contract records, for a
	// read transaction (nil in a write one: its records may be changed).
	records *recordcache.Cache
	// resources is the store's cache of decoded resources, for a read
	// transaction (nil in a write one; resourcecache.go).
	resources *recordcache.Cache
	// structs holds the shared structures put and released, written in
	// key order when the Update's function returns (see structureWrites).
	structs *structureWrites
	// putComp is the composition record this transaction put last (its
	// id and bytes, which bbolt keeps and nothing changes): its stamp,
	// without reading it back.
	putComp struct {
		id   string
		data []byte
	}
	// search holds the editions whose search index the transaction must
	// write again (search.go).
	search map[string]*searchEdition
	// held are the index writes of a batch (batch.go), by bucket and key.
	held map[string]map[string][]byte
	// words holds the word index changes not yet written (listwords.go).
	words *wordWrites
	// tokens is the store's memo of the tokens a filter word matched, for
	// a read transaction (tokenmemo.go).
	tokens *tokenMemo
	// opened are the buckets a read transaction opened (bucket), in the
	// array's room.
	opened    []openedBucket
	openedArr [8]openedBucket
}

// structures returns the transaction's pending structure writes.
func (t *tx) structures() *structureWrites {
	if t.structs == nil {
		t.structs = newStructureWrites(t.btx)
	}
	return t.structs
}

// flush writes the pending structures: the end of an Update's function.
func (t *tx) flush() error {
	if err := t.flushWords(); err != nil {
		return err
	}
	if err := t.flushSearch(); err != nil {
		return err
	}
	if t.structs == nil {
		return nil
	}
	return t.structs.flush()
}

var (
	_ app.Tx                 = (*tx)(nil)
	_ app.CompositionStamper = (*tx)(nil)
)

func (t *tx) readable() error {
	if t.done {
		return errors.New("boltstore: transaction used after it ended")
	}
	return nil
}

func (t *tx) canWrite() error {
	if err := t.readable(); err != nil {
		return err
	}
	if !t.writable {
		return errors.New("boltstore: write in a read-only transaction")
	}
	return nil
}

// bucket returns the top-level bucket with the name. A read transaction
// keeps the buckets it opened: bbolt opens a bucket again at every call
// of a read-only transaction (a write one keeps them itself), copying its
// header, and an inline bucket's whole page, when its entry is not
// aligned in the page that holds it.
func (t *tx) bucket(name []byte) *bolt.Bucket {
	if t.writable {
		return t.btx.Bucket(name)
	}
	for _, o := range t.opened {
		if string(o.name) == string(name) {
			return o.b
		}
	}
	b := t.btx.Bucket(name)
	if b != nil && len(t.opened) < cap(t.opened) {
		t.opened = append(t.opened, openedBucket{name, b})
	}
	return b
}

// openedBucket is a bucket a read transaction opened (tx.bucket).
type openedBucket struct {
	name []byte
	b    *bolt.Bucket
}

// key joins the parts of a composite key with NUL bytes.
func key(parts ...string) []byte {
	return []byte(strings.Join(parts, "\x00"))
}

// checkParts takes (field, value) pairs and rejects an empty value or a NUL
// byte in a value that becomes part of a key, so that composite keys stay
// unambiguous.
func checkParts(kind string, fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		field, v := fields[i], fields[i+1]
		if v == "" {
			return fmt.Errorf("boltstore: %s has no %s", kind, field)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("boltstore: %s %s contains a NUL byte", kind, field)
		}
	}
	return nil
}

// get decodes the JSON record under k into v and reports whether there was one.
func (t *tx) get(bucket, k []byte, v any) (bool, error) {
	data := t.bucket(bucket).Get(k)
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
	}
	return true, nil
}

// put stores v, JSON-encoded, under k.
func (t *tx) put(bucket, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("boltstore: encode record %q for bucket %s: %w", k, bucket, err)
	}
	return t.bucket(bucket).Put(k, data)
}

// lookup returns the id that a unique index maps k to, or "".
func (t *tx) lookup(index, k []byte) string {
	if len(k) == 0 {
		return ""
	}
	return string(t.iget(index, k)) // string() copies
}

// reindex moves the entry of a unique index from oldKey to newKey, failing
// with ECONFLICT when newKey already maps to another record. A nil key means
// no entry: the record had none, or gets none.
func (t *tx) reindex(index []byte, what, id string, oldKey, newKey []byte) error {
	held := false // newKey already maps to id: no need to write it again
	if newKey != nil {
		holder := t.iget(index, newKey)
		if holder != nil && string(holder) != id {
			return domain.Errorf(domain.ECONFLICT, "%s is already used by %s", what, holder)
		}
		held = holder != nil
	}
	if oldKey != nil && !bytes.Equal(oldKey, newKey) {
		if err := t.idelete(index, oldKey); err != nil {
			return err
		}
	}
	if newKey != nil && !held {
		return t.iput(index, newKey, []byte(id))
	}
	return nil
}

func decoded[T any](d *decoder, v T, bucket []byte, k string) (T, error) {
	if d.err != nil {
		var zero T
		return zero, fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, d.err)
	}
	return v, nil
}

// decodeRecord decodes data, the record k of bucket, as an R and converts
// it with conv.
func decodeRecord[R, V any](bucket, k, data []byte, conv func(*R, *decoder) V) (V, error) {
	var r R
	if err := json.Unmarshal(data, &r); err != nil {
		var zero V
		return zero, fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
	}
	var d decoder
	return decoded(&d, conv(&r, &d), bucket, string(k))
}

func notFound(format string, args ...any) error {
	return domain.Errorf(domain.ENOTFOUND, format, args...)
}

// readRecord reads the record k of bucket as an R and converts it with conv;
// ENOTFOUND (format, args) when there is none.
func readRecord[R, T any](t *tx, bucket, k []byte, conv func(*R, *decoder) T, format string, args ...any) (T, error) {
	var zero T
	if err := t.readable(); err != nil {
		return zero, err
	}
	data := t.bucket(bucket).Get(k)
	if data == nil {
		return zero, notFound(format, args...)
	}
	return decodeRecord(bucket, k, data, conv)
}

// byKey reads, with read, the record a unique index maps k to; ENOTFOUND
// (format, args) when it maps k (or a nil k) to none.
func byKey[T any](t *tx, index, k []byte, read func(id string) (T, error), format string, args ...any) (T, error) {
	var zero T
	if err := t.readable(); err != nil {
		return zero, err
	}
	if id := t.lookup(index, k); id != "" {
		return read(id)
	}
	return zero, notFound(format, args...)
}

// checkPut checks a put of v: a writable transaction, a record ("nil
// <kind>" otherwise) and its key fields (checkParts of the pairs parts
// gives).
func checkPut[T any](t *tx, kind string, v *T, parts func(*T) []string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if v == nil {
		return errors.New("boltstore: nil " + kind)
	}
	return checkParts(kind, parts(v)...)
}

// stored reads into old the record id of bucket that a delete removes:
// ENOTFOUND naming the kind when there is none.
func (t *tx) stored(bucket []byte, kind, id string, old any) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	found, err := t.get(bucket, []byte(id), old)
	if err != nil {
		return err
	}
	if !found {
		return notFound("%s %s not found", kind, id)
	}
	return nil
}

// putUnique puts rec under id in bucket and keeps the unique index that maps
// a key of the record (a name, an e-mail) to id: oldKey gives the stored
// record's key, newKey is the new one's (nil: no entry).
func putUnique[R any](t *tx, bucket []byte, id string, index []byte, what string, oldKey func(*R) []byte, newKey []byte, rec any) error {
	var old R
	found, err := t.get(bucket, []byte(id), &old)
	if err != nil {
		return err
	}
	var prev []byte
	if found {
		prev = oldKey(&old)
	}
	if err := t.reindex(index, what, id, prev, newKey); err != nil {
		return err
	}
	return t.put(bucket, []byte(id), rec)
}

// keyIf is key(parts...) when ok, nil (no index entry) otherwise.
func keyIf(ok bool, parts ...string) []byte {
	if !ok {
		return nil
	}
	return key(parts...)
}

// Settings.

func (t *tx) Setting(k string) ([]byte, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if k == "" {
		return nil, nil
	}
	v := t.bucket(bucketSettings).Get([]byte(k))
	if v == nil {
		return nil, nil
	}
	return append([]byte{}, v...), nil
}

func (t *tx) PutSetting(k string, value []byte) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if k == "" {
		return errors.New("boltstore: setting has no key")
	}
	return t.bucket(bucketSettings).Put([]byte(k), append([]byte{}, value...))
}

// Companies.

func (t *tx) Company(id string) (*domain.Company, error) {
	return readRecord(t, bucketCompanies, []byte(id), (*companyRecord).domain, "company %s not found", id)
}

func (t *tx) CompanyByName(name string) (*domain.Company, error) {
	return byKey(t, bucketCompanyByName, []byte(name), t.Company, "company %q not found", name)
}

func (t *tx) PutCompany(c *domain.Company) error {
	if err := checkPut(t, "company", c, func(c *domain.Company) []string { return []string{"id", c.ID} }); err != nil {
		return err
	}
	return putUnique(t, bucketCompanies, c.ID, bucketCompanyByName, fmt.Sprintf("company name %q", c.Name),
		func(old *companyRecord) []byte { return keyIf(old.Name != "", old.Name) }, keyIf(c.Name != "", c.Name), toCompanyRecord(c))
}

// Departments.

func (t *tx) Department(id string) (*domain.Department, error) {
	return readRecord(t, bucketDepartments, []byte(id), (*departmentRecord).domain, "department %s not found", id)
}

func (t *tx) DepartmentByName(companyID, name string) (*domain.Department, error) {
	return byKey(t, bucketDepartmentByName, keyIf(name != "", companyID, name), t.Department, "department %q not found", name)
}

func (t *tx) PutDepartment(v *domain.Department) error {
	if err := checkPut(t, "department", v, func(v *domain.Department) []string { return []string{"id", v.ID, "company id", v.CompanyID} }); err != nil {
		return err
	}
	return putUnique(t, bucketDepartments, v.ID, bucketDepartmentByName, fmt.Sprintf("department name %q", v.Name),
		func(old *departmentRecord) []byte { return keyIf(old.Name != "", old.CompanyID, old.Name) }, keyIf(v.Name != "", v.CompanyID, v.Name), toDepartmentRecord(v))
}

// Users.

func (t *tx) User(id string) (*domain.User, error) {
	return readRecord(t, bucketUsers, []byte(id), (*userRecord).domain, "user %s not found", id)
}

func (t *tx) UserByEmail(email string) (*domain.User, error) {
	return byKey(t, bucketUserByEmail, []byte(email), t.User, "user %q not found", email)
}

func (t *tx) PutUser(u *domain.User) error {
	if err := checkPut(t, "user", u, func(u *domain.User) []string { return []string{"id", u.ID} }); err != nil {
		return err
	}
	return putUnique(t, bucketUsers, u.ID, bucketUserByEmail, fmt.Sprintf("e-mail %q", u.Email),
		func(old *userRecord) []byte { return keyIf(old.Email != "", old.Email) }, keyIf(u.Email != "", u.Email), toUserRecord(u))
}

func (t *tx) CountUsers() (int, error) {
	if err := t.readable(); err != nil {
		return 0, err
	}
	n := 0
	c := t.bucket(bucketUsers).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n, nil
}

func (t *tx) Users(companyID string) ([]*domain.User, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.User{}
	c := t.bucket(bucketUsers).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		u, err := t.User(string(k))
		if err != nil {
			return nil, err
		}
		if companyID == "" || u.CompanyID == companyID {
			out = append(out, u)
		}
	}
	return out, nil
}

// Groups.

func (t *tx) Group(id string) (*domain.Group, error) {
	return readRecord(t, bucketGroups, []byte(id), (*groupRecord).domain, "group %s not found", id)
}

func (t *tx) Groups(companyID string, q app.Query) ([]*domain.Group, int, error) {
	return page(t, groupKind, companyID, q, t.Group)
}

func (t *tx) PutGroup(g *domain.Group) error {
	if err := checkPut(t, "group", g, func(g *domain.Group) []string { return []string{"id", g.ID, "company id", g.CompanyID} }); err != nil {
		return err
	}
	var old groupRecord
	found, err := t.get(bucketGroups, []byte(g.ID), &old)
	if err != nil {
		return err
	}
	if err := t.reindexList(groupKind, g.ID, found, old.CompanyID, g.CompanyID, groupRow(g)); err != nil {
		return err
	}
	return t.put(bucketGroups, []byte(g.ID), toGroupRecord(g))
}

func (t *tx) DeleteGroup(id string) error {
	var old groupRecord
	if err := t.stored(bucketGroups, "group", id, &old); err != nil {
		return err
	}
	if err := t.reindexList(groupKind, id, true, old.CompanyID, "", nil); err != nil {
		return err
	}
	return t.bucket(bucketGroups).Delete([]byte(id))
}

// Resources.

func (t *tx) Resource(id string) (*domain.Resource, error) {
	return t.readResource(id)
}

func (t *tx) ResourceByCode(companyID, code string) (*domain.Resource, error) {
	return byKey(t, bucketResourceByCode, key(companyID, code), t.Resource, "resource %s not found", code)
}

func (t *tx) Resources(companyID string, q app.Query) ([]*domain.Resource, int, error) {
	return page(t, resourceKind, companyID, q, t.Resource)
}

func (t *tx) PutResource(v *domain.Resource) error {
	if err := checkPut(t, "resource", v, func(v *domain.Resource) []string {
		return []string{"id", v.ID, "company id", v.CompanyID, "code", v.Code}
	}); err != nil {
		return err
	}
	var old resourceRecord
	found, err := t.get(bucketResources, []byte(v.ID), &old)
	if err != nil {
		return err
	}
	if err := t.reindex(bucketResourceByCode, "resource code "+v.Code, v.ID, keyIf(found, old.CompanyID, old.Code), key(v.CompanyID, v.Code)); err != nil {
		return err
	}
	if err := t.reindexList(resourceKind, v.ID, found, old.CompanyID, v.CompanyID, resourceRow(v)); err != nil {
		return err
	}
	return t.put(bucketResources, []byte(v.ID), toResourceRecord(v))
}

func (t *tx) DeleteResource(id string) error {
	var old resourceRecord
	if err := t.stored(bucketResources, "resource", id, &old); err != nil {
		return err
	}
	if err := t.bucket(bucketResourceByCode).Delete(key(old.CompanyID, old.Code)); err != nil {
		return err
	}
	if err := t.reindexList(resourceKind, id, true, old.CompanyID, "", nil); err != nil {
		return err
	}
	return t.bucket(bucketResources).Delete([]byte(id))
}

// Compositions.

func (t *tx) Composition(id string) (*domain.Composition, error) {
	return readRecord(t, bucketCompositions, []byte(id), (*compositionRecord).domain, "composition %s not found", id)
}

func (t *tx) CompositionByCode(companyID, code, state string) (*domain.Composition, error) {
	return byKey(t, bucketCompositionByCode, key(companyID, code, state), t.Composition, "composition %s (%s) not found", code, state)
}

func (t *tx) Compositions(companyID string, q app.Query) ([]*domain.Composition, int, error) {
	return page(t, compositionKind, companyID, q, t.Composition)
}

// CompositionStamp is app.CompositionStamper: the composition's stored
// bytes, or nil. They are a copy, unless they are what this transaction put
// (then they are the bytes it encoded, which nothing changes).
func (t *tx) CompositionStamp(id string) ([]byte, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	data := t.bucket(bucketCompositions).Get([]byte(id))
	if t.putComp.data != nil && t.putComp.id == id && bytes.Equal(data, t.putComp.data) {
		return t.putComp.data, nil
	}
	return bytes.Clone(data), nil
}

// CompositionStamped is app.CompositionStamper: whether the composition's
// stored bytes are stamp, compared where they lie.
func (t *tx) CompositionStamped(id string, stamp []byte) (bool, error) {
	if err := t.readable(); err != nil {
		return false, err
	}
	data := t.bucket(bucketCompositions).Get([]byte(id))
	return data != nil && bytes.Equal(data, stamp), nil
}

func (t *tx) PutComposition(c *domain.Composition) error {
	if err := checkPut(t, "composition", c, func(c *domain.Composition) []string {
		return []string{"id", c.ID, "company id", c.CompanyID, "code", c.Code, "state", c.State}
	}); err != nil {
		return err
	}
	// What the indexes need of the stored record: whether there is one, and
	// its keys. When the code index already maps c's keys to c, they are the
	// stored record's (each stored record has the one entry of its keys), and
	// the record, items and all, need not be decoded (add_items).
	var old compositionKeys
	found := t.bucket(bucketCompositions).Get([]byte(c.ID)) != nil
	if found {
		if string(t.iget(bucketCompositionByCode, key(c.CompanyID, c.Code, c.State))) == c.ID {
			old = compositionKeys{CompanyID: c.CompanyID, Code: c.Code, State: c.State}
		} else if _, err := t.get(bucketCompositions, []byte(c.ID), &old); err != nil {
			return err
		}
	}
	what := fmt.Sprintf("composition code %s (%s)", c.Code, c.State)
	if err := t.reindex(bucketCompositionByCode, what, c.ID, keyIf(found, old.CompanyID, old.Code, old.State), key(c.CompanyID, c.Code, c.State)); err != nil {
		return err
	}
	if err := t.reindexList(compositionKind, c.ID, found, old.CompanyID, c.CompanyID, compositionRow(c)); err != nil {
		return err
	}
	data, err := encodeCompositionRecord(c)
	if err != nil {
		return err
	}
	if err := t.bucket(bucketCompositions).Put([]byte(c.ID), data); err != nil {
		return err
	}
	t.putComp.id, t.putComp.data = c.ID, data
	return nil
}

func (t *tx) DeleteComposition(id string) error {
	var old compositionRecord
	if err := t.stored(bucketCompositions, "composition", id, &old); err != nil {
		return err
	}
	if err := t.bucket(bucketCompositionByCode).Delete(key(old.CompanyID, old.Code, old.State)); err != nil {
		return err
	}
	if err := t.reindexList(compositionKind, id, true, old.CompanyID, "", nil); err != nil {
		return err
	}
	if t.putComp.id == id {
		t.putComp.id, t.putComp.data = "", nil
	}
	return t.bucket(bucketCompositions).Delete([]byte(id))
}

// Editions and bank records.

func (t *tx) Edition(k string) (*domain.Edition, error) {
	return readRecord(t, bucketEditions, []byte(k), (*editionRecord).domain, "edition %s not found", k)
}

func (t *tx) Editions() ([]*domain.Edition, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var out []*domain.Edition
	c := t.bucket(bucketEditions).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		e, err := decodeRecord(bucketEditions, k, v, (*editionRecord).domain)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (t *tx) PutEdition(e *domain.Edition) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if e == nil {
		return errors.New("boltstore: nil edition")
	}
	k := e.Key()
	if err := checkParts("edition", "key", k); err != nil {
		return err
	}
	t.searchNote(k, nil)
	return t.put(bucketEditions, []byte(k), toEditionRecord(e))
}

func (t *tx) BankResource(editionKey, code string) (*domain.BankResource, error) {
	return readRecord(t, bucketBankResources, key(editionKey, code), (*bankResourceRecord).domain,
		"resource %s not found in edition %s", code, editionKey)
}

func (t *tx) PutBankResource(editionKey string, v *domain.BankResource) error {
	if err := checkPut(t, "bank resource", v, func(v *domain.BankResource) []string { return []string{"edition key", editionKey, "code", v.Code} }); err != nil {
		return err
	}
	fillPages(t.bucket(bucketBankResources))
	t.searchNote(editionKey, &searchItem{kind: 'r', code: v.Code, description: v.Description})
	return t.put(bucketBankResources, key(editionKey, v.Code), toBankResourceRecord(v))
}

func (t *tx) BankComposition(editionKey, code string) (*domain.BankComposition, error) {
	return readRecord(t, bucketBankCompositions, key(editionKey, code), t.joinStructure,
		"composition %s not found in edition %s", code, editionKey)
}

// joinStructure is the bank composition r with its structure.
func (t *tx) joinStructure(r *bankCompositionRecord, d *decoder) *domain.BankComposition {
	return joinStructure(t.btx, t.structs, d, r)
}

func (t *tx) PutBankComposition(editionKey string, c *domain.BankComposition) error {
	if err := checkPut(t, "bank composition", c, func(c *domain.BankComposition) []string { return []string{"edition key", editionKey, "code", c.Code} }); err != nil {
		return err
	}
	b := t.bucket(bucketBankCompositions)
	fillPages(b)
	k := key(editionKey, c.Code)
	// The old record's structure is released after the new one is counted,
	// so that a structure the two share is never deleted in between.
	var oldStructure []byte
	if old := b.Get(k); old != nil {
		var err error
		if oldStructure, err = recordStructure(old); err != nil {
			return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucketBankCompositions, err)
		}
	}
	r := toBankCompositionRecord(c)
	sk, err := putStructure(t.structures(), toStructureItemRecords(c.Items))
	if err != nil {
		return err
	}
	r.Structure = sk
	t.searchNote(editionKey, &searchItem{kind: 'c', code: c.Code, description: c.Description})
	if err := t.put(bucketBankCompositions, k, r); err != nil {
		return err
	}
	return releaseStructure(t.structures(), oldStructure)
}

func (t *tx) BankResources(editionKey string) ([]*domain.BankResource, error) {
	return scanEdition(t, bucketBankResources, editionKey, (*bankResourceRecord).domain)
}

func (t *tx) BankCompositions(editionKey string) ([]*domain.BankComposition, error) {
	return scanEdition(t, bucketBankCompositions, editionKey, t.joinStructure)
}

// fillPages makes the pages of a bank bucket split full: imports write an
// edition's records in key order, which bbolt's default (pages split half
// full) would leave in half-empty pages, doubling the file and the memory a
// large import's commit takes.
func fillPages(b *bolt.Bucket) { b.FillPercent = 0.95 }

func (t *tx) DeleteBankRecords(editionKey string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if err := checkParts("edition", "key", editionKey); err != nil {
		return err
	}
	if err := t.searchWipe(editionKey); err != nil {
		return err
	}
	prefix := key(editionKey, "")
	for _, bucket := range [][]byte{bucketBankResources, bucketBankCompositions} {
		c := t.bucket(bucket).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Seek(prefix) {
			var structure []byte
			if bytes.Equal(bucket, bucketBankCompositions) {
				var err error
				if structure, err = recordStructure(v); err != nil {
					return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
				}
			}
			if err := c.Delete(); err != nil {
				return err
			}
			if err := releaseStructure(t.structures(), structure); err != nil {
				return err
			}
		}
	}
	return nil
}

// scanEdition decodes every record of bucket whose key is the edition's
// ("<edition key>\x00<code>"), in key order, which is code order.
func scanEdition[R any, V any](t *tx, bucket []byte, editionKey string, conv func(*R, *decoder) V) ([]V, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []V{}
	if editionKey == "" {
		return out, nil
	}
	prefix := key(editionKey, "")
	c := t.bucket(bucket).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		rec, err := decodeRecord(bucket, k, v, conv)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// Budgets.

func (t *tx) Budget(id string) (*domain.Budget, error) {
	return readRecord(t, bucketBudgets, []byte(id), (*budgetRecord).domain, "budget %s not found", id)
}

func (t *tx) BudgetByCode(companyID, code string) (*domain.Budget, error) {
	return byKey(t, bucketBudgetByCode, key(companyID, code), t.Budget, "budget %s not found", code)
}

func (t *tx) Budgets(companyID string, q app.Query) ([]*domain.BudgetHeader, int, error) {
	return page(t, budgetKind, companyID, q, t.budgetHeader)
}

// budgetHeader reads a budget without decoding its tree.
func (t *tx) budgetHeader(id string) (*domain.BudgetHeader, error) {
	return readRecord(t, bucketBudgets, []byte(id), (*budgetHeaderRecord).domain, "budget %s not found", id)
}

func (t *tx) PutBudget(b *domain.Budget) error {
	if err := checkPut(t, "budget", b, func(b *domain.Budget) []string {
		return []string{"id", b.ID, "company id", b.CompanyID, "code", b.Code}
	}); err != nil {
		return err
	}
	// Only the keys of the old record are needed: decode just those.
	var old struct {
		ID        string `json:"id"`
		CompanyID string `json:"company_id"`
		Code      string `json:"code"`
	}
	found, err := t.get(bucketBudgets, []byte(b.ID), &old)
	if err != nil {
		return err
	}
	if err := t.reindex(bucketBudgetByCode, "budget code "+b.Code, b.ID, keyIf(found, old.CompanyID, old.Code), key(b.CompanyID, b.Code)); err != nil {
		return err
	}
	if err := t.reindexList(budgetKind, b.ID, found, old.CompanyID, b.CompanyID, budgetRow(b)); err != nil {
		return err
	}
	return t.put(bucketBudgets, []byte(b.ID), toBudgetRecord(b))
}

func (t *tx) DeleteBudget(id string) error {
	var old struct {
		CompanyID string `json:"company_id"`
		Code      string `json:"code"`
	}
	if err := t.stored(bucketBudgets, "budget", id, &old); err != nil {
		return err
	}
	if err := t.bucket(bucketBudgetByCode).Delete(key(old.CompanyID, old.Code)); err != nil {
		return err
	}
	if err := t.reindexList(budgetKind, id, true, old.CompanyID, "", nil); err != nil {
		return err
	}
	if err := t.deleteVersions(id); err != nil {
		return err
	}
	return t.bucket(bucketBudgets).Delete([]byte(id))
}

// page answers q for the company and reads the records of the page.
func page[T any](t *tx, k *listKind, companyID string, q app.Query, read func(id string) (T, error)) ([]T, int, error) {
	ids, total, err := t.query(k, companyID, q)
	if err != nil {
		return nil, 0, err
	}
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		x, err := read(id)
		if err != nil {
			return nil, 0, fmt.Errorf("boltstore: index %s names %s: %w", k.rows, id, err)
		}
		out = append(out, x)
	}
	return out, total, nil
}
