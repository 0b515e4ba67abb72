package boltstore

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
)

// The word index of the lists (docs/storage.md, "Lists"): text filters
// (app.Contains on code, description, client) answered without reading the
// company's rows.
//
//   - list_vocab: kind \x00 companyID \x00 field \x00 token → how many
//     records of the company have the token in that field (8 bytes
//     big-endian): the company's vocabulary of the field.
//   - list_words: kind \x00 companyID \x00 field \x00 esc(token) id →
//     empty: the records holding each token.
//
// A token is a run of the folded text (app.Fold) between white space
// (strings.Fields). A filter word, which holds no white space, is contained
// in the folded text exactly when it is contained in one of its tokens: the
// store reads the vocabulary, keeps the tokens that contain the word, and
// unites their records. The answer is exact, so the total needs no row.
//
// The two buckets are not among allBuckets (a backup made before they
// existed is still whole); a file without them gets them, built from the
// rows, when it is opened (buildListWords).
var (
	bucketListVocab = []byte("list_vocab")
	bucketListWords = []byte("list_words")

	wordBuckets = [][]byte{bucketListVocab, bucketListWords}
)

// wordFields are the folded texts of a kind the word index holds. Groups
// have none: a company has few, and their lists scan the rows as before
// (which also keeps the writes of groups as large as they were).
func (k *listKind) wordFields() []app.Field {
	if k == groupKind {
		return nil
	}
	var out []app.Field
	for _, f := range []app.Field{app.FieldCode, app.FieldDescription, app.FieldClient} {
		if slices.Contains(k.filters, f) {
			out = append(out, f)
		}
	}
	return out
}

// indexes reports whether the word index holds every field of fs.
func (k *listKind) indexes(fs []app.Field) bool {
	for _, f := range fs {
		if !slices.Contains(k.wordFields(), f) {
			return false
		}
	}
	return true
}

// tokens returns the distinct tokens of a folded text.
func tokens(folded []byte) [][]byte {
	out := bytes.Fields(folded)
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
// flushWords: a record adds an entry and a vocabulary count per word of
// its code and description, which written one at a time made writing a
// company's resources half as costly again.
func (t *tx) indexWords(k *listKind, companyID, id string, w *rowView, delta int64) error {
	if t.bucket(bucketListVocab) == nil || t.bucket(bucketListWords) == nil {
		return nil
	}
	if t.words == nil {
		t.words = &wordWrites{vocab: map[string]int{}}
	}
	ww := t.words
	for _, f := range k.wordFields() {
		prefix := vocabPrefix(k, companyID, f)
		for _, tok := range tokens(foldedText(w, f)) {
			ww.buf = append(append(ww.buf[:0], prefix...), tok...)
			if i, ok := ww.vocab[string(ww.buf)]; ok {
				ww.counts[i] += delta
			} else {
				ww.vocab[string(ww.buf)] = len(ww.counts)
				ww.counts = append(ww.counts, delta)
			}
			n := len(ww.arena)
			ww.arena = append(esc(append(ww.arena, prefix...), tok), id...)
			ww.posts = append(ww.posts, posting{key: ww.arena[n:len(ww.arena):len(ww.arena)], delta: delta})
		}
	}
	return nil
}

// wordWrites are the word index changes a write transaction has made and
// not written yet: each vocabulary count's net change (counts, by the
// index vocab gives), and each entry put (delta 1) or deleted (-1), the
// keys kept one after another in arena.
//
// Written together, the vocabulary takes one update per token and
// transaction instead of one per record; an entry deleted and put again
// (an unchanged word of a record written again) nets to nothing and is
// not written; and the entries go in key order: bbolt splits a node only
// at commit, and keys put in random order into one node move ever longer
// runs of it (batch.go).
type wordWrites struct {
	vocab  map[string]int
	counts []int64
	posts  []posting
	arena  []byte
	buf    []byte
}

type posting struct {
	key   []byte
	delta int64
}

// flushWords writes the held word index changes. It runs at the end of
// an Update's function and before the transaction reads the index.
func (t *tx) flushWords() error {
	ww := t.words
	if ww == nil {
		return nil
	}
	t.words = nil
	vocab, words := t.bucket(bucketListVocab), t.bucket(bucketListWords)
	// An entry's changes alternate (put when absent, deleted when there),
	// so their sum says what the last one left, in any order.
	slices.SortFunc(ww.posts, func(a, b posting) int { return bytes.Compare(a.key, b.key) })
	for i := 0; i < len(ww.posts); {
		j, net := i, int64(0)
		for ; j < len(ww.posts) && bytes.Equal(ww.posts[j].key, ww.posts[i].key); j++ {
			net += ww.posts[j].delta
		}
		var err error
		switch {
		case net > 0:
			err = words.Put(ww.posts[i].key, []byte{})
		case net < 0:
			err = words.Delete(ww.posts[i].key)
		}
		if err != nil {
			return err
		}
		i = j
	}
	keys := make([]string, 0, len(ww.vocab))
	for k, i := range ww.vocab {
		if ww.counts[i] != 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	changed := false
	for _, k := range keys {
		c, err := addVocab(vocab, []byte(k), ww.counts[ww.vocab[k]])
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

// buildListWords creates the word index of a file that has none, from the
// rows of every list.
func buildListWords(btx *bolt.Tx) error {
	if btx.Bucket(bucketListVocab) != nil && btx.Bucket(bucketListWords) != nil {
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
	// so the entries are gathered a kind at a time, sorted, and put in
	// order (appended). The kinds go in the order of their names, which
	// lead the keys.
	kinds := slices.Clone(listKinds)
	slices.SortFunc(kinds, func(a, b *listKind) int { return strings.Compare(a.name, b.name) })
	vocab, words := btx.Bucket(bucketListVocab), btx.Bucket(bucketListWords)
	for _, k := range kinds {
		var posts [][]byte
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
				for _, tok := range tokens(foldedText(&v, f)) {
					counts[string(prefix)+string(tok)]++
					posts = append(posts, append(esc(bytes.Clone(prefix), tok), id...))
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(posts, bytes.Compare)
		for _, p := range posts {
			if err := words.Put(p, []byte{}); err != nil {
				return err
			}
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

// postings are the entries of list_words under one token: the prefix and
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

// wordSet returns the ids of the company's records that satisfy the
// Contains condition c, and whether the set is exactly those records (it
// is a superset when the folded value holds white space: each of its words
// is then looked up, and the rows must be read). ok is false when the file
// has no word index or the value holds no word.
func (t *tx) wordSet(k *listKind, companyID string, c app.Cond) (set map[string]struct{}, exact, ok bool) {
	vocab, words := t.bucket(bucketListVocab), t.bucket(bucketListWords)
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
			for _, p := range t.tokensWith(vocab, k, companyID, f, []byte(w)) {
				for pk, _ := wc.Seek(p.prefix); pk != nil && bytes.HasPrefix(pk, p.prefix); pk, _ = wc.Next() {
					one[string(pk[len(p.prefix):])] = struct{}{}
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
// index, each entry tested with one lookup of list_words. ok is false when
// the query is not of that form, or when the walk would read more entries
// than the general way (see queryWords).
func (t *tx) oneToken(k *listKind, companyID string, q app.Query, offset, limit int) (ids []string, total int, ok bool) {
	if len(q.Where) != 1 || len(q.Sort) != 1 || limit <= 0 {
		return nil, 0, false
	}
	c := q.Where[0]
	vocab, words := t.bucket(bucketListVocab), t.bucket(bucketListWords)
	if c.Op != app.Contains || len(c.Fields) != 1 || vocab == nil || words == nil || !k.indexes(c.Fields) {
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
	buf := bytes.Clone(p.prefix)
	keep := func(id []byte) bool {
		buf = append(buf[:len(p.prefix)], id...)
		return words.Get(buf) != nil
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
