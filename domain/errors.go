package domain

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes. Every error the core and the application layer return carries
// one of them; adapters map codes to their own statuses (HTTP, exit codes).
const (
	// EINVALID means a field rule failed; Error.Fields names each bad field.
	EINVALID = "invalid"
	// EBADREQUEST means the request itself is malformed (not a field rule).
	EBADREQUEST = "bad_request"
	// ENOTFOUND means no such record exists in the caller's company.
	ENOTFOUND = "not_found"
	// ECONFLICT means the operation conflicts with other records (still
	// referenced, would create a cycle, duplicate key at storage level).
	ECONFLICT = "conflict"
	// EUNAUTHORIZED means the caller is not authenticated.
	EUNAUTHORIZED = "unauthorized"
	// EUNAVAILABLE means a resource the operation needs is busy or cannot
	// be reached for now (the database file is held by another process,
	// the database server is down, starting or shutting down); trying
	// again later may succeed.
	EUNAVAILABLE = "unavailable"
	// ESTORAGEFULL means the store could not write because its storage is
	// full (no space left on the disk, PostgreSQL's disk_full): nothing was
	// written, and nothing will be until an operator makes room.
	ESTORAGEFULL = "storage_full"
	// EINTERNAL is any other failure; its details are never shown to clients.
	EINTERNAL = "internal"
)

// FieldError names one bad field and what is wrong with it. Field is a JSON
// pointer into the input as the client sent it, such as "/items/2/code".
type FieldError struct {
	Field   string
	Message string
}

// MaxFieldErrors is how many field errors one error lists. A request with
// thousands of bad fields is answered with the first MaxFieldErrors and the
// number of the others (issue 22: building and writing every message of a
// 100,000-line request took longer than the write timeout).
const MaxFieldErrors = 100

// Error is an error with a machine-readable code and a message meant for the
// person who made the request.
type Error struct {
	Code    string
	Message string
	Fields  []FieldError
	// More are the pointers of the field errors found beyond the first
	// MaxFieldErrors (a Validation keeps no message for them): only the
	// pointers, so that the ones a merge drops (app.Service.Rejecting)
	// are not counted, and the count stays exact.
	More []string
}

// Error implements the error interface.
func (e *Error) Error() string {
	fields, more := ListedFields(e)
	if len(fields) == 0 {
		return e.Message
	}
	parts := make([]string, len(fields), len(fields)+1)
	for i, f := range fields {
		parts[i] = f.Field + ": " + f.Message
	}
	if more > 0 {
		parts = append(parts, MoreFieldErrors(more))
	}
	return e.Message + " (" + strings.Join(parts, "; ") + ")"
}

// ListedFields returns the field errors of err an answer lists (at most
// MaxFieldErrors) and how many more it found.
func ListedFields(err error) (fields []FieldError, more int) {
	var e *Error
	if !errors.As(err, &e) {
		return nil, 0
	}
	fields, more = e.Fields, len(e.More)
	if len(fields) > MaxFieldErrors {
		fields, more = fields[:MaxFieldErrors], more+len(fields)-MaxFieldErrors
	}
	return fields, more
}

// MoreFieldErrors is the message that stands for the field errors an answer
// does not list.
func MoreFieldErrors(more int) string {
	s := "s"
	if more == 1 {
		s = ""
	}
	return fmt.Sprintf("and %d more error%s (only the first %d are listed)", more, s, MaxFieldErrors)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns an EINVALID *Error naming a single field.
func FieldErrorf(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: EINVALID, Message: "validation failed", Fields: []FieldError{{Field: field, Message: msg}}}
}

// ErrorCode returns the code of err: the code of the first *Error in its
// chain, "" for nil, and EINTERNAL for any other error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the human message of err. Errors that are not *Error
// are internal and answer "internal error", so their details never leak.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// ErrorFields returns the field errors of err, if it is an *Error.
func ErrorFields(err error) []FieldError {
	var e *Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// Validation collects field errors so that a single answer can name every
// bad field at once: the first MaxFieldErrors with their messages, the
// pointers of the others (More) to count them.
type Validation struct {
	Fields []FieldError
	More   []string
}

// Add records that field is bad.
func (v *Validation) Add(field, format string, args ...any) {
	if len(v.Fields) >= MaxFieldErrors {
		v.More = append(v.More, field) // no message: it is not listed
		return
	}
	v.Fields = append(v.Fields, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// AddField records a field error already made.
func (v *Validation) AddField(f FieldError) {
	if len(v.Fields) >= MaxFieldErrors {
		v.More = append(v.More, f.Field)
		return
	}
	v.Fields = append(v.Fields, f)
}

// Len is how many field errors v holds, listed or not.
func (v *Validation) Len() int { return len(v.Fields) + len(v.More) }

// Merge adds the field errors of err, with each field prefixed by prefix.
// An error that is not EINVALID is returned unchanged for the caller to
// handle; nil otherwise.
func (v *Validation) Merge(prefix string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != EINVALID {
		return err
	}
	for _, f := range e.Fields {
		v.AddField(FieldError{Field: prefix + f.Field, Message: f.Message})
	}
	for _, m := range e.More {
		v.More = append(v.More, prefix+m)
	}
	return nil
}

// Err returns nil when no field was bad, else an EINVALID *Error.
func (v *Validation) Err() error {
	if v.Len() == 0 {
		return nil
	}
	return &Error{Code: EINVALID, Message: "validation failed", Fields: v.Fields, More: v.More}
}
