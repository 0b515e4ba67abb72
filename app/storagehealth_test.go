package app_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestStorageHealth: a write that failed for a full disk makes Err say so
// until a write commits; other failures leave it as it is.
func TestStorageHealth(t *testing.T) {
	var h app.StorageHealth
	if err := h.Err(); err != nil {
		t.Fatalf("zero value: %v, want healthy", err)
	}
	h.Wrote(domain.Errorf(domain.EINVALID, "bad input"))
	h.Wrote(errors.New("some fault"))
	if err := h.Err(); err != nil {
		t.Fatalf("after failures that are not a full disk: %v, want healthy", err)
	}
	full := fmt.Errorf("wrapped: %w", domain.Errorf(domain.ESTORAGEFULL, "the disk is full"))
	h.Wrote(full)
	if got := domain.ErrorCode(h.Err()); got != domain.ESTORAGEFULL {
		t.Fatalf("after a full disk: code %q, want %q", got, domain.ESTORAGEFULL)
	}
	if got := domain.ErrorMessage(h.Err()); got != "the disk is full" {
		t.Errorf("message %q", got)
	}
	h.Wrote(domain.Errorf(domain.ENOTFOUND, "no such record"))
	if domain.ErrorCode(h.Err()) != domain.ESTORAGEFULL {
		t.Fatal("a refused write cleared the fault: only a commit may")
	}
	h.Wrote(nil)
	if err := h.Err(); err != nil {
		t.Fatalf("after a commit: %v, want healthy", err)
	}
}
