package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
)

// logBuffer collects the server's log as JSON lines; the server writes it
// from its own goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// logLine is what a test reads of one log record.
type logLine struct {
	Level  string
	Path   string
	Status int
}

// take returns the records logged since the last call and forgets them.
func (b *logBuffer) take(t *testing.T) []logLine {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []logLine
	dec := json.NewDecoder(&b.buf)
	for dec.More() {
		var rec struct {
			Level  string `json:"level"`
			Path   string `json:"path"`
			Status int    `json:"status"`
		}
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("log is not JSON lines: %v", err)
		}
		out = append(out, logLine{Level: rec.Level, Path: rec.Path, Status: rec.Status})
	}
	b.buf.Reset()
	return out
}

// TestClientErrorsLogAsClientErrors checks that a bad query parameter, in
// either generation, answers 400 and is logged at INFO with status 400,
// never at ERROR, and that a real fault is logged at ERROR with its 500.
func TestClientErrorsLogAsClientErrors(t *testing.T) {
	logs := &logBuffer{}
	h := apitest.New(t, func(env *httpapi.Env) {
		env.Log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	const (
		v2Comps = "/api/public/v2/my_database/compositions"
		v1Comps = "/api/v1/base/mybase/compositions"
	)
	tests := []struct {
		name, target, path string
		status             int
	}{
		{"v2 page size not a number", v2Comps + "?page[size]=x", v2Comps, 400},
		{"v2 unknown sort key", v2Comps + "?sort=nope", v2Comps, 400},
		{"v2 unknown filter", v2Comps + "?filter[nope]=1", v2Comps, 400},
		{"v2 empty page number", v2Comps + "?page[number]=0", v2Comps, 400},
		{"v1 page not a number", v1Comps + "?page=x", v1Comps, 400},
		{"v1 per_page not a number", v1Comps + "?per_page=x", v1Comps, 400},
		{"v1 budgets unknown order", "/api/v1/bud/budgets/list?order_name=nope", "/api/v1/bud/budgets/list", 400},
	}
	logs.take(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.Do("GET", tt.target, u.Token, "")
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d\n%s", r.Status, tt.status, r.Body)
			}
			want := []logLine{{Level: "INFO", Path: tt.path, Status: tt.status}}
			if diff := cmp.Diff(want, logs.take(t)); diff != "" {
				t.Errorf("log (-want +got):\n%s", diff)
			}
		})
	}

	// A real fault: the store is gone.
	h.Store.Close()
	for _, target := range []string{v2Comps, v1Comps} {
		if r := h.Do("GET", target, u.Token, ""); r.Status != 500 {
			t.Fatalf("GET %s with the store closed: status %d, want 500", target, r.Status)
		}
		got := logs.take(t)
		if len(got) != 1 || got[0].Level != "ERROR" || got[0].Status != 500 {
			t.Errorf("GET %s with the store closed logged %+v, want one ERROR with status 500", target, got)
		}
	}
}
