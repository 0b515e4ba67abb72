package main

import (
	"sort"

	"github.com/costdb/costdb/app"
)

// copyOptional copies what the source's optional ports hold into dst:
// budget versions, contracts with their measurements and amendments, the
// banks' change logs and labour charges tables, webhooks with their
// deliveries. companies, budgets and banks are what the walk found; count
// counts each row by its PostgreSQL table. A port either side lacks is
// skipped.
func copyOptional(src, dst app.Tx, companies, budgets []string, banks map[string]bool, count func(string)) error {
	if from, ok := app.Optional[app.VersionTx](src); ok {
		to, ok := app.Optional[app.VersionTx](dst)
		if ok {
			for _, b := range budgets {
				list, err := from.BudgetVersions(b)
				if err != nil {
					return err
				}
				for _, v := range list {
					count("budget_versions")
					if err := to.PutBudgetVersion(v); err != nil {
						return err
					}
				}
			}
		}
	}
	if from, ok := app.Optional[app.ContractTx](src); ok {
		if to, ok := app.Optional[app.ContractTx](dst); ok {
			for _, co := range companies {
				list, err := from.Contracts(co)
				if err != nil {
					return err
				}
				for _, c := range list {
					count("contracts")
					if err := to.PutContract(c); err != nil {
						return err
					}
					ms, err := from.Measurements(c.ID)
					if err != nil {
						return err
					}
					for _, m := range ms {
						count("contract_measurements")
						if err := to.PutMeasurement(m); err != nil {
							return err
						}
					}
					as, err := from.Amendments(c.ID)
					if err != nil {
						return err
					}
					for _, a := range as {
						count("contract_amendments")
						if err := to.PutAmendment(a); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	names := make([]string, 0, len(banks))
	for b := range banks {
		names = append(names, b)
	}
	sort.Strings(names)
	if from, ok := app.Optional[app.ChangeLogTx](src); ok {
		if to, ok := app.Optional[app.ChangeLogTx](dst); ok {
			for _, bank := range names {
				months, err := from.ChangeMonths(bank)
				if err != nil {
					return err
				}
				for _, m := range months {
					changes, err := from.Changes(bank, m)
					if err != nil {
						return err
					}
					for range changes {
						count("bank_changes")
					}
					if err := to.PutChanges(bank, m, changes); err != nil {
						return err
					}
				}
			}
		}
	}
	if from, ok := app.Optional[app.ChargesTx](src); ok {
		if to, ok := app.Optional[app.ChargesTx](dst); ok {
			for _, bank := range names {
				tables, err := from.ChargesTables(bank)
				if err != nil {
					return err
				}
				for _, t := range tables {
					count("charges_tables")
					if err := to.PutChargesTable(t); err != nil {
						return err
					}
				}
			}
		}
	}
	if from, ok := app.Optional[app.WebhookTx](src); ok {
		if to, ok := app.Optional[app.WebhookTx](dst); ok {
			hooks, err := from.Webhooks("")
			if err != nil {
				return err
			}
			for _, w := range hooks {
				count("webhooks")
				if err := to.PutWebhook(w); err != nil {
					return err
				}
				ds, err := from.Deliveries(w.ID, "", 0)
				if err != nil {
					return err
				}
				for _, d := range ds {
					count("webhook_deliveries")
					if err := to.PutDelivery(d); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
