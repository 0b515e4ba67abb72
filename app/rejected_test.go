package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// TestRejectedInput checks that field errors an adapter found before the
// use case ran are reported with the use case's own and that nothing is
// written, whether the rest of the input is good or bad; and that a
// not-found stays a not-found.
func TestRejectedInput(t *testing.T) {
	f := newFixture(t)
	bad := []domain.FieldError{{Field: "/locals/MG/pnd", Message: "must be a number"}}
	rsvc := f.svc.Rejecting(bad)

	good := app.ResourceInput{Code: "R1", Description: "d", Type: 4, Unit: "UN",
		Locals: map[string]domain.PriceLine{"MG": {PND: dec("0"), PD: dec("1")}}}
	_, err := rsvc.CreateResource(ctx, f.a, good)
	if diff := cmp.Diff(bad, domain.ErrorFields(err)); diff != "" || domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("good input, rejected price: %v (-want +got):\n%s", err, diff)
	}

	worse := good
	worse.Code, worse.Unit = "", ""
	_, err = rsvc.CreateResource(ctx, f.a, worse)
	want := append(append([]domain.FieldError(nil), bad...),
		domain.FieldError{Field: "/code", Message: "is required"}, domain.FieldError{Field: "/unit", Message: "is required"})
	if diff := cmp.Diff(fields(want), fields(domain.ErrorFields(err))); diff != "" {
		t.Errorf("bad input too (-want +got):\n%s", diff)
	}

	// An error of the use case on the rejected field itself is left out:
	// its value never reached the use case.
	qty := []domain.FieldError{{Field: "/items/0/quantity", Message: "must be a number"}}
	c, err := f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: "C1", Description: "d", Unit: "M2", State: "MG"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{{Name: "SINAPI", State: "MG", Month: "08/2026"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Rejecting(qty).AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "88309"}})
	if diff := cmp.Diff(qty, domain.ErrorFields(err)); diff != "" {
		t.Errorf("add items (-want +got):\n%s", diff)
	}
	got, err := f.svc.Composition(ctx, f.a, c.ID)
	if err != nil || len(got.Items) != 0 {
		t.Errorf("the refused add wrote items: %v, %v", got, err)
	}

	if _, err := rsvc.UpdateResource(ctx, f.a, "nope", app.ResourcePatch{}); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("update of a missing resource with rejected input: %v, want not found", err)
	}
	list, total, err := f.svc.Resources(ctx, f.a, app.ListQuery{})
	if err != nil || total != 0 {
		t.Errorf("refused creates wrote resources: %d %v %v", total, list, err)
	}
}

// TestRejectingAddsUp: rejected fields given in two steps are all
// reported, in the order given, and no rejected field means the Service
// itself.
func TestRejectingAddsUp(t *testing.T) {
	f := newFixture(t)
	if f.svc.Rejecting(nil) != f.svc {
		t.Error("Rejecting(nil) is another Service")
	}
	a := []domain.FieldError{{Field: "/locals/MG/pnd", Message: "must be a number"}}
	b := []domain.FieldError{{Field: "/locals/MG/pd", Message: "must be a number"}}
	good := app.ResourceInput{Code: "R1", Description: "d", Type: 4, Unit: "UN"}
	_, err := f.svc.Rejecting(a).Rejecting(b).CreateResource(ctx, f.a, good)
	if diff := cmp.Diff(append(append([]domain.FieldError(nil), a...), b...), domain.ErrorFields(err)); diff != "" {
		t.Errorf("two steps (-want +got):\n%s", diff)
	}
	if _, total, err := f.svc.Resources(ctx, f.a, app.ListQuery{}); err != nil || total != 0 {
		t.Errorf("the refused create wrote: %d, %v", total, err)
	}
}

// fields lists the pointers of field errors.
func fields(fs []domain.FieldError) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Field
	}
	return out
}
