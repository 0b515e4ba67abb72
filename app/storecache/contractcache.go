package storecache

import (
	"sync"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// contractCache keeps decoded contracts across requests (issue 26: decoding
// a 5,000-line contract was 17 ms of each boletim). A contract is written
// once, when it is made from its frozen version, and never changed or
// deleted (its measurements and amendments are records of their own), so a
// contract read once is the contract on every store and every server: the
// cache needs no generation. Only contracts found are kept (one not yet
// made is read again). Entries are shared between the transactions that
// read them: a contract is read only (app.ContractTx). Should contracts
// ever change or be deleted, their writes must drop the entry.
type contractCache struct {
	mu    sync.Mutex
	m     map[string]*domain.Contract
	bytes int // the contracts' estimated sizes (contractBytes)
}

// maxContractCacheBytes bounds the cache by the estimated size of the
// decoded contracts (contractBytes; a line is some 400 to 900 bytes
// decoded, by its texts): when a contract would pass it, the cache starts
// over; a contract larger than all of it is not kept. It was 100,000
// lines, which long descriptions could make twice the memory of short
// ones; 64 MB still keeps a contract of 100,000 lines of SINAPI's texts.
const maxContractCacheBytes = 64 << 20

// contractBytes estimates the memory a decoded contract keeps: its
// struct and strings, and per line its struct, three decimals and nine
// strings (the sizes of bankmemosize.go).
func contractBytes(c *domain.Contract) int {
	n := memoSlotBytes + contractStruct + 3*decimalBytes + len(c.ID) + len(c.CompanyID) + len(c.BudgetID) + len(c.VersionHash) +
		len(c.Number) + len(c.Contractor) + len(c.StartDate) + len(c.BaseMonth) + len(c.IndexName) + 9*stringBytes
	for i := range c.Lines {
		l := &c.Lines[i]
		n += contractLineStruct + 3*decimalBytes + 9*stringBytes + len(l.ID) + len(l.Number) + len(l.Stage) +
			len(l.StageName) + len(l.Bank) + len(l.Month) + len(l.Code) + len(l.Description) + len(l.Unit)
	}
	return n
}

// contractStruct is a domain.Contract; contractLineStruct a
// domain.ContractLine in the lines' array (TestContractCacheBytes checks
// both against unsafe.Sizeof).
const (
	contractStruct     = 320
	contractLineStruct = 208
)

func newContractCache() *contractCache { return &contractCache{m: map[string]*domain.Contract{}} }

func (cc *contractCache) get(id string) *domain.Contract {
	if cc == nil {
		return nil
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.m[id]
}

func (cc *contractCache) put(c *domain.Contract) {
	if cc == nil {
		return
	}
	size := contractBytes(c)
	if size > maxContractCacheBytes {
		return
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if _, ok := cc.m[c.ID]; ok {
		return
	}
	if cc.bytes+size > maxContractCacheBytes {
		cc.m, cc.bytes = map[string]*domain.Contract{}, 0
	}
	cc.m[c.ID] = c
	cc.bytes += size
}

// The read transaction offers the store's contract port with contracts
// read through the cache.
var _ app.ContractTx = (*readTx)(nil)

func (t *readTx) contractPort() (app.ContractTx, error) {
	ct, ok := app.Optional[app.ContractTx](t.Tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no contracts")
	}
	return ct, nil
}

// Contract is the store's, through the cache.
func (t *readTx) Contract(id string) (*domain.Contract, error) {
	if c := t.contracts.get(id); c != nil {
		return c, nil
	}
	ct, err := t.contractPort()
	if err != nil {
		return nil, err
	}
	c, err := ct.Contract(id)
	if err != nil {
		return nil, err
	}
	t.contracts.put(c)
	return c, nil
}

func (t *readTx) PutContract(c *domain.Contract) error {
	ct, err := t.contractPort()
	if err != nil {
		return err
	}
	return ct.PutContract(c)
}

func (t *readTx) Contracts(companyID string) ([]*domain.Contract, error) {
	ct, err := t.contractPort()
	if err != nil {
		return nil, err
	}
	return ct.Contracts(companyID)
}

func (t *readTx) LockContract(id string) error {
	ct, err := t.contractPort()
	if err != nil {
		return err
	}
	return ct.LockContract(id)
}

func (t *readTx) PutMeasurement(m *domain.Measurement) error {
	ct, err := t.contractPort()
	if err != nil {
		return err
	}
	return ct.PutMeasurement(m)
}

func (t *readTx) Measurements(contractID string) ([]*domain.Measurement, error) {
	ct, err := t.contractPort()
	if err != nil {
		return nil, err
	}
	return ct.Measurements(contractID)
}

func (t *readTx) PutAmendment(a *domain.Amendment) error {
	ct, err := t.contractPort()
	if err != nil {
		return err
	}
	return ct.PutAmendment(a)
}

func (t *readTx) Amendments(contractID string) ([]*domain.Amendment, error) {
	ct, err := t.contractPort()
	if err != nil {
		return nil, err
	}
	return ct.Amendments(contractID)
}
