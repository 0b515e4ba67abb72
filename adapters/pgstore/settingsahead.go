package pgstore

import (
	"bytes"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Settings read ahead (issue 29, item 4). Transactions read a few settings
// again and again (the write generations of app/storecache: the global
// one, which the bank memo reads in every read transaction; in a write,
// the global one again and the counters it bumps), each in a round trip
// of its own. The store therefore learns the settings its transactions
// read (the last maxHotSettings keys read that were not read ahead, apart
// for read-only and write transactions), and a transaction reads them with
// its first statement, in the same round trip (lazyTx); Setting then
// answers them from there, and a write transaction's PutSetting updates
// what it read ahead. It is the transaction's own snapshot, so the answer
// is the one the statement would give. A write transaction may so read a
// counter it does not bump (another company's, when writes of several
// companies alternate): under SERIALIZABLE that is one more row read,
// which can only make a concurrent writer of that counter, in another
// process, conflict with this one (and a conflict is retried); at most
// maxHotSettings keys are read so.

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

// readAhead sets up t (a transaction on lt) to read the hot settings h
// with its first statement.
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
// whether it could. Otherwise the store learns k.
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

// putAhead keeps what the transaction read ahead up to date with its put
// of a setting.
func (t *tx) putAhead(k string, v []byte) {
	if _, ok := t.ahead[k]; ok {
		t.ahead[k] = v
	}
}
