package pgstore_test

import (
	"context"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestPrefetchResources: the resources of a company read ahead by their
// codes, in one round trip, answer ResourceByCode as the store would
// (copies, ENOTFOUND for a code that names none, another company's code
// read from the store); what was read ahead is not read again.
func TestPrefetchResources(t *testing.T) {
	st := open(t, pgstore.Options{})
	company, _ := tripsFixture(t, st)
	err := st.View(context.Background(), func(tx app.Tx) error {
		pf, ok := app.Optional[app.ResourcePrefetcher](tx)
		if !ok {
			t.Fatal("a PostgreSQL transaction offers no ResourcePrefetcher")
		}
		if _, err := tx.Setting("x"); err != nil { // BEGIN sent
			return err
		}
		before := st.RoundTrips()
		if err := pf.PrefetchResources(company, []string{"R1", "R2", "R9"}); err != nil {
			return err
		}
		if err := pf.PrefetchResources(company, []string{"R2"}); err != nil {
			return err
		}
		for code, want := range map[string]string{"R1": "10", "R2": "20"} {
			r, err := tx.ResourceByCode(company, code)
			if err != nil || r.Locals["MG"].PND.String() != want {
				t.Errorf("%s: %v %v, want PND %s", code, r, err, want)
				continue
			}
			r.Locals["MG"] = domain.PriceLine{} // a copy
		}
		if r, err := tx.ResourceByCode(company, "R1"); err != nil || r.Locals["MG"].PND.String() != "10" {
			t.Errorf("R1 read again: %v %v", r, err)
		}
		if _, err := tx.ResourceByCode(company, "R9"); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("R9: %v, want not found", err)
		}
		if got := st.RoundTrips().Sub(before).Waited; got != 1 {
			t.Errorf("%d round trips for three resources read ahead and read, want 1", got)
		}
		if _, err := tx.ResourceByCode("another", "R1"); domain.ErrorCode(err) != domain.ENOTFOUND {
			t.Errorf("R1 of another company: %v, want not found", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
