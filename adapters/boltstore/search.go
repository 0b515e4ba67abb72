package boltstore

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The search index of the bank records (app.SearchTx), in the bucket
// "search": for each edition, one key per word of its items' descriptions
// (domain.SearchWords), "<edition key>\x00<word>", whose value lists the
// items holding the word, each as its kind ('c' or 'r'), its code (length
// first, uvarint) and its description's length (uvarint); and the key
// "<edition key>\x00", the edition record the index was built beside (its
// stamp).
//
// A write transaction notes the editions whose bank records it puts or
// deletes (and whose edition record it puts) and, when the Update's function
// returns (flush), writes each one's index again: from the records it put
// when it deleted the edition's records first (an import that replaces the
// edition), else from the records stored. Open builds the index of every
// edition whose stamp is not its edition record: editions held before the
// index existed, or written by a costdb that did not keep it.
var bucketSearch = []byte("search")

var _ app.SearchTx = (*tx)(nil)

// searchEdition is what a transaction wrote to one edition's bank records.
type searchEdition struct {
	// wiped: the edition's records were deleted in this transaction, so
	// items holds every record it has.
	wiped bool
	items map[string]searchItem // by kind byte + code
}

type searchItem struct {
	kind        byte
	code        string
	description string
}

func itemKindByte(k domain.ItemKind) byte {
	if k == domain.KindComposition {
		return 'c'
	}
	return 'r'
}

// searchNote notes a put of a bank record (description "" for an edition
// record: nothing to add but a rebuild).
func (t *tx) searchNote(editionKey string, it *searchItem) {
	if t.search == nil {
		t.search = map[string]*searchEdition{}
	}
	e := t.search[editionKey]
	if e == nil {
		e = &searchEdition{items: map[string]searchItem{}}
		t.search[editionKey] = e
	}
	if it != nil {
		e.items[string(it.kind)+it.code] = *it
	}
}

// searchWipe notes that the edition's records were deleted and deletes its
// index.
func (t *tx) searchWipe(editionKey string) error {
	t.searchNote(editionKey, nil)
	e := t.search[editionKey]
	e.wiped, e.items = true, map[string]searchItem{}
	return deletePrefix(t.btx.Bucket(bucketSearch), key(editionKey, ""))
}

func deletePrefix(b *bolt.Bucket, prefix []byte) error {
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// flushSearch writes the index of every edition the transaction changed.
func (t *tx) flushSearch() error {
	keys := make([]string, 0, len(t.search))
	for k := range t.search {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := t.search[k]
		var items []searchItem
		if e.wiped {
			items = make([]searchItem, 0, len(e.items))
			for _, it := range e.items {
				items = append(items, it)
			}
		}
		if err := writeSearchIndex(t.btx, k, items, !e.wiped); err != nil {
			return err
		}
	}
	t.search = nil
	return nil
}

// writeSearchIndex writes the edition's index: from items, or, when
// stored, from the bank records stored.
func writeSearchIndex(btx *bolt.Tx, editionKey string, items []searchItem, stored bool) error {
	b := btx.Bucket(bucketSearch)
	prefix := key(editionKey, "")
	if err := deletePrefix(b, prefix); err != nil {
		return err
	}
	if stored {
		var err error
		if items, err = storedSearchItems(btx, editionKey); err != nil {
			return err
		}
	}
	postings := map[string][]byte{}
	var buf [binary.MaxVarintLen64]byte
	sort.Slice(items, func(i, j int) bool {
		if items[i].code != items[j].code {
			return items[i].code < items[j].code
		}
		return items[i].kind < items[j].kind
	})
	for _, it := range items {
		for _, w := range domain.SearchWords(it.description) {
			p := append(postings[w], it.kind)
			p = append(p, buf[:binary.PutUvarint(buf[:], uint64(len(it.code)))]...)
			p = append(p, it.code...)
			p = append(p, buf[:binary.PutUvarint(buf[:], uint64(domain.SearchLength(it.description)))]...)
			postings[w] = p
		}
	}
	words := make([]string, 0, len(postings))
	for w := range postings {
		words = append(words, w)
	}
	sort.Strings(words)
	b.FillPercent = 0.95
	for _, w := range words {
		if err := b.Put(key(editionKey, w), postings[w]); err != nil {
			return err
		}
	}
	stamp := append([]byte{}, btx.Bucket(bucketEditions).Get([]byte(editionKey))...)
	return b.Put(prefix, stamp)
}

// storedSearchItems reads the code and description of every bank record of
// the edition.
func storedSearchItems(btx *bolt.Tx, editionKey string) ([]searchItem, error) {
	var out []searchItem
	prefix := key(editionKey, "")
	for _, bk := range []struct {
		bucket []byte
		kind   byte
	}{{bucketBankResources, 'r'}, {bucketBankCompositions, 'c'}} {
		c := btx.Bucket(bk.bucket).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r struct {
				Description string `json:"description"`
			}
			if err := json.Unmarshal(v, &r); err != nil {
				return nil, fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bk.bucket, err)
			}
			out = append(out, searchItem{kind: bk.kind, code: string(k[len(prefix):]), description: r.Description})
		}
	}
	return out, nil
}

// buildSearch builds, when a file is opened, the index of every edition
// whose stamp is not its edition record.
func buildSearch(btx *bolt.Tx) error {
	b := btx.Bucket(bucketSearch)
	var stale []string
	c := btx.Bucket(bucketEditions).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if stamp := b.Get(key(string(k), "")); stamp == nil || !bytes.Equal(stamp, v) {
			stale = append(stale, string(k))
		}
	}
	for _, k := range stale {
		if err := writeSearchIndex(btx, k, nil, true); err != nil {
			return err
		}
	}
	return nil
}

// searchAcc is an item found while a search reads an edition's postings.
type searchAcc struct {
	hit  domain.SearchHit
	last int // the last term (1-based) that matched it
}

// SearchBank reads, for each edition, the postings of the words each term
// matches (a prefix term: every word from the term on that begins with it).
func (t *tx) SearchBank(q domain.SearchQuery, editions []*domain.Edition, kind domain.ItemKind, offset, limit int) ([]*domain.SearchHit, int, error) {
	if err := t.readable(); err != nil {
		return nil, 0, err
	}
	b := t.btx.Bucket(bucketSearch)
	if b == nil { // Open makes it; a file read otherwise has no index
		return nil, 0, fmt.Errorf("boltstore: the file has no search index (open it with boltstore.Open)")
	}
	var want byte
	if kind != "" {
		want = itemKindByte(kind)
	}
	top := &hitHeap{max: offset + limit}
	total := 0
	for _, e := range editions {
		found := map[string]*searchAcc{}
		for i, term := range q.Terms {
			k := key(e.Key(), term.Word)
			c := b.Cursor()
			for wk, v := c.Seek(k); wk != nil && bytes.HasPrefix(wk, k); wk, v = c.Next() {
				if !term.Prefix && len(wk) != len(k) {
					break
				}
				if err := eachPosting(v, func(kb byte, code, id []byte, length int) {
					if want != 0 && kb != want {
						return
					}
					a := found[string(id)] // no copy of id for a lookup
					if a == nil {
						a = &searchAcc{hit: domain.SearchHit{Edition: e, Kind: domain.KindResource, Code: string(code), Length: length}}
						if kb == 'c' {
							a.hit.Kind = domain.KindComposition
						}
						found[string(id)] = a
					}
					if a.last != i+1 {
						a.last = i + 1
						a.hit.Matched++
					}
				}); err != nil {
					return nil, 0, fmt.Errorf("boltstore: corrupt search key %q: %w", wk, err)
				}
			}
		}
		total += len(found)
		for _, a := range found {
			h := a.hit
			top.offer(&h)
		}
	}
	hits := top.sorted()
	if offset >= len(hits) {
		return []*domain.SearchHit{}, total, nil
	}
	hits = hits[offset:]
	for _, h := range hits {
		bucket := bucketBankResources
		if h.Kind == domain.KindComposition {
			bucket = bucketBankCompositions
		}
		k := key(h.Edition.Key(), h.Code)
		var r struct {
			Description string `json:"description"`
			Unit        string `json:"unit"`
		}
		v := t.btx.Bucket(bucket).Get(k)
		if v == nil {
			return nil, 0, fmt.Errorf("boltstore: search index names %q, which bucket %s lacks", k, bucket)
		}
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, 0, fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
		}
		h.Description, h.Unit = r.Description, r.Unit
	}
	return hits, total, nil
}

// eachPosting calls fn for each item of a postings value: its kind, code,
// its bytes up to the code (which name it within the edition) and its
// description's length.
func eachPosting(v []byte, fn func(kind byte, code, id []byte, length int)) error {
	for len(v) > 0 {
		kb := v[0]
		n, w := binary.Uvarint(v[1:])
		if w <= 0 || uint64(len(v)-1-w) < n {
			return fmt.Errorf("bad posting")
		}
		code, id := v[1+w:1+w+int(n)], v[:1+w+int(n)]
		v = v[1+w+int(n):]
		l, w2 := binary.Uvarint(v)
		if w2 <= 0 {
			return fmt.Errorf("bad posting length")
		}
		v = v[w2:]
		fn(kb, code, id, int(l))
	}
	return nil
}

// hitHeap keeps the max first hits in domain.SearchBefore order: a heap
// whose top is the last of them.
type hitHeap struct {
	max  int
	hits []*domain.SearchHit
}

func (h *hitHeap) Len() int           { return len(h.hits) }
func (h *hitHeap) Less(i, j int) bool { return domain.SearchBefore(h.hits[j], h.hits[i]) }
func (h *hitHeap) Swap(i, j int)      { h.hits[i], h.hits[j] = h.hits[j], h.hits[i] }
func (h *hitHeap) Push(x any)         { h.hits = append(h.hits, x.(*domain.SearchHit)) }
func (h *hitHeap) Pop() any {
	x := h.hits[len(h.hits)-1]
	h.hits = h.hits[:len(h.hits)-1]
	return x
}

func (h *hitHeap) offer(x *domain.SearchHit) {
	if h.max <= 0 {
		return
	}
	if len(h.hits) < h.max {
		heap.Push(h, x)
		return
	}
	if domain.SearchBefore(x, h.hits[0]) {
		h.hits[0] = x
		heap.Fix(h, 0)
	}
}

func (h *hitHeap) sorted() []*domain.SearchHit {
	out := h.hits
	sort.Slice(out, func(i, j int) bool { return domain.SearchBefore(out[i], out[j]) })
	return out
}
