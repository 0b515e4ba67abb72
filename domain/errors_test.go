package domain_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestValidationListsAtMost checks that a Validation keeps the messages of
// the first MaxFieldErrors field errors and only counts the others, through
// Merge (prefixed) as when adding, and that ListedFields caps an Error
// built by hand too.
func TestValidationListsAtMost(t *testing.T) {
	var inner domain.Validation
	for i := 0; i < 250; i++ {
		inner.Add("/items/"+strconv.Itoa(i)+"/code", "code %d is bad", i)
	}
	if len(inner.Fields) != domain.MaxFieldErrors || len(inner.More) != 150 || inner.Len() != 250 {
		t.Fatalf("after 250 errors: %d listed, %d more, Len %d", len(inner.Fields), len(inner.More), inner.Len())
	}
	if got := inner.Fields[99]; got.Field != "/items/99/code" || got.Message != "code 99 is bad" {
		t.Errorf("last listed: %+v", got)
	}
	if inner.More[0] != "/items/100/code" || inner.More[149] != "/items/249/code" {
		t.Errorf("more: %q … %q", inner.More[0], inner.More[149])
	}

	var outer domain.Validation
	outer.Add("/code", "is required")
	if err := outer.Merge("/stage", inner.Err()); err != nil {
		t.Fatal(err)
	}
	fields, more := domain.ListedFields(outer.Err())
	if len(fields) != domain.MaxFieldErrors || more != 151 {
		t.Fatalf("merged: %d listed, %d more; want %d and 151", len(fields), more, domain.MaxFieldErrors)
	}
	if fields[0].Field != "/code" || fields[99].Field != "/stage/items/98/code" || outer.More[150] != "/stage/items/249/code" {
		t.Errorf("merged order: %q, %q, %q", fields[0].Field, fields[99].Field, outer.More[150])
	}

	byHand := &domain.Error{Code: domain.EINVALID, Message: "validation failed", More: []string{"/x"}}
	for i := 0; i < 130; i++ {
		byHand.Fields = append(byHand.Fields, domain.FieldError{Field: fmt.Sprintf("/f%d", i), Message: "bad"})
	}
	if fields, more := domain.ListedFields(byHand); len(fields) != domain.MaxFieldErrors || more != 31 {
		t.Errorf("built by hand: %d listed, %d more; want %d and 31", len(fields), more, domain.MaxFieldErrors)
	}
	if want := "and 31 more errors (only the first 100 are listed)"; domain.MoreFieldErrors(31) != want {
		t.Errorf("MoreFieldErrors(31) = %q, want %q", domain.MoreFieldErrors(31), want)
	}
	if fields, more := domain.ListedFields(fmt.Errorf("plain")); fields != nil || more != 0 {
		t.Errorf("a plain error: %v, %d", fields, more)
	}
}
