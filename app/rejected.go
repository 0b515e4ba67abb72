package app

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/costdb/costdb/domain"
)

// An adapter may find, while decoding a request, field errors that the use
// case cannot see (a number out of bounds or not a number: the use case gets
// no value for it). So that one answer lists every bad field, the adapter
// hands them over in the context (WithRejected); every write transaction of
// the Service then ends in EINVALID listing them together with the use
// case's own field errors, and is rolled back: with rejected input nothing
// is ever written, whatever path the use case takes.

type rejectedKey struct{}

// WithRejected returns ctx carrying field errors found in the request
// before the use case runs. Fields are JSON pointers named as the use case
// names its own (the domain's names). No errors: ctx unchanged.
func WithRejected(ctx context.Context, fields []domain.FieldError) context.Context {
	if len(fields) == 0 {
		return ctx
	}
	prev, _ := ctx.Value(rejectedKey{}).([]domain.FieldError)
	all := append(append([]domain.FieldError(nil), prev...), fields...)
	return context.WithValue(ctx, rejectedKey{}, all)
}

// rejected returns the field errors WithRejected put in ctx.
func rejected(ctx context.Context) []domain.FieldError {
	f, _ := ctx.Value(rejectedKey{}).([]domain.FieldError)
	return f
}

// rejectingStore is the Service's store: Update with rejected input in the
// context never commits.
type rejectingStore struct {
	Store
	memo *bankMemo // bankmemo.go
	// noStamps is set once a transaction of the store showed it keeps no
	// composition stamps (prepared.go): no read transaction is then spent
	// preparing a change.
	noStamps *atomic.Bool
}

// Update runs fn; when ctx carries rejected fields it then fails with
// EINVALID naming them (fn's own field errors added, but for the fields
// rejected and what they hold: their value never reached fn), which rolls
// the transaction back. A not-found or an unauthorized error of fn stays
// as it is: the request names something that is not there.
func (s rejectingStore) Update(ctx context.Context, fn func(Tx) error) error {
	bad := rejected(ctx)
	err := s.Store.Update(ctx, func(stx Tx) error {
		tx := newGenTx(stx, s.memo)
		err := fn(tx)
		if len(bad) == 0 {
			if err == nil {
				err = tx.bump() // generation.go
			}
			return err
		}
		switch domain.ErrorCode(err) {
		case domain.ENOTFOUND, domain.EUNAUTHORIZED:
			return err
		}
		if err != nil && domain.ErrorCode(err) != domain.EINVALID {
			if _, ok := err.(*domain.Error); !ok {
				return err // a fault of the store: not the client's
			}
		}
		return mergeRejected(bad, domain.ErrorFields(err))
	})
	return err
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
