package storecache

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
)

// settingsStore is a Store whose Settings answers from a map, the first
// call held until released; it notes the keys of every call.
type settingsStore struct {
	app.Store
	mu      sync.Mutex
	vals    map[string]uint64
	calls   [][]string
	hold    chan struct{}
	entered chan struct{}
}

func (s *settingsStore) Settings(ctx context.Context, keys []string) ([][]byte, error) {
	s.mu.Lock()
	first := len(s.calls) == 0
	s.calls = append(s.calls, slices.Clone(keys))
	// The snapshot is taken when the call starts.
	out := make([][]byte, len(keys))
	for i, k := range keys {
		if v, ok := s.vals[k]; ok {
			out[i] = binary.BigEndian.AppendUint64(nil, v)
		}
	}
	s.mu.Unlock()
	if first {
		close(s.entered)
		<-s.hold
	}
	return out, nil
}

func (s *settingsStore) set(key string, v uint64) {
	s.mu.Lock()
	s.vals[key] = v
	s.mu.Unlock()
}

// TestGenReaderCoalesces checks that the generation reads that arrive
// while one is running are made together in one read that starts after
// all of them arrived, so that each sees every write made before it
// asked, and that the running read does not see a later write.
func TestGenReaderCoalesces(t *testing.T) {
	st := &settingsStore{vals: map[string]uint64{genGlobalKey: 7, genCompanyKey + "a": 1, genCompanyKey + "b": 1},
		hold: make(chan struct{}), entered: make(chan struct{})}
	r := newGenReader(st)
	ctx := context.Background()
	type result struct {
		company string
		g       Generation
		err     error
	}
	first := make(chan result, 1)
	go func() {
		g, err := r.read(ctx, "a")
		first <- result{"a", g, err}
	}()
	<-st.entered // the first read is running
	companies := []string{"b", "c", "b", "a", "d"}
	results := make(chan result, len(companies))
	for _, c := range companies {
		go func() {
			g, err := r.read(ctx, c)
			results <- result{c, g, err}
		}()
	}
	// Wait until all of them wait for the next read.
	for deadline := time.Now().Add(10 * time.Second); ; {
		r.mu.Lock()
		n := 0
		if r.next != nil {
			n = len(r.next.keys)
		}
		r.mu.Unlock()
		if n == 6 { // the global and users keys, a, b, c, d
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reads did not join one batch (%d keys)", n)
		}
		time.Sleep(time.Millisecond)
	}
	// Writes acknowledged after they asked, before their read starts.
	st.set(genCompanyKey+"a", 2)
	st.set(genCompanyKey+"b", 5)
	st.set(genGlobalKey, 8)
	st.set(genUsersKey, 3)
	close(st.hold)
	if got := <-first; got.err != nil || got.g != (Generation{Global: 7, Company: 1}) {
		t.Errorf("first read = %+v, %v; want {7 1}", got.g, got.err)
	}
	want := map[string]Generation{"a": {8, 2, 3}, "b": {8, 5, 3}, "c": {8, 0, 3}, "d": {8, 0, 3}}
	for range companies {
		got := <-results
		if got.err != nil || got.g != want[got.company] {
			t.Errorf("read of %s = %+v, %v; want %+v", got.company, got.g, got.err, want[got.company])
		}
	}
	st.mu.Lock()
	calls := st.calls
	st.mu.Unlock()
	if len(calls) != 2 {
		t.Fatalf("%d reads of the store, want 2: %q", len(calls), calls)
	}
	second := calls[1]
	if len(second) > 0 {
		slices.Sort(second[2:]) // the waiters' keys, in the order they came
	}
	if want := []string{genGlobalKey, genUsersKey, genCompanyKey + "a", genCompanyKey + "b", genCompanyKey + "c", genCompanyKey + "d"}; !slices.Equal(second, want) {
		t.Errorf("second read of %q, want %q", second, want)
	}
	// Nothing running now: the next read runs at once, alone.
	if g, err := r.read(ctx, "b"); err != nil || g != (Generation{8, 5, 3}) {
		t.Errorf("read after = %+v, %v", g, err)
	}
}
