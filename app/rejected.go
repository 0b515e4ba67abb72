package app

import (
	"context"
	"errors"
	"strings"

	"github.com/costdb/costdb/domain"
)

// An adapter may find, while decoding a request, field errors that the use
// case cannot see (a number out of bounds or not a number: the use case gets
// no value for it). So that one answer lists every bad field, the adapter
// runs the use case on Rejecting(fields): every write transaction of that
// Service ends in EINVALID listing them together with the use case's own
// field errors, and is rolled back, so that with rejected input nothing is
// ever written, whatever path the use case takes.

// Rejecting returns the Service to run one request whose decoding found
// the field errors fields (JSON pointers named as the use case names its
// own: the domain's names). No fields: s itself.
func (s *Service) Rejecting(fields []domain.FieldError) *Service {
	if len(fields) == 0 {
		return s
	}
	c := *s
	if rs, ok := s.store.(rejectingStore); ok {
		fields = append(append([]domain.FieldError(nil), rs.bad...), fields...)
		c.store = rs.Store
	}
	c.store = rejectingStore{Store: c.store, bad: fields}
	return &c
}

// rejectingStore is the store of a Rejecting Service: Update never
// commits.
type rejectingStore struct {
	Store
	bad []domain.FieldError
}

// Update runs fn, then fails with EINVALID naming the rejected fields (fn's
// own field errors added, but for the fields rejected and what they hold:
// their value never reached fn), which rolls the transaction back. A
// not-found or an unauthorized error of fn stays as it is: the request
// names something that is not there.
func (s rejectingStore) Update(ctx context.Context, fn func(Tx) error) error {
	return s.Store.Update(ctx, func(tx Tx) error {
		err := fn(tx)
		switch domain.ErrorCode(err) {
		case domain.ENOTFOUND, domain.EUNAUTHORIZED:
			return err
		}
		if err != nil && domain.ErrorCode(err) != domain.EINVALID {
			if _, ok := err.(*domain.Error); !ok {
				return err // a fault of the store: not the client's
			}
		}
		return mergeRejected(s.bad, err)
	})
}

// mergeRejected lists the rejected fields, then the others whose pointer is
// neither one of them nor inside one; own is the use case's error (its
// field errors beyond the listed ones too, so that the count of those not
// listed is exact). Linear in the number of field errors: each pointer's
// ancestors are looked up in a set (a pairwise check took minutes for a
// 100,000-line request, issue 22).
func mergeRejected(bad []domain.FieldError, own error) error {
	rejected := make(map[string]bool, len(bad))
	var v domain.Validation
	for _, b := range bad {
		rejected[b.Field] = true
		v.AddField(b)
	}
	covered := func(ptr string) bool {
		for {
			if rejected[ptr] {
				return true
			}
			i := strings.LastIndexByte(ptr, '/')
			if i < 0 {
				return false
			}
			ptr = ptr[:i]
		}
	}
	for _, f := range domain.ErrorFields(own) {
		if !covered(f.Field) {
			v.AddField(f)
		}
	}
	var e *domain.Error
	if errors.As(own, &e) {
		for _, ptr := range e.More {
			if !covered(ptr) {
				v.More = append(v.More, ptr)
			}
		}
	}
	return v.Err()
}
