package app

import "github.com/costdb/costdb/domain"

// ContractTx is what a store's transaction offers to keep contracts, their
// measurements and amendments (domain.Contract, Measurement, Amendment); a
// store without it answers the contract use cases with an internal error.
// Records are stored whole and replaced whole (Put* writes or replaces).
type ContractTx interface {
	PutContract(c *domain.Contract) error
	// Contract returns the contract; ENOTFOUND when none.
	Contract(id string) (*domain.Contract, error)
	// Contracts lists a company's contracts in creation (ID) order.
	Contracts(companyID string) ([]*domain.Contract, error)
	// LockContract holds the contract for the rest of the write
	// transaction: two transactions writing one contract's measurements or
	// amendments run one after the other, so that they never both pass a
	// balance check (PostgreSQL: SELECT … FOR UPDATE of the contract's
	// row; bbolt: its one writer). ENOTFOUND when none.
	LockContract(id string) error
	PutMeasurement(m *domain.Measurement) error
	// Measurements lists a contract's measurements by number.
	Measurements(contractID string) ([]*domain.Measurement, error)
	PutAmendment(a *domain.Amendment) error
	// Amendments lists a contract's amendments by number.
	Amendments(contractID string) ([]*domain.Amendment, error)
}

// contractTx returns the store's contract operations.
func contractTx(tx Tx) (ContractTx, error) {
	c, ok := Optional[ContractTx](tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no contracts")
	}
	return c, nil
}
