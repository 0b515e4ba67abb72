package boltstore

import (
	"bytes"
	"context"
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
		bankComposition := func(r *bankCompositionRecord, d *decoder) *domain.BankComposition {
			return joinStructure(btx, nil, d, r)
		}
		steps := []func() error{
			func() error { return walkBucket(btx, bucketCompanies, v.Company, (*companyRecord).domain) },
			func() error { return walkBucket(btx, bucketDepartments, v.Department, (*departmentRecord).domain) },
			func() error { return walkBucket(btx, bucketUsers, v.User, (*userRecord).domain) },
			func() error { return walkBucket(btx, bucketGroups, v.Group, (*groupRecord).domain) },
			func() error { return walkBucket(btx, bucketResources, v.Resource, (*resourceRecord).domain) },
			func() error { return walkBucket(btx, bucketCompositions, v.Composition, (*compositionRecord).domain) },
			func() error { return walkBucket(btx, bucketEditions, v.Edition, (*editionRecord).domain) },
			func() error { return walkBank(btx, bucketBankResources, v.BankResource, (*bankResourceRecord).domain) },
			func() error { return walkBank(btx, bucketBankCompositions, v.BankComposition, bankComposition) },
			func() error { return walkBucket(btx, bucketBudgets, v.Budget, (*budgetRecord).domain) },
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
func walkBucket[R any, V any](btx *bolt.Tx, bucket []byte, fn func(V) error, conv func(*R, *decoder) V) error {
	if fn == nil {
		return nil
	}
	return btx.Bucket(bucket).ForEach(func(k, data []byte) error {
		rec, err := decodeRecord(bucket, k, data, conv)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}

// walkBank is walkBucket for the bank buckets, whose keys are
// "<edition key>\x00<code>".
func walkBank[R any, V any](btx *bolt.Tx, bucket []byte, fn func(string, V) error, conv func(*R, *decoder) V) error {
	if fn == nil {
		return nil
	}
	return btx.Bucket(bucket).ForEach(func(k, data []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return fmt.Errorf("boltstore: bad key %q in bucket %s", k, bucket)
		}
		rec, err := decodeRecord(bucket, k, data, conv)
		if err != nil {
			return err
		}
		return fn(string(k[:i]), rec)
	})
}
