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
	st := &settingsStore{vals: map[string]uint64{genGlobalKey: 7, genCompanyKey + "a": 1, genCompanyKey + "b": 1, genCompsKey + "b": 4, genCompKey + "x": 4},
		hold: make(chan struct{}), entered: make(chan struct{})}
	r := newGenReader(st)
	ctx := context.Background()
	type result struct {
		company, comp string
		g             Generation
		err           error
	}
	first := make(chan result, 1)
	go func() {
		g, err := r.read(ctx, "a", "")
		first <- result{"a", "", g, err}
	}()
	<-st.entered // the first read is running
	reads := []struct{ company, comp string }{{"b", "x"}, {"c", ""}, {"b", ""}, {"a", ""}, {"d", ""}}
	results := make(chan result, len(reads))
	for _, c := range reads {
		go func() {
			g, err := r.read(ctx, c.company, c.comp)
			results <- result{c.company, c.comp, g, err}
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
		if n == 11 { // the global and users keys, a, b, c, d twice, x
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
	st.set(genCompsKey+"b", 6)
	st.set(genCompKey+"x", 6)
	st.set(genGlobalKey, 8)
	st.set(genUsersKey, 3)
	close(st.hold)
	if got := <-first; got.err != nil || got.g != (Generation{Global: 7, Company: 1}) {
		t.Errorf("first read = %+v, %v; want {7 1}", got.g, got.err)
	}
	want := map[string]Generation{"a": {Global: 8, Company: 2, Users: 3}, "b": {Global: 8, Company: 5, Comps: 6, Users: 3},
		"bx": {Global: 8, Company: 5, Comps: 6, CompositionID: "x", Comp: 6, Users: 3},
		"c":  {Global: 8, Users: 3}, "d": {Global: 8, Users: 3}}
	for range reads {
		got := <-results
		if w := want[got.company+got.comp]; got.err != nil || got.g != w {
			t.Errorf("read of %s %s = %+v, %v; want %+v", got.company, got.comp, got.g, got.err, w)
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
	if want := []string{genGlobalKey, genUsersKey, genCompKey + "x", genCompanyKey + "a", genCompanyKey + "b", genCompanyKey + "c", genCompanyKey + "d",
		genCompsKey + "a", genCompsKey + "b", genCompsKey + "c", genCompsKey + "d"}; !slices.Equal(second, want) {
		t.Errorf("second read of %q, want %q", second, want)
	}
	// Nothing running now: the next read runs at once, alone.
	if g, err := r.read(ctx, "b", ""); err != nil || g != (Generation{Global: 8, Company: 5, Comps: 6, Users: 3}) {
		t.Errorf("read after = %+v, %v", g, err)
	}
}
