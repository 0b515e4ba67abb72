package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/domain"
)

// Visitor receives every record of a database from Walk. A nil function
// skips its kind; an error stops the walk and is returned by it.
type Visitor struct {
	Setting         func(key string, value []byte) error
	Company         func(*domain.Company) error
	Department      func(*domain.Department) error
	User            func(*domain.User) error
	Group           func(*domain.Group) error
	Resource        func(*domain.Resource) error
	Composition     func(*domain.Composition) error
	Edition         func(*domain.Edition) error
	BankResource    func(editionKey string, r *domain.BankResource) error
	BankComposition func(editionKey string, c *domain.BankComposition) error
	Budget          func(*domain.Budget) error
}

// Walk reads every record of the database in one read transaction (a
// consistent snapshot), kind by kind in the order of Visitor's fields and
// in key order within a kind, and hands each to v. costdb migrate uses it
// to copy a whole database to another engine: the storage port has no
// lists of companies, users or settings, which only a copy needs.
func (s *Store) Walk(ctx context.Context, v Visitor) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(btx *bolt.Tx) error {
		if v.Setting != nil {
			err := btx.Bucket(bucketSettings).ForEach(func(k, val []byte) error {
				return v.Setting(string(k), append([]byte{}, val...))
			})
			if err != nil {
				return err
			}
		}
		steps := []func() error{
			func() error {
				return walkBucket(btx, bucketCompanies, v.Company, func(d *decoder, r *companyRecord) *domain.Company { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketDepartments, v.Department, func(d *decoder, r *departmentRecord) *domain.Department { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketUsers, v.User, func(d *decoder, r *userRecord) *domain.User { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketGroups, v.Group, func(d *decoder, r *groupRecord) *domain.Group { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketResources, v.Resource, func(d *decoder, r *resourceRecord) *domain.Resource { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketCompositions, v.Composition, func(d *decoder, r *compositionRecord) *domain.Composition { return r.domain(d) })
			},
			func() error {
				return walkBucket(btx, bucketEditions, v.Edition, func(d *decoder, r *editionRecord) *domain.Edition { return r.domain(d) })
			},
			func() error {
				return walkBank(btx, bucketBankResources, v.BankResource, func(d *decoder, r *bankResourceRecord) *domain.BankResource { return r.domain(d) })
			},
			func() error {
				return walkBank(btx, bucketBankCompositions, v.BankComposition, func(d *decoder, r *bankCompositionRecord) *domain.BankComposition {
					return joinStructure(btx, nil, d, r)
				})
			},
			func() error {
				return walkBucket(btx, bucketBudgets, v.Budget, func(d *decoder, r *budgetRecord) *domain.Budget { return r.domain(d) })
			},
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
}

// walkBucket decodes every record of a bucket and hands it to fn.
func walkBucket[R any, V any](btx *bolt.Tx, bucket []byte, fn func(V) error, conv func(*decoder, *R) V) error {
	if fn == nil {
		return nil
	}
	return btx.Bucket(bucket).ForEach(func(k, data []byte) error {
		var r R
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
		}
		var d decoder
		rec, err := decoded(&d, conv(&d, &r), bucket, string(k))
		if err != nil {
			return err
		}
		return fn(rec)
	})
}

// walkBank is walkBucket for the bank buckets, whose keys are
// "<edition key>\x00<code>".
func walkBank[R any, V any](btx *bolt.Tx, bucket []byte, fn func(string, V) error, conv func(*decoder, *R) V) error {
	if fn == nil {
		return nil
	}
	return btx.Bucket(bucket).ForEach(func(k, data []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return fmt.Errorf("boltstore: bad key %q in bucket %s", k, bucket)
		}
		var r R
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", k, bucket, err)
		}
		var d decoder
		rec, err := decoded(&d, conv(&d, &r), bucket, string(k))
		if err != nil {
			return err
		}
		return fn(string(k[:i]), rec)
	})
}
