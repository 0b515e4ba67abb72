package main

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestAdminErrorsListAtMost: an operator command refused with thousands of
// field errors (a bad import) prints the first domain.MaxFieldErrors and
// the count of the others, through the admin listener's answer.
func TestAdminErrorsListAtMost(t *testing.T) {
	var v domain.Validation
	for i := 0; i < 250; i++ {
		v.Add("/resources/"+strconv.Itoa(i)+"/code", "is required")
	}
	rec := httptest.NewRecorder()
	writeAdminError(rec, v.Err())
	err := describe(readAdminError(rec.Result()))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 1+domain.MaxFieldErrors+1 {
		t.Fatalf("%d lines, want the message, %d fields and the count:\n%s", len(lines), domain.MaxFieldErrors, err)
	}
	if got, want := lines[len(lines)-1], "  and 150 more errors (only the first 100 are listed)"; got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
	if got, want := lines[1], "  /resources/0/code: is required"; got != want {
		t.Errorf("first field %q, want %q", got, want)
	}
}
