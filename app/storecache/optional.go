package storecache

import (
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The store's optional ports reached through a write transaction
// (app.Optional finds these first): each write marks what it changes, so
// that the answers cached for it are dropped — a contract's records its
// company's, a change log or a charges table everyone's (reference data,
// as bank records).

var (
	_ app.ContractTx  = (*writeTx)(nil)
	_ app.ChargesTx   = (*writeTx)(nil)
	_ app.ChangeLogTx = (*writeTx)(nil)
)

func optional[T any](t *writeTx, what string) (T, error) {
	v, ok := app.Optional[T](t.Tx)
	if !ok {
		var zero T
		return zero, domain.Errorf(domain.EINTERNAL, "this store keeps no %s", what)
	}
	return v, nil
}

func (t *writeTx) contracts() (app.ContractTx, error) {
	return optional[app.ContractTx](t, "contracts")
}

func (t *writeTx) PutContract(c *domain.Contract) error {
	ct, err := t.contracts()
	if err != nil {
		return err
	}
	t.company(c.CompanyID)
	return ct.PutContract(c)
}

func (t *writeTx) Contract(id string) (*domain.Contract, error) {
	ct, err := t.contracts()
	if err != nil {
		return nil, err
	}
	return ct.Contract(id)
}

func (t *writeTx) Contracts(companyID string) ([]*domain.Contract, error) {
	ct, err := t.contracts()
	if err != nil {
		return nil, err
	}
	return ct.Contracts(companyID)
}

func (t *writeTx) LockContract(id string) error {
	ct, err := t.contracts()
	if err != nil {
		return err
	}
	return ct.LockContract(id)
}

// contractCompany marks the company of the contract a measurement or an
// amendment belongs to.
func (t *writeTx) contractCompany(ct app.ContractTx, contractID string) error {
	c, err := ct.Contract(contractID)
	if err != nil {
		return err
	}
	t.company(c.CompanyID)
	return nil
}

func (t *writeTx) PutMeasurement(m *domain.Measurement) error {
	ct, err := t.contracts()
	if err != nil {
		return err
	}
	if err := t.contractCompany(ct, m.ContractID); err != nil {
		return err
	}
	return ct.PutMeasurement(m)
}

func (t *writeTx) Measurements(contractID string) ([]*domain.Measurement, error) {
	ct, err := t.contracts()
	if err != nil {
		return nil, err
	}
	return ct.Measurements(contractID)
}

func (t *writeTx) PutAmendment(a *domain.Amendment) error {
	ct, err := t.contracts()
	if err != nil {
		return err
	}
	if err := t.contractCompany(ct, a.ContractID); err != nil {
		return err
	}
	return ct.PutAmendment(a)
}

func (t *writeTx) Amendments(contractID string) ([]*domain.Amendment, error) {
	ct, err := t.contracts()
	if err != nil {
		return nil, err
	}
	return ct.Amendments(contractID)
}

func (t *writeTx) PutChargesTable(tab *domain.ChargesTable) error {
	c, err := optional[app.ChargesTx](t, "labour charges tables")
	if err != nil {
		return err
	}
	t.global = true
	return c.PutChargesTable(tab)
}

func (t *writeTx) ChargesTable(key string) (*domain.ChargesTable, error) {
	c, err := optional[app.ChargesTx](t, "labour charges tables")
	if err != nil {
		return nil, err
	}
	return c.ChargesTable(key)
}

func (t *writeTx) ChargesTables(bank string) ([]*domain.ChargesTable, error) {
	c, err := optional[app.ChargesTx](t, "labour charges tables")
	if err != nil {
		return nil, err
	}
	return c.ChargesTables(bank)
}

func (t *writeTx) PutChanges(bank, month string, changes []domain.BankChange) error {
	c, err := optional[app.ChangeLogTx](t, "change logs")
	if err != nil {
		return err
	}
	t.global = true
	return c.PutChanges(bank, month, changes)
}

func (t *writeTx) Changes(bank, month string) ([]domain.BankChange, error) {
	c, err := optional[app.ChangeLogTx](t, "change logs")
	if err != nil {
		return nil, err
	}
	return c.Changes(bank, month)
}

func (t *writeTx) ChangeMonths(bank string) ([]string, error) {
	c, err := optional[app.ChangeLogTx](t, "change logs")
	if err != nil {
		return nil, err
	}
	return c.ChangeMonths(bank)
}

// Webhooks and their deliveries: a write drops its company's cached
// answers (the webhook lists and delivery lists are company reads).

var _ app.WebhookTx = (*writeTx)(nil)

func (t *writeTx) webhooks() (app.WebhookTx, error) {
	return optional[app.WebhookTx](t, "webhooks")
}

func (t *writeTx) PutWebhook(w *domain.Webhook) error {
	wt, err := t.webhooks()
	if err != nil {
		return err
	}
	t.company(w.CompanyID)
	return wt.PutWebhook(w)
}

func (t *writeTx) Webhook(id string) (*domain.Webhook, error) {
	wt, err := t.webhooks()
	if err != nil {
		return nil, err
	}
	return wt.Webhook(id)
}

func (t *writeTx) Webhooks(companyID string) ([]*domain.Webhook, error) {
	wt, err := t.webhooks()
	if err != nil {
		return nil, err
	}
	return wt.Webhooks(companyID)
}

func (t *writeTx) DeleteWebhook(id string) error {
	wt, err := t.webhooks()
	if err != nil {
		return err
	}
	w, err := wt.Webhook(id)
	if err != nil {
		return err
	}
	t.company(w.CompanyID)
	return wt.DeleteWebhook(id)
}

func (t *writeTx) PutDelivery(d *domain.WebhookDelivery) error {
	wt, err := t.webhooks()
	if err != nil {
		return err
	}
	t.company(d.CompanyID)
	return wt.PutDelivery(d)
}

func (t *writeTx) Delivery(id string) (*domain.WebhookDelivery, error) {
	wt, err := t.webhooks()
	if err != nil {
		return nil, err
	}
	return wt.Delivery(id)
}

func (t *writeTx) Deliveries(webhookID, state string, limit int) ([]*domain.WebhookDelivery, error) {
	wt, err := t.webhooks()
	if err != nil {
		return nil, err
	}
	return wt.Deliveries(webhookID, state, limit)
}

// ClaimDeliveries only leases: no answer shows a lease, nothing to drop.
func (t *writeTx) ClaimDeliveries(now, until time.Time, n int) ([]*domain.WebhookDelivery, error) {
	wt, err := t.webhooks()
	if err != nil {
		return nil, err
	}
	return wt.ClaimDeliveries(now, until, n)
}
