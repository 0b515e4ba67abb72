package storecache

import (
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// refusingTx is an app.Tx that refuses everything (notes it and answers
// errRefused): recordingTx overrides what it can answer.
type refusingTx struct{ refused bool }

var _ app.Tx = (*recordingTx)(nil)

func (t *refusingTx) no() error {
	t.refused = true
	return errRefused
}

func (t *refusingTx) PutSetting(_ string, _ []byte) error             { return t.no() }
func (t *refusingTx) Company(_ string) (*domain.Company, error)       { return nil, t.no() }
func (t *refusingTx) CompanyByName(_ string) (*domain.Company, error) { return nil, t.no() }
func (t *refusingTx) PutCompany(_ *domain.Company) error              { return t.no() }
func (t *refusingTx) Department(_ string) (*domain.Department, error) { return nil, t.no() }
func (t *refusingTx) DepartmentByName(_ string, _ string) (*domain.Department, error) {
	return nil, t.no()
}
func (t *refusingTx) PutDepartment(_ *domain.Department) error   { return t.no() }
func (t *refusingTx) User(_ string) (*domain.User, error)        { return nil, t.no() }
func (t *refusingTx) UserByEmail(_ string) (*domain.User, error) { return nil, t.no() }
func (t *refusingTx) PutUser(_ *domain.User) error               { return t.no() }
func (t *refusingTx) CountUsers() (int, error)                   { return 0, t.no() }
func (t *refusingTx) Users(_ string) ([]*domain.User, error)     { return nil, t.no() }
func (t *refusingTx) Group(_ string) (*domain.Group, error)      { return nil, t.no() }
func (t *refusingTx) Groups(_ string, _ app.Query) ([]*domain.Group, int, error) {
	return nil, 0, t.no()
}
func (t *refusingTx) PutGroup(_ *domain.Group) error                              { return t.no() }
func (t *refusingTx) DeleteGroup(_ string) error                                  { return t.no() }
func (t *refusingTx) Resource(_ string) (*domain.Resource, error)                 { return nil, t.no() }
func (t *refusingTx) ResourceByCode(_ string, _ string) (*domain.Resource, error) { return nil, t.no() }
func (t *refusingTx) Resources(_ string, _ app.Query) ([]*domain.Resource, int, error) {
	return nil, 0, t.no()
}
func (t *refusingTx) PutResource(_ *domain.Resource) error { return t.no() }
func (t *refusingTx) DeleteResource(_ string) error        { return t.no() }
func (t *refusingTx) CompositionByCode(_ string, _ string, _ string) (*domain.Composition, error) {
	return nil, t.no()
}
func (t *refusingTx) Compositions(_ string, _ app.Query) ([]*domain.Composition, int, error) {
	return nil, 0, t.no()
}
func (t *refusingTx) DeleteComposition(_ string) error                             { return t.no() }
func (t *refusingTx) PutEdition(_ *domain.Edition) error                           { return t.no() }
func (t *refusingTx) PutBankResource(_ string, _ *domain.BankResource) error       { return t.no() }
func (t *refusingTx) PutBankComposition(_ string, _ *domain.BankComposition) error { return t.no() }
func (t *refusingTx) DeleteBankRecords(_ string) error                             { return t.no() }
func (t *refusingTx) Budget(_ string) (*domain.Budget, error)                      { return nil, t.no() }
func (t *refusingTx) BudgetByCode(_ string, _ string) (*domain.Budget, error)      { return nil, t.no() }
func (t *refusingTx) Budgets(_ string, _ app.Query) ([]*domain.BudgetHeader, int, error) {
	return nil, 0, t.no()
}
func (t *refusingTx) PutBudget(_ *domain.Budget) error { return t.no() }
func (t *refusingTx) DeleteBudget(_ string) error      { return t.no() }
