package pgstore

import (
	"bytes"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Settings read ahead (issue 29, item 4). Read-only transactions read a
// few settings again and again (the global write generation, which the
// bank memo of app/storecache reads in each of them), each in a round trip
// of its own after the transaction's first. The store therefore learns the
// settings its read-only transactions read (the last maxHotSettings keys
// read that were not read ahead), and a read-only transaction reads them
// with its first statement, in the same round trip (lazyTx); Setting then
// answers them from there. It is the transaction's own snapshot, so the
// answer is the one the statement would give. Write transactions do not
// read ahead: a row a writer reads without needing it could only add
// conflicts between writers under serializable isolation.

// maxHotSettings bounds how many settings a read-only transaction reads
// ahead.
const maxHotSettings = 4

// hotSettings are the keys read-only transactions read.
type hotSettings struct {
	mu   sync.Mutex
	keys [][]byte // the most recently learned first
}

// learn notes that a read-only transaction read k, not read ahead.
func (h *hotSettings) learn(k string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	i := slices.IndexFunc(h.keys, func(b []byte) bool { return string(b) == k })
	if i < 0 {
		if len(h.keys) == maxHotSettings {
			h.keys = h.keys[:maxHotSettings-1]
		}
		h.keys = append(h.keys, nil)
		i = len(h.keys) - 1
	}
	copy(h.keys[1:i+1], h.keys[:i])
	h.keys[0] = []byte(k)
}

func (h *hotSettings) list() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.keys)
}

// readAhead sets up t (a read-only transaction on lt) to read the hot
// settings with its first statement.
func (t *tx) readAhead(lt *lazyTx, h *hotSettings) {
	t.hot = h
	keys := h.list()
	if len(keys) == 0 {
		return
	}
	lt.ahead = &pgx.QueuedQuery{SQL: `SELECT key, value FROM settings WHERE key = ANY($1)`, Arguments: []any{keys}}
	lt.aheadRows = func(rows pgx.Rows) error {
		got := make(map[string][]byte, len(keys))
		for _, k := range keys {
			got[string(k)] = nil // none stored
		}
		for rows.Next() {
			var k, v []byte
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			if v == nil {
				v = []byte{}
			}
			got[string(k)] = v
		}
		if err := rows.Err(); err != nil {
			return err
		}
		t.ahead = got
		return nil
	}
}

// settingAhead answers Setting(k) from what was read ahead: ok says
// whether it could. Otherwise a read-only transaction's store learns k.
func (t *tx) settingAhead(k string) (v []byte, ok bool) {
	if t.hot == nil {
		return nil, false
	}
	if v, ok = t.ahead[k]; ok {
		return bytes.Clone(v), true
	}
	t.hot.learn(k)
	return nil, false
}
