package boltstore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
)

// The word index of the lists (docs/storage.md, "Lists"): text filters
// (app.Contains on description and client; code: see below) answered
// without reading the company's rows.
//
//   - list_terms: kind \x00 companyID \x00 field \x00 token → how many
//     records of the company have the token in that field (8 bytes
//     big-endian): the company's vocabulary of the field.
//   - list_postings: kind \x00 companyID \x00 field \x00 esc(token) firstID
//     → the ids of records holding the token, in ID order, from firstID
//     on, up to chunkIDs of them (appendChunk): a token's records in a few chunks rather than one key
//     each, so a transaction writing 2,000 records rewrites a few chunks
//     per word instead of putting 2,000 keys per word.
//
// A token is a run of the folded text (app.Fold) between white space
// (strings.Fields). A filter word, which holds no white space, is contained
// in the folded text exactly when it is contained in one of its tokens: the
// store reads the vocabulary, keeps the tokens that contain the word, and
// unites their records. The answer is exact, so the total needs no row.
//
// The code is not in the word index: a code's token is unique to its
// record, so it cost a posting and a vocabulary entry per record written,
// and the vocabulary of codes was as long as the company anyway. A code
// filter walks the code sort index (<kind>_order, which holds each code)
// and folds each code instead (codeSet).
//
// The two buckets are not among allBuckets (a backup made before they
// existed is still whole); a file without them gets them, built from the
// rows, when it is opened (buildListWords). The buckets of the earlier
// layout (list_vocab, list_words: one key per token and record, codes
// included) are dropped then: a file that holds them was last written by
// a costdb that kept those and not these.
var (
	bucketListTerms    = []byte("list_terms")
	bucketListPostings = []byte("list_postings")

	wordBuckets = [][]byte{bucketListTerms, bucketListPostings}

	// The buckets of the earlier layout.
	oldWordBuckets = [][]byte{[]byte("list_vocab"), []byte("list_words")}
)

// chunkIDs is how many ids a chunk of list_postings holds at most (a
// variable for the tests).
var chunkIDs = 128

// wordFields are the folded texts of a kind the word index holds. Groups
// have none: a company has few, and their lists scan the rows as before
// (which also keeps the writes of groups as large as they were).
func (k *listKind) wordFields() []app.Field { return wordFieldsOf[k] }

var wordFieldsOf = func() map[*listKind][]app.Field {
	out := map[*listKind][]app.Field{}
	for _, k := range listKinds {
		if k == groupKind {
			continue
		}
		for _, f := range []app.Field{app.FieldDescription, app.FieldClient} {
			if slices.Contains(k.filters, f) {
				out[k] = append(out[k], f)
			}
		}
	}
	return out
}()

// codeIndexed reports whether the kind's code filter is answered from its
// code sort index (codeSet).
func (k *listKind) codeIndexed() bool {
	return k != groupKind && slices.Contains(k.sorts, app.FieldCode)
}

// indexes reports whether the word index (or, for the code, the code sort
// index) answers a text filter on every field of fs.
func (k *listKind) indexes(fs []app.Field) bool {
	for _, f := range fs {
		if !slices.Contains(k.wordFields(), f) && !(f == app.FieldCode && k.codeIndexed()) {
			return false
		}
	}
	return true
}

// tokens returns the distinct tokens of a folded text, appended to out[:0]
// (the runs between white space, as bytes.Fields cuts them).
func tokens(out [][]byte, folded []byte) [][]byte {
	out = out[:0]
	start := -1
	for i := 0; i < len(folded); {
		r, n := rune(folded[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(folded[i:])
		}
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, folded[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += n
	}
	if start >= 0 {
		out = append(out, folded[start:])
	}
	slices.SortFunc(out, bytes.Compare)
	return slices.CompactFunc(out, bytes.Equal)
}

func vocabPrefix(k *listKind, companyID string, f app.Field) []byte {
	return key(k.name, companyID, string(f), "")
}

// indexWords adds (delta 1) or removes (delta -1) the word entries of the
// row w of record id of the company. A file opened by a costdb that
// predates the buckets has none: then there is nothing to keep.
//
// The changes are held in the transaction (wordWrites) and written by
// flushWords: a record adds a posting and a vocabulary count per word of
// its description, which written one at a time made writing a company's
// resources half as costly again.
func (t *tx) indexWords(k *listKind, companyID, id string, w *rowView, delta int64) error {
	if t.bucket(bucketListTerms) == nil || t.bucket(bucketListPostings) == nil {
		return nil
	}
	if t.words == nil {
		t.words = &wordWrites{vocab: map[string]int{}}
	}
	ww := t.words
	for _, f := range k.wordFields() {
		if ww.kind != k || ww.companyID != companyID || ww.field != f {
			ww.kind, ww.companyID, ww.field = k, companyID, f
			ww.prefix = vocabPrefix(k, companyID, f)
		}
		prefix := ww.prefix
		ww.tokens = tokens(ww.tokens, foldedText(w, f))
		for _, tok := range ww.tokens {
			ww.buf = append(append(ww.buf[:0], prefix...), tok...)
			i, ok := ww.vocab[string(ww.buf)]
			if !ok {
				i = len(ww.counts)
				vk := string(ww.buf)
				ww.vocab[vk] = i
				ww.vkeys = append(ww.vkeys, vk)
				ww.counts = append(ww.counts, 0)
				ww.toks = append(ww.toks, esc(bytes.Clone(prefix), tok))
			}
			ww.counts[i] += delta
			ww.posts = append(ww.posts, posting{id: id, tok: int32(i), delta: int8(delta)})
		}
	}
	return nil
}

// wordWrites are the word index changes a write transaction has made and
// not written yet: each vocabulary count's net change (counts, by the
// index vocab gives, its key in vkeys; toks holds each token's prefix in
// list_postings),
// and each posting added (delta 1) or removed (-1).
//
// Written together, the vocabulary takes one update per token and
// transaction instead of one per record; a posting removed and added again
// (an unchanged word of a record written again) nets to nothing and is
// not written; and each token's chunks are rewritten once, with all of the
// transaction's changes to them.
type wordWrites struct {
	vocab  map[string]int
	vkeys  []string // the keys of vocab, by index
	counts []int64
	toks   [][]byte
	posts  []posting
	buf    []byte
	// The prefix of the last kind, company and field indexed, and the
	// tokens of the last text.
	kind      *listKind
	companyID string
	field     app.Field
	prefix    []byte
	tokens    [][]byte
}

type posting struct {
	id    string
	tok   int32 // the token, an index of counts and toks
	delta int8
}

// flushWords writes the held word index changes. It runs at the end of
// an Update's function and before the transaction reads the index.
func (t *tx) flushWords() error {
	ww := t.words
	if ww == nil {
		return nil
	}
	t.words = nil
	vocab, words := t.bucket(bucketListTerms), t.bucket(bucketListPostings)
	// The tokens in the order of their keys, then each one's postings in
	// ID order. A posting's changes alternate (added when absent, removed
	// when there), so their sum says what the last one left, in any order.
	order := make([]int32, len(ww.toks))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return bytes.Compare(ww.toks[a], ww.toks[b]) })
	rank := make([]int32, len(order))
	for r, i := range order {
		rank[i] = int32(r)
	}
	slices.SortFunc(ww.posts, func(a, b posting) int {
		if c := cmp.Compare(rank[a.tok], rank[b.tok]); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	var changes []idChange
	var ids []byte // the changes' ids, one after another
	for i := 0; i < len(ww.posts); {
		tok := ww.posts[i].tok
		changes, ids = changes[:0], ids[:0]
		for i < len(ww.posts) && ww.posts[i].tok == tok {
			j, net := i, 0
			for ; j < len(ww.posts) && ww.posts[j].tok == tok && ww.posts[j].id == ww.posts[i].id; j++ {
				net += int(ww.posts[j].delta)
			}
			if net != 0 {
				n := len(ids)
				ids = append(ids, ww.posts[i].id...)
				changes = append(changes, idChange{from: n, to: len(ids), add: net > 0})
			}
			i = j
		}
		for c := range changes {
			changes[c].id = ids[changes[c].from:changes[c].to:changes[c].to]
		}
		if err := rewriteChunks(words, ww.toks[tok], changes); err != nil {
			return err
		}
	}
	changed := false
	for _, i := range order {
		if ww.counts[i] == 0 {
			continue
		}
		c, err := addVocab(vocab, []byte(ww.vkeys[i]), ww.counts[i])
		if err != nil {
			return err
		}
		changed = changed || c
	}
	if changed {
		// A token entered or left: the memo of read transactions
		// (tokenmemo.go) no longer holds.
		_, err := vocab.NextSequence()
		return err
	}
	return nil
}

// idChange is a record added to or removed from a token's postings.
type idChange struct {
	id       []byte
	from, to int // where id is in the arena it was gathered in
	add      bool
}

// rewriteChunks applies the changes (in ID order) to the chunks of the
// token whose prefix is token: each chunk the changes fall in is read,
// changed and written again (cut in chunks of chunkIDs when it grew past
// that, deleted when it emptied). A change falls in the last chunk whose
// first id is not after it, else in the token's first chunk.
func rewriteChunks(b *bolt.Bucket, token []byte, changes []idChange) error {
	for len(changes) > 0 {
		seek := append(slices.Clip(token), changes[0].id...)
		c := b.Cursor()
		var at, data []byte
		k, v := c.Seek(seek)
		if k != nil && bytes.Equal(k, seek) {
			at, data = k, v
		} else {
			var pk, pv []byte
			if k == nil {
				pk, pv = c.Last()
			} else {
				pk, pv = c.Prev()
			}
			switch {
			case pk != nil && bytes.HasPrefix(pk, token):
				at, data = pk, pv
			case k != nil && bytes.HasPrefix(k, token):
				at, data = k, v
			}
		}
		// The changes before the next chunk's first id are this chunk's.
		n := len(changes)
		if at != nil {
			c.Seek(at)
			if nk, _ := c.Next(); nk != nil && bytes.HasPrefix(nk, token) {
				next := nk[len(token):]
				n = sort.Search(len(changes), func(i int) bool { return bytes.Compare(changes[i].id, next) >= 0 })
				n = max(n, 1) // the token's first chunk takes the ids before it
			}
		}
		ids := mergeIDs(chunkIDList(data), changes[:n])
		changes = changes[n:]
		if at != nil {
			if err := b.Delete(bytes.Clone(at)); err != nil {
				return err
			}
		}
		for len(ids) > 0 {
			m := min(len(ids), chunkIDs)
			if err := b.Put(append(slices.Clip(token), ids[0]...), appendChunk(nil, ids[:m])); err != nil {
				return err
			}
			ids = ids[m:]
		}
	}
	return nil
}

// A chunk of list_postings holds its ids in order, each as the length of
// the prefix it shares with the id before it (uvarint), the length of the
// rest (uvarint) and the rest: the ids of one process share their first
// 18 characters (app.NewID), so an id takes about 8 bytes instead of 25.
// Every restartIDs-th id (from the first) shares nothing and is a restart:
// the chunk begins with the number of restarts (uvarint) and where each
// begins in the ids (4 bytes big-endian each), so that a lookup (holds)
// finds the restart by a binary search and reads at most restartIDs ids.

// restartIDs is how many ids a restart of a chunk begins (a variable for
// the tests).
var restartIDs = 16

// appendChunk appends the chunk of the ids (in order) to val.
func appendChunk(val []byte, ids [][]byte) []byte {
	var data []byte
	var restarts []uint32
	var prev []byte
	for i, id := range ids {
		n := 0
		if i%restartIDs == 0 {
			restarts = append(restarts, uint32(len(data)))
		} else {
			for n < len(prev) && n < len(id) && prev[n] == id[n] {
				n++
			}
		}
		data = binary.AppendUvarint(data, uint64(n))
		data = binary.AppendUvarint(data, uint64(len(id)-n))
		data = append(data, id[n:]...)
		prev = id
	}
	val = binary.AppendUvarint(val, uint64(len(restarts)))
	for _, r := range restarts {
		val = binary.BigEndian.AppendUint32(val, r)
	}
	return append(val, data...)
}

// chunkParts splits a chunk into the offsets of its restarts and its ids;
// ok is false when it is malformed.
func chunkParts(chunk []byte) (restarts, data []byte, ok bool) {
	r, w := binary.Uvarint(chunk)
	if w <= 0 || uint64(len(chunk)-w)/4 < r {
		return nil, nil, false
	}
	return chunk[w : w+4*int(r)], chunk[w+4*int(r):], true
}

// chunkIDList returns the ids of a chunk of list_postings, copied (the
// bucket's bytes change with its next write).
func chunkIDList(chunk []byte) [][]byte {
	var arena []byte
	var ends []int
	forEachID(chunk, func(id []byte) bool {
		arena = append(arena, id...)
		ends = append(ends, len(arena))
		return true
	})
	ids := make([][]byte, len(ends))
	from := 0
	for i, to := range ends {
		ids[i] = arena[from:to:to]
		from = to
	}
	return ids
}

// forEachID calls fn with each id of a chunk of list_postings, in order,
// until fn returns false. The id fn is given is valid only until it
// returns.
func forEachID(chunk []byte, fn func(id []byte) bool) {
	if _, data, ok := chunkParts(chunk); ok {
		eachID(data, -1, fn)
	}
}

// eachID calls fn with the ids encoded in data, at most max of them when
// max is not negative, until fn returns false.
func eachID(data []byte, max int, fn func(id []byte) bool) {
	var buf [64]byte
	id := buf[:0]
	for i := 0; len(data) > 0 && i != max; i++ {
		shared, w := binary.Uvarint(data)
		if w <= 0 || shared > uint64(len(id)) {
			return
		}
		data = data[w:]
		n, w := binary.Uvarint(data)
		if w <= 0 || uint64(len(data)-w) < n {
			return
		}
		id = append(id[:shared], data[w:w+int(n)]...)
		if !fn(id) {
			return
		}
		data = data[w+int(n):]
	}
}

// restartID returns the id a restart begins with (it shares nothing).
func restartID(data []byte, off uint32) []byte {
	if uint64(off) >= uint64(len(data)) {
		return nil
	}
	data = data[off:]
	if _, w := binary.Uvarint(data); w > 0 {
		data = data[w:]
		if n, w := binary.Uvarint(data); w > 0 && uint64(len(data)-w) >= n {
			return data[w : w+int(n)]
		}
	}
	return nil
}

// chunkHolds reports whether the chunk holds id: the last restart whose id
// is not after id, found by a binary search, and the ids after it.
func chunkHolds(chunk, id []byte) bool {
	restarts, data, ok := chunkParts(chunk)
	if !ok {
		return false
	}
	n := len(restarts) / 4
	off := func(j int) uint32 { return binary.BigEndian.Uint32(restarts[4*j:]) }
	j := sort.Search(n, func(j int) bool { return bytes.Compare(restartID(data, off(j)), id) > 0 }) - 1
	if j < 0 {
		return false
	}
	found := false
	eachID(data[off(j):], restartIDs, func(x []byte) bool {
		c := bytes.Compare(x, id)
		found = c == 0
		return c < 0
	})
	return found
}

// mergeIDs returns the sorted ids with the changes (sorted) applied.
func mergeIDs(ids [][]byte, changes []idChange) [][]byte {
	out := make([][]byte, 0, len(ids)+len(changes))
	i := 0
	for _, ch := range changes {
		for i < len(ids) && bytes.Compare(ids[i], ch.id) < 0 {
			out = append(out, ids[i])
			i++
		}
		held := i < len(ids) && bytes.Equal(ids[i], ch.id)
		if held {
			i++
		}
		if ch.add {
			out = append(out, ch.id)
		}
	}
	return append(out, ids[i:]...)
}

// builtPosting is a posting buildListWords found: the token's prefix in
// list_postings, then the id.
type builtPosting struct {
	key   []byte
	split int // where the id starts
}

// buildListWords creates the word index of a file that has none, from the
// rows of every list, and drops the buckets of the earlier layout.
func buildListWords(btx *bolt.Tx) error {
	old := false
	for _, name := range oldWordBuckets {
		if btx.Bucket(name) != nil {
			old = true
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
	}
	if !old && btx.Bucket(bucketListTerms) != nil && btx.Bucket(bucketListPostings) != nil {
		return nil
	}
	for _, name := range wordBuckets {
		if btx.Bucket(name) != nil {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		if _, err := btx.CreateBucket(name); err != nil {
			return err
		}
	}
	// bbolt splits a node only when the transaction commits: keys put in
	// random order into one transaction move ever longer runs of a node,
	// so the postings are gathered a kind at a time, sorted, and put in
	// order (appended). The kinds go in the order of their names, which
	// lead the keys.
	kinds := slices.Clone(listKinds)
	slices.SortFunc(kinds, func(a, b *listKind) int { return strings.Compare(a.name, b.name) })
	vocab, words := btx.Bucket(bucketListTerms), btx.Bucket(bucketListPostings)
	for _, k := range kinds {
		var posts []builtPosting
		counts := map[string]uint64{}
		var v rowView
		err := btx.Bucket(k.rows).ForEach(func(kk, data []byte) error {
			i := bytes.IndexByte(kk, 0)
			if i < 0 {
				return nil
			}
			if err := parseRow(data, &v); err != nil {
				return err
			}
			companyID, id := string(kk[:i]), kk[i+1:]
			for _, f := range k.wordFields() {
				prefix := vocabPrefix(k, companyID, f)
				for _, tok := range tokens(nil, foldedText(&v, f)) {
					counts[string(prefix)+string(tok)]++
					p := esc(bytes.Clone(prefix), tok)
					posts = append(posts, builtPosting{key: append(p, id...), split: len(p)})
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(posts, func(a, b builtPosting) int { return bytes.Compare(a.key, b.key) })
		for i := 0; i < len(posts); {
			token := posts[i].key[:posts[i].split]
			var ids [][]byte
			j := i
			for ; j < len(posts) && j-i < chunkIDs && bytes.Equal(posts[j].key[:posts[j].split], token); j++ {
				ids = append(ids, posts[j].key[posts[j].split:])
			}
			if err := words.Put(posts[i].key, appendChunk(nil, ids)); err != nil {
				return err
			}
			i = j
		}
		keys := make([]string, 0, len(counts))
		for vk := range counts {
			keys = append(keys, vk)
		}
		slices.Sort(keys)
		for _, vk := range keys {
			var n [8]byte
			binary.BigEndian.PutUint64(n[:], counts[vk])
			if err := vocab.Put([]byte(vk), n[:]); err != nil {
				return err
			}
		}
	}
	return nil
}

// postings are the chunks of list_postings under one token: the prefix and
// how many records hold the token.
type postings struct {
	prefix []byte
	n      int
	// vocab is the token's key in the vocabulary (valid while the
	// transaction lasts).
	vocab []byte
}

// tokensWith returns the postings of the company's tokens of field f that
// contain the folded word w, read from the vocabulary.
func tokensWith(vocab *bolt.Bucket, k *listKind, companyID string, f app.Field, w []byte) []postings {
	var out []postings
	prefix := vocabPrefix(k, companyID, f)
	vc := vocab.Cursor()
	for tok, v := vc.Seek(prefix); tok != nil && bytes.HasPrefix(tok, prefix); tok, v = vc.Next() {
		if bytes.Contains(tok[len(prefix):], w) && len(v) == 8 {
			out = append(out, postings{prefix: esc(bytes.Clone(prefix), tok[len(prefix):]), n: int(binary.BigEndian.Uint64(v)), vocab: tok})
		}
	}
	return out
}

// holds reports whether the chunks of the token whose prefix is token
// hold id: the last chunk whose first id is not after id is read (c is
// a cursor of list_postings, reused across calls).
func holds(c *bolt.Cursor, token, buf, id []byte) (bool, []byte) {
	buf = append(append(buf[:0], token...), id...)
	k, _ := c.Seek(buf)
	if k != nil && bytes.Equal(k, buf) {
		return true, buf
	}
	var v []byte
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, token) {
		return false, buf
	}
	return chunkHolds(v, id), buf
}

// codeSet returns the ids of the company's records whose folded code
// contains the folded word w, from the rows: the folded code is the row's
// second text (row.go), read in place.
func (t *tx) codeSet(k *listKind, companyID string, w []byte) map[string]struct{} {
	out := map[string]struct{}{}
	prefix := key(companyID, "")
	c := t.bucket(k.rows).Cursor()
	for kk, data := c.Seek(prefix); kk != nil && bytes.HasPrefix(kk, prefix); kk, data = c.Next() {
		if fcode, ok := rowFCode(data); ok && bytes.Contains(fcode, w) {
			out[string(kk[len(prefix):])] = struct{}{}
		}
	}
	return out
}

// rowFCode returns the folded code of a stored row (row.go): after the
// version byte, the code and the folded code, each a uvarint length and
// the bytes.
func rowFCode(data []byte) ([]byte, bool) {
	if len(data) == 0 || data[0] != rowVersion {
		return nil, false
	}
	data = data[1:]
	for i := 0; ; i++ {
		n, w := binary.Uvarint(data)
		if w <= 0 || uint64(len(data)-w) < n {
			return nil, false
		}
		if i == 1 {
			return data[w : w+int(n)], true
		}
		data = data[w+int(n):]
	}
}

// wordSet returns the ids of the company's records that satisfy the
// Contains condition c, and whether the set is exactly those records (it
// is a superset when the folded value holds white space: each of its words
// is then looked up, and the rows must be read). ok is false when the file
// has no word index or the value holds no word.
func (t *tx) wordSet(k *listKind, companyID string, c app.Cond) (set map[string]struct{}, exact, ok bool) {
	vocab, words := t.bucket(bucketListTerms), t.bucket(bucketListPostings)
	if vocab == nil || words == nil {
		return nil, false, false
	}
	want := strings.Fields(app.Fold(c.Text))
	if len(want) == 0 || !k.indexes(c.Fields) {
		return nil, false, false
	}
	wc := words.Cursor()
	for i, w := range want {
		one := map[string]struct{}{}
		for _, f := range c.Fields {
			if f == app.FieldCode {
				for id := range t.codeSet(k, companyID, []byte(w)) {
					one[id] = struct{}{}
				}
				continue
			}
			for _, p := range t.tokensWith(vocab, k, companyID, f, []byte(w)) {
				for pk, pv := wc.Seek(p.prefix); pk != nil && bytes.HasPrefix(pk, p.prefix); pk, pv = wc.Next() {
					forEachID(pv, func(id []byte) bool { one[string(id)] = struct{}{}; return true })
				}
			}
		}
		if i == 0 {
			set = one
			continue
		}
		for id := range set {
			if _, in := one[id]; !in {
				delete(set, id)
			}
		}
	}
	return set, len(want) == 1, true
}

// oneToken answers the commonest query without gathering the matches: one
// text condition of one word on one field, which one token of the
// company's vocabulary contains (alvenaria: ALVENARIA), one sort key and a
// page. The total is the token's count; the page comes from the sort
// index, each entry tested with one lookup of list_postings. ok is false
// when the query is not of that form, or when the walk would read more
// entries than the general way (see queryWords).
func (t *tx) oneToken(k *listKind, companyID string, q app.Query, offset, limit int) (ids []string, total int, ok bool) {
	if len(q.Where) != 1 || len(q.Sort) != 1 || limit <= 0 {
		return nil, 0, false
	}
	c := q.Where[0]
	vocab, words := t.bucket(bucketListTerms), t.bucket(bucketListPostings)
	if c.Op != app.Contains || len(c.Fields) != 1 || vocab == nil || words == nil || !slices.Contains(k.wordFields(), c.Fields[0]) {
		return nil, 0, false
	}
	want := strings.Fields(app.Fold(c.Text))
	if len(want) != 1 {
		return nil, 0, false
	}
	ps := t.tokensWith(vocab, k, companyID, c.Fields[0], []byte(want[0]))
	switch {
	case len(ps) == 0:
		return []string{}, 0, true
	case len(ps) > 1:
		return nil, 0, false
	}
	p := ps[0]
	total = p.n
	if offset >= total {
		return []string{}, total, true
	}
	if !walkCheaper(offset, limit, t.count(k, companyID), total) {
		return nil, 0, false
	}
	wc := words.Cursor()
	var buf []byte
	keep := func(id []byte) bool {
		var in bool
		in, buf = holds(wc, p.prefix, buf, id)
		return in
	}
	return t.pageByOrder(k, companyID, q.Sort[0], offset, limit, keep), total, true
}

// walkCheaper reports whether a page of matches is found sooner by walking
// the sort index (about (offset+limit) × all / matches entries, a key
// compare or lookup each) than by reading and sorting the matches' rows (a
// lookup and a parse each, counted four entries).
func walkCheaper(offset, limit, all, matches int) bool {
	return limit > 0 && matches > 0 && (offset+limit)*all/matches < 4*matches
}

// queryWords answers a query with text conditions from the word index: the
// records holding the words are the candidates. ok is false when the index
// cannot answer (then the caller scans).
//
// When every condition is a text one and each is exact, the candidates are
// the answer: the total is their number, and the page comes from the sort
// index, walked until the page is full, or from the candidates' rows when
// they are few beside the walk; otherwise only the candidates' rows are
// read and tested.
func (t *tx) queryWords(k *listKind, companyID string, q app.Query, offset, limit int) (ids []string, total int, ok bool, err error) {
	if err := t.flushWords(); err != nil {
		return nil, 0, true, err
	}
	if ids, total, ok := t.oneToken(k, companyID, q, offset, limit); ok {
		return ids, total, true, nil
	}
	var set map[string]struct{}
	exact := true
	for _, c := range q.Where {
		if c.Op != app.Contains {
			exact = false
			continue
		}
		s, ex, found := t.wordSet(k, companyID, c)
		if !found {
			return nil, 0, false, nil
		}
		exact = exact && ex
		if set == nil {
			set = s
			continue
		}
		for id := range set {
			if _, in := s[id]; !in {
				delete(set, id)
			}
		}
	}
	if set == nil {
		return nil, 0, false, nil
	}
	sorted := func() []string {
		cands := make([]string, 0, len(set))
		for id := range set {
			cands = append(cands, id)
		}
		slices.Sort(cands)
		return cands
	}
	if !exact || len(q.Sort) > 1 {
		ids, total, err := t.scan(k, companyID, q, offset, limit, sorted())
		return ids, total, true, err
	}
	total = len(set)
	if offset >= total {
		return []string{}, total, true, nil
	}
	if len(q.Sort) == 0 {
		ids = []string{}
		for i, id := range sorted() {
			if in, _ := window(i, offset, limit); in {
				ids = append(ids, id)
			}
		}
		return ids, total, true, nil
	}
	if walkCheaper(offset, limit, t.count(k, companyID), total) {
		keep := func(id []byte) bool { _, in := set[string(id)]; return in }
		return t.pageByOrder(k, companyID, q.Sort[0], offset, limit, keep), total, true, nil
	}
	cands := sorted()
	ids, total, err = t.scan(k, companyID, q, offset, limit, cands)
	return ids, total, true, err
}
