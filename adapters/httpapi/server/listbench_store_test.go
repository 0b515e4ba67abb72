package server_test

import (
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// storePage reads the first page of a company's resources through the
// storage port.
func storePage(tx app.Tx, companyID string, size int) ([]*domain.Resource, error) {
	page, _, err := tx.Resources(companyID, app.Query{Limit: size})
	return page, err
}
