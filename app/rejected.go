package app

import (
	"context"
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
		return mergeRejected(s.bad, domain.ErrorFields(err))
	})
}

// mergeRejected lists the rejected fields, then the others whose pointer is
// neither one of them nor inside one.
func mergeRejected(bad, own []domain.FieldError) error {
	v := domain.Validation{Fields: append([]domain.FieldError(nil), bad...)}
	for _, f := range own {
		covered := false
		for _, b := range bad {
			if f.Field == b.Field || strings.HasPrefix(f.Field, b.Field+"/") {
				covered = true
				break
			}
		}
		if !covered {
			v.Fields = append(v.Fields, f)
		}
	}
	return v.Err()
}
