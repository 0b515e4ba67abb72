package boltstore

import (
	"bytes"
	"encoding/binary"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
)

// A text filter's word is matched against the company's vocabulary of the
// field: every token that contains it (tokensWith). The vocabulary grows
// with the company (a description's dimensions and numbers make a token of
// their own: a company of 100,000 resources has about as many), and
// walking it was most of a filtered page's time at 100,000 records
// (docs/performance.md, "the filtered page's vocabulary walk").
//
// Which tokens contain a word changes only when a token enters or leaves
// the vocabulary, not when a token's count moves. A write transaction that
// adds or removes a token bumps the vocabulary bucket's sequence (stored
// with the bucket, so it commits or rolls back with the change), and read
// transactions remember, by that sequence, the tokens a word matched: the
// next page with the same filter reads the counts of those tokens only.
// Write transactions neither read nor fill the memo: their sequence is
// not committed yet.

// tokenMemoMax bounds the memo: its entries' bytes (the keys of the tokens
// matched), about 4 MB. A word matching more than tokenMemoTokens tokens
// is not remembered (such a filter is answered from the rows' sets, whose
// reading costs more than the vocabulary walk).
const (
	tokenMemoMax    = 4 << 20
	tokenMemoTokens = 64
)

type tokenMemo struct {
	mu      sync.Mutex
	entries map[tokenMemoKey]tokenMemoEntry
	bytes   int
}

type tokenMemoKey struct {
	seq    uint64
	vocab  string // vocabPrefix: kind, company, field
	folded string // the filter's word
}

// tokenMemoEntry holds, for each token the word matched, its key in the
// vocabulary and the prefix of its chunks in list_postings.
type tokenMemoEntry struct {
	vocabKeys [][]byte
	prefixes  [][]byte
}

func newTokenMemo() *tokenMemo {
	return &tokenMemo{entries: map[tokenMemoKey]tokenMemoEntry{}}
}

func (m *tokenMemo) get(k tokenMemoKey) (tokenMemoEntry, bool) {
	m.mu.Lock()
	e, ok := m.entries[k]
	m.mu.Unlock()
	return e, ok
}

func (m *tokenMemo) put(k tokenMemoKey, e tokenMemoEntry) {
	size := len(k.vocab) + len(k.folded) + 64
	for i := range e.vocabKeys {
		size += len(e.vocabKeys[i]) + len(e.prefixes[i]) + 48
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[k]; ok {
		return
	}
	// Evict entries of older sequences first (they can no longer be
	// read), then any, until the entry fits.
	for m.bytes+size > tokenMemoMax && len(m.entries) > 0 {
		evicted := false
		for old := range m.entries {
			if old.seq < k.seq {
				m.drop(old)
				evicted = true
			}
		}
		if !evicted {
			for old := range m.entries {
				m.drop(old)
				break
			}
		}
	}
	m.entries[k] = e
	m.bytes += size
}

func (m *tokenMemo) drop(k tokenMemoKey) {
	e := m.entries[k]
	m.bytes -= len(k.vocab) + len(k.folded) + 64
	for i := range e.vocabKeys {
		m.bytes -= len(e.vocabKeys[i]) + len(e.prefixes[i]) + 48
	}
	delete(m.entries, k)
}

// tokensWith is tokensWith through the memo, for a read transaction.
func (t *tx) tokensWith(vocab *bolt.Bucket, k *listKind, companyID string, f app.Field, w []byte) []postings {
	if t.writable || t.tokens == nil {
		return tokensWith(vocab, k, companyID, f, w)
	}
	key := tokenMemoKey{seq: vocab.Sequence(), vocab: string(vocabPrefix(k, companyID, f)), folded: string(w)}
	if e, ok := t.tokens.get(key); ok {
		out := make([]postings, 0, len(e.vocabKeys))
		for i, vk := range e.vocabKeys {
			if v := vocab.Get(vk); len(v) == 8 {
				out = append(out, postings{prefix: e.prefixes[i], n: int(binary.BigEndian.Uint64(v))})
			}
		}
		return out
	}
	ps := tokensWith(vocab, k, companyID, f, w)
	if len(ps) <= tokenMemoTokens {
		e := tokenMemoEntry{vocabKeys: make([][]byte, len(ps)), prefixes: make([][]byte, len(ps))}
		for i, p := range ps {
			e.vocabKeys[i] = bytes.Clone(p.vocab)
			e.prefixes[i] = p.prefix
		}
		t.tokens.put(key, e)
	}
	return ps
}

// addVocab is addCount for a vocabulary count; it reports whether the
// token entered or left the vocabulary.
func addVocab(vocab *bolt.Bucket, k []byte, delta int64) (changed bool, err error) {
	var n int64
	v := vocab.Get(k)
	if len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	n += delta
	if n <= 0 {
		return v != nil, vocab.Delete(k)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	return v == nil, vocab.Put(k, b[:])
}
