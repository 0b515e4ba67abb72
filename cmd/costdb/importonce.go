package main

import (
	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/app"
)

// handOver is the edition function of an import (operator.Import) that
// hands each of eds to the transaction once and keeps no reference to it
// afterwards, so that the records of an edition (a regime group) already
// written, whose encoded copies the transaction holds, can be collected
// before the commit: the commit of one state's 1M rows then holds the
// transaction's pages without the ~150 MB of records read
// (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds"). If the store runs the transaction again (it
// asks for an edition it was given), the files are read again (reread); a
// nil reread keeps every edition instead.
func handOver(eds []bankfiles.Edition, reread func() ([]bankfiles.Edition, error)) func(int) (*app.EditionData, error) {
	asked := -1
	return func(i int) (*app.EditionData, error) {
		if i <= asked && reread != nil { // the transaction runs again
			again, err := reread()
			if err != nil {
				return nil, err
			}
			eds = again
		}
		asked = i
		if i >= len(eds) {
			return nil, nil
		}
		e := eds[i]
		if reread != nil {
			eds[i] = bankfiles.Edition{}
		}
		return &app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}, nil
	}
}
