package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
)

// TestExportLimit: n slots; a request finding none waits for one given
// back, and gets none when its wait ends or its client goes away; a nil
// limit lets everything through.
func TestExportLimit(t *testing.T) {
	l := httpapi.NewExportLimit(2)
	l.Wait = time.Hour
	ctx := context.Background()
	r1, ok1 := l.Acquire(ctx)
	r2, ok2 := l.Acquire(ctx)
	if !ok1 || !ok2 {
		t.Fatal("two slots, not both taken")
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, ok := l.Acquire(gone); ok {
		t.Error("a third export got a slot of two")
	}
	got := make(chan bool)
	go func() {
		release, ok := l.Acquire(ctx) // waits for a slot given back
		if ok {
			release()
		}
		got <- ok
	}()
	r1()
	if !<-got {
		t.Error("the waiting export got no slot once one was given back")
	}
	l.Wait = 0
	r3, ok3 := l.Acquire(ctx)
	if !ok3 {
		t.Fatal("no slot after two were given back")
	}
	if _, ok := l.Acquire(ctx); ok {
		t.Error("an export got a slot beyond the limit")
	}
	r2()
	r3()
	var none *httpapi.ExportLimit
	if release, ok := none.Acquire(gone); !ok {
		t.Error("no limit refused an export")
	} else {
		release()
	}
}
