package app_test

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var ctx = context.Background()

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fixture is a service over a bbolt store (a temporary file) with two small hand-made SINAPI
// editions: MG 08/2026 and MG 09/2026, where 09/2026 lacks resource 0002
// and prices 0001 higher.
type fixture struct {
	t     *testing.T
	st    app.Store         // the store
	speed *storecache.Store // the speed layer the service runs over
	svc   *app.Service
	a     domain.Principal // company A
	b     domain.Principal // company B
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := newStore(t)
	tokens, err := jwtauth.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	speed := storecache.New(st)
	svc := app.New(speed, tokens, app.Config{MaxItemsPerRequest: 10})
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	ed := func(month string, p1 string, with2 bool) app.EditionData {
		d := app.EditionData{
			Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: month, Regimes: both},
			Resources: []*domain.BankResource{
				{Code: "0001", Description: "AREIA MEDIA", Unit: "M3", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec(p1), PD: dec(p1)}},
				{Code: "7777", Description: "RESOURCE SHARING A CODE", Unit: "UN", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("1"), PD: dec("1")}},
			},
			Compositions: []*domain.BankComposition{
				{Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H", Cost: domain.UnitPrice{PND: dec("33.62"), PD: dec("31.67")}},
				{Code: "7777", Description: "COMPOSITION SHARING A CODE", Unit: "UN", Cost: domain.UnitPrice{PND: dec("2"), PD: dec("2")}},
			},
		}
		if with2 {
			d.Resources = append(d.Resources, &domain.BankResource{Code: "0002", Description: "CIMENTO", Unit: "KG", Type: domain.TypeMaterial, Prices: domain.PriceLine{PND: dec("0.83"), PD: dec("0.83")}})
		}
		return d
	}
	if _, err := svc.ImportEditions(ctx, []app.EditionData{ed("08/2026", "120.00", true), ed("09/2026", "130.00", false)}); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, st: st, speed: speed, svc: svc}
	f.a = f.principal("Alfa", "a@alfa.com")
	f.b = f.principal("Beta", "b@beta.com")
	return f
}

func (f *fixture) principal(company, email string) domain.Principal {
	f.t.Helper()
	nu, err := f.svc.AddUser(ctx, app.NewUserInput{Company: company, Email: email})
	if err != nil {
		f.t.Fatal(err)
	}
	s, err := f.svc.Authenticate(ctx, email, nu.SecretToken)
	if err != nil {
		f.t.Fatal(err)
	}
	p, err := f.svc.Authorize(ctx, s.Token)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if domain.ErrorCode(err) != code {
		t.Fatalf("err = %v (code %q), want code %q", err, domain.ErrorCode(err), code)
	}
}

func wantField(t *testing.T, err error, field string) {
	t.Helper()
	wantCode(t, err, domain.EINVALID)
	for _, f := range domain.ErrorFields(err) {
		if f.Field == field {
			return
		}
	}
	t.Fatalf("err = %v, want a field error on %s", err, field)
}

func (f *fixture) resource(p domain.Principal, code, price string) *domain.Resource {
	f.t.Helper()
	r, err := f.svc.CreateResource(ctx, p, app.ResourceInput{
		Code: code, Description: "Recurso " + code, Type: domain.TypeMaterial, Unit: "UN", Status: true,
		Locals: map[string]domain.PriceLine{"MG": {PND: dec(price), PD: dec(price), PNDI: dec(price), PDI: dec(price)}},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func (f *fixture) composition(p domain.Principal, code string) *domain.PricedComposition {
	f.t.Helper()
	c, err := f.svc.CreateComposition(ctx, p, app.CompositionInput{Code: code, Description: "Composição " + code, Unit: "M2", State: "MG"})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

func sinapi(month string) app.BankInput {
	return app.BankInput{Name: "sinapi", State: "MG", Month: month}
}

func TestAuthentication(t *testing.T) {
	f := newFixture(t)
	nu, err := f.svc.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "c@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	if nu.Company.ID != f.a.CompanyID {
		t.Errorf("a second user of Alfa got company %s, want %s", nu.Company.ID, f.a.CompanyID)
	}
	_, err = f.svc.Authenticate(ctx, "c@alfa.com", nu.SecretToken+"x")
	wantCode(t, err, domain.EUNAUTHORIZED)
	_, err2 := f.svc.Authenticate(ctx, "nobody@alfa.com", nu.SecretToken)
	if err.Error() != err2.Error() {
		t.Errorf("a wrong token and an unknown e-mail answer differently: %q vs %q", err, err2)
	}
	s, err := f.svc.Authenticate(ctx, " C@ALFA.com ", nu.SecretToken)
	if err != nil {
		t.Fatalf("e-mail is not normalised: %v", err)
	}
	if _, err := f.svc.Authorize(ctx, s.Token); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetUserDisabled(ctx, "c@alfa.com", true); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Authorize(ctx, s.Token)
	wantCode(t, err, domain.EUNAUTHORIZED)
	_, err = f.svc.Authenticate(ctx, "c@alfa.com", nu.SecretToken)
	wantCode(t, err, domain.EUNAUTHORIZED)
}

func TestCompanyIsolation(t *testing.T) {
	f := newFixture(t)
	r := f.resource(f.a, "001", "10")
	c := f.composition(f.a, "C1")
	g, err := f.svc.CreateGroup(ctx, f.a, app.GroupInput{Description: "Alvenaria"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Resource(ctx, f.b, r.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.UpdateResource(ctx, f.b, r.ID, app.ResourcePatch{})
	wantCode(t, err, domain.ENOTFOUND)
	wantCode(t, f.svc.DeleteResource(ctx, f.b, r.ID), domain.ENOTFOUND)
	_, err = f.svc.Composition(ctx, f.b, c.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.AddItems(ctx, f.b, c.ID, []app.ItemInput{{Bank: "MYBASE", Code: "001", Quantity: dec("1")}})
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.Group(ctx, f.b, g.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.ResourceByCode(ctx, f.b, "001")
	wantCode(t, err, domain.ENOTFOUND)
	// B may not file its own resource under A's group.
	_, err = f.svc.CreateResource(ctx, f.b, app.ResourceInput{GroupID: g.ID, Code: "X", Description: "x", Type: 4, Unit: "UN"})
	wantField(t, err, "/group_id")
	for _, list := range []func() int{
		func() int { _, n, _ := f.svc.Resources(ctx, f.b, app.ListQuery{}); return n },
		func() int { _, n, _ := f.svc.Compositions(ctx, f.b, app.ListQuery{}); return n },
		func() int { _, n, _ := f.svc.Groups(ctx, f.b, app.ListQuery{}); return n },
	} {
		if n := list(); n != 0 {
			t.Errorf("company B sees %d of A's records", n)
		}
	}
	// The same code is free in another company.
	f.resource(f.b, "001", "11")
}

func TestUniqueCodes(t *testing.T) {
	f := newFixture(t)
	f.resource(f.a, "001", "10")
	_, err := f.svc.CreateResource(ctx, f.a, app.ResourceInput{Code: "001", Description: "d", Type: 4, Unit: "UN"})
	wantField(t, err, "/code")
	f.composition(f.a, "C1")
	_, err = f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: "C1", Description: "d", Unit: "M2", State: "MG"})
	wantField(t, err, "/code")
	if _, err := f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: "C1", Description: "d", Unit: "M2", State: "SP"}); err != nil {
		t.Errorf("the same composition code in another state: %v", err)
	}
	_, err = f.svc.CreateGroup(ctx, f.a, app.GroupInput{Description: "G"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreateGroup(ctx, f.a, app.GroupInput{Description: "g"})
	wantField(t, err, "/description")
}

func TestDefaultRounding(t *testing.T) {
	f := newFixture(t)
	c := f.composition(f.a, "C1")
	if c.Rounding != domain.Truncate2 {
		t.Errorf("SINAPI-model default = %d, want 2 (truncate to 2 places, as Caixa)", c.Rounding)
	}
	s, err := f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: "S1", Description: "d", Unit: "M3", State: "AL", IsSicro: true, TeamProduction: dec("10")})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rounding != domain.Truncate4 {
		t.Errorf("SICRO-model default = %d, want 3", s.Rounding)
	}
}

func TestAddItemsIsAtomicAndIdempotent(t *testing.T) {
	f := newFixture(t)
	c := f.composition(f.a, "C1")
	if _, err := f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{sinapi("08/2026")}); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{
		{Bank: "SINAPI", Code: "88309", Quantity: dec("1.1152")},
		{Bank: "SINAPI", Code: "99999", Quantity: dec("1")},
		{Bank: "ORSE", Code: "1", Quantity: dec("1")},
		{Bank: "SINAPI", Code: "0001", Quantity: dec("0")},
	})
	wantField(t, err, "/items/1/code")
	wantField(t, err, "/items/2/bank")
	wantField(t, err, "/items/3/quantity")
	got, _ := f.svc.Composition(ctx, f.a, c.ID)
	if len(got.Items) != 0 {
		t.Fatalf("a failed add_items left %d items behind", len(got.Items))
	}
	add := []app.ItemInput{
		{Bank: "SINAPI", Code: "88309", Quantity: dec("1.1152")},
		{Bank: "SINAPI", Code: "0001", Quantity: dec("0.0175")},
	}
	first, err := f.svc.AddItems(ctx, f.a, c.ID, add)
	if err != nil {
		t.Fatal(err)
	}
	// 1.1152 × 33.62 = 37.493024 → 37.49; 0.0175 × 120 = 2.1 → 2.10.
	if !first.Prices.PND.Equal(dec("39.59")) {
		t.Errorf("pnd = %s, want 39.59", first.Prices.PND)
	}
	again, err := f.svc.AddItems(ctx, f.a, c.ID, add)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Items) != 2 || !again.Prices.PND.Equal(first.Prices.PND) {
		t.Errorf("retrying add_items changed the composition: %d items, pnd %s", len(again.Items), again.Prices.PND)
	}
	// Adding an item already there sets its quantity.
	set, _ := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "88309", Quantity: dec("2")}})
	if len(set.Items) != 2 || !set.Items[0].Quantity.Equal(dec("2")) {
		t.Errorf("re-adding did not set the quantity: %+v", set.Items[0].Item)
	}
	_, err = f.svc.AddItems(ctx, f.a, c.ID, make([]app.ItemInput, 11))
	wantField(t, err, "/items")
}

func TestKindResolutionPrefersCompositions(t *testing.T) {
	f := newFixture(t)
	c := f.composition(f.a, "C1")
	f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{sinapi("08/2026")})
	got, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "7777", Quantity: dec("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Items[0].Kind != domain.KindComposition || !got.Prices.PND.Equal(dec("2")) {
		t.Errorf("code in both: kind %s, pnd %s; want the composition (2)", got.Items[0].Kind, got.Prices.PND)
	}
	got, _ = f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "7777", Kind: domain.KindResource, Quantity: dec("1")}})
	if len(got.Items) != 2 || !got.Prices.PND.Equal(dec("3")) {
		t.Errorf("an explicit resource kind: %d items, pnd %s; want both lines, 3", len(got.Items), got.Prices.PND)
	}
}

func TestNestingCyclesAndFreshPrices(t *testing.T) {
	f := newFixture(t)
	r := f.resource(f.a, "R1", "10.555")
	inner := f.composition(f.a, "INNER")
	outer := f.composition(f.a, "OUTER")
	if _, err := f.svc.AddItems(ctx, f.a, inner.ID, []app.ItemInput{{Bank: "MYBASE", Code: "R1", Quantity: dec("2")}}); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.AddItems(ctx, f.a, outer.ID, []app.ItemInput{{Kind: domain.KindComposition, Code: "INNER", Quantity: dec("1.5")}})
	if err != nil {
		t.Fatal(err)
	}
	// inner = trunc2(2 × 10.555) = 21.11; outer = trunc2(1.5 × 21.11 = 31.665) = 31.66.
	if !got.Prices.PND.Equal(dec("31.66")) {
		t.Fatalf("outer pnd = %s, want 31.66", got.Prices.PND)
	}
	// A cycle is refused and changes nothing.
	_, err = f.svc.AddItems(ctx, f.a, inner.ID, []app.ItemInput{{Bank: "MYBASE", Code: "OUTER", Quantity: dec("1")}})
	wantCode(t, err, domain.ECONFLICT)
	_, err = f.svc.AddItems(ctx, f.a, inner.ID, []app.ItemInput{{Bank: "MYBASE", Code: "INNER", Quantity: dec("1")}})
	wantCode(t, err, domain.ECONFLICT)
	if in, _ := f.svc.Composition(ctx, f.a, inner.ID); len(in.Items) != 1 {
		t.Errorf("a refused cycle left %d items", len(in.Items))
	}
	// A price change shows in every composition above, on the next read.
	price := map[string]domain.PriceLine{"MG": {PND: dec("20"), PD: dec("20")}}
	if _, err := f.svc.UpdateResource(ctx, f.a, r.ID, app.ResourcePatch{Locals: price}); err != nil {
		t.Fatal(err)
	}
	got, _ = f.svc.Composition(ctx, f.a, outer.ID)
	if !got.Prices.PND.Equal(dec("60")) {
		t.Errorf("outer pnd after the price change = %s, want 60", got.Prices.PND)
	}
	// Used records cannot be deleted or recoded.
	wantCode(t, f.svc.DeleteResource(ctx, f.a, r.ID), domain.ECONFLICT)
	wantCode(t, f.svc.DeleteComposition(ctx, f.a, inner.ID), domain.ECONFLICT)
	code := "R2"
	_, err = f.svc.UpdateResource(ctx, f.a, r.ID, app.ResourcePatch{Code: &code})
	wantCode(t, err, domain.ECONFLICT)
	// Once unused, they can.
	if _, err := f.svc.RemoveItems(ctx, f.a, outer.ID, []app.ItemRef{{Code: "INNER"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteComposition(ctx, f.a, inner.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteResource(ctx, f.a, r.ID); err != nil {
		t.Fatal(err)
	}
}

func TestOwnResourceNeedsAPriceInTheState(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.CreateResource(ctx, f.a, app.ResourceInput{Code: "SP1", Description: "d", Type: 4, Unit: "UN",
		Locals: map[string]domain.PriceLine{"SP": {PND: dec("1")}}}); err != nil {
		t.Fatal(err)
	}
	c := f.composition(f.a, "C1")
	_, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "MYBASE", Code: "SP1", Quantity: dec("1")}})
	wantField(t, err, "/items/0/code")
}

func TestAddBanksReprices(t *testing.T) {
	f := newFixture(t)
	c := f.composition(f.a, "C1")
	_, err := f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{{Name: "SINAPI", State: "MG", Month: "13/2026"}, {Name: "SINAPI", State: "SP", Month: "08/2026"}})
	wantField(t, err, "/banks/0/version")
	wantField(t, err, "/banks/1")
	f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{sinapi("08/2026")})
	if _, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "0001", Quantity: dec("1")}, {Bank: "SINAPI", Code: "0002", Quantity: dec("1")}}); err != nil {
		t.Fatal(err)
	}
	// 09/2026 lacks 0002: refused, nothing changes.
	_, err = f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{sinapi("09/2026")})
	wantField(t, err, "/banks/0")
	got, _ := f.svc.Composition(ctx, f.a, c.ID)
	if got.Banks[0].Month != "08/2026" || !got.Prices.PND.Equal(dec("120.83")) {
		t.Errorf("after a refused change: edition %s, pnd %s; want 08/2026, 120.83", got.Banks[0].Month, got.Prices.PND)
	}
	f.svc.RemoveItems(ctx, f.a, c.ID, []app.ItemRef{{Bank: "SINAPI", Code: "0002"}})
	got, err = f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{sinapi("09/2026")})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Prices.PND.Equal(dec("130")) {
		t.Errorf("repriced pnd = %s, want 130 (the 09/2026 price)", got.Prices.PND)
	}
}

func TestGroupWithMembersCannotBeDeleted(t *testing.T) {
	f := newFixture(t)
	g, _ := f.svc.CreateGroup(ctx, f.a, app.GroupInput{Description: "Alvenaria"})
	r, err := f.svc.CreateResource(ctx, f.a, app.ResourceInput{GroupID: g.ID, Code: "1", Description: "d", Type: 4, Unit: "UN"})
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.svc.DeleteGroup(ctx, f.a, g.ID), domain.ECONFLICT)
	f.svc.DeleteResource(ctx, f.a, r.ID)
	if err := f.svc.DeleteGroup(ctx, f.a, g.ID); err != nil {
		t.Fatal(err)
	}
}

func TestImportMergesRegimesAndIsIdempotent(t *testing.T) {
	f := newFixture(t)
	nd := app.EditionData{
		Edition:   domain.Edition{Bank: "SINAPI", State: "PE", Month: "10/2024", Regimes: []domain.Regime{domain.NaoDesonerado}},
		Resources: []*domain.BankResource{{Code: "1", Description: "PEDREIRO", Unit: "H", Type: 3, Prices: domain.PriceLine{PND: dec("25"), PNDI: dec("25")}}},
	}
	d := app.EditionData{
		Edition:   domain.Edition{Bank: "SINAPI", State: "PE", Month: "10/2024", Regimes: []domain.Regime{domain.Desonerado}},
		Resources: []*domain.BankResource{{Code: "1", Description: "PEDREIRO", Unit: "H", Type: 3, Prices: domain.PriceLine{PD: dec("23"), PDI: dec("23")}}},
	}
	for i := 0; i < 2; i++ {
		if _, err := f.svc.ImportEditions(ctx, []app.EditionData{nd, d}); err != nil {
			t.Fatal(err)
		}
	}
	eds, _, _ := f.svc.Editions(ctx, app.ListQuery{})
	var pe *domain.Edition
	for _, e := range eds {
		if e.State == "PE" {
			pe = e
		}
	}
	if pe == nil || pe.Resources != 1 || len(pe.Regimes) != 2 {
		t.Fatalf("edition after two imports: %+v", pe)
	}
	c, _ := f.svc.CreateComposition(ctx, f.a, app.CompositionInput{Code: "X", Description: "d", Unit: "H", State: "PE"})
	f.svc.AddBanks(ctx, f.a, c.ID, []app.BankInput{{Name: "SINAPI", State: "PE", Month: "10/2024"}})
	got, err := f.svc.AddItems(ctx, f.a, c.ID, []app.ItemInput{{Bank: "SINAPI", Code: "1", Quantity: dec("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(domain.UnitPrice{PND: dec("25"), PD: dec("23")}, got.Prices.Unit(),
		cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("both regimes after separate imports (-want +got):\n%s", diff)
	}
	// A bad edition in a batch leaves nothing behind.
	bad := nd
	bad.Edition.Month = "2024-10"
	bad.Edition.State = "BA"
	_, err = f.svc.ImportEditions(ctx, []app.EditionData{{Edition: domain.Edition{Bank: "SINAPI", State: "BA", Month: "10/2024", Regimes: []domain.Regime{0}}}, bad})
	if err == nil {
		t.Fatal("a bad month was imported")
	}
	eds2, _, _ := f.svc.Editions(ctx, app.ListQuery{})
	if len(eds2) != len(eds) {
		t.Errorf("a failed import left %d editions, want %d", len(eds2), len(eds))
	}
}

func TestNewIDsAreOrderedAndURLSafe(t *testing.T) {
	f := newFixture(t)
	// The pattern clients of the original API validate ids with.
	objectID := regexp.MustCompile(`^[a-f\d]{24}$`)
	var prev string
	for i := 0; i < 50; i++ {
		now := f.svc.Now()
		id := app.NewID(now)
		if !objectID.MatchString(id) || id <= prev {
			t.Fatalf("id %q after %q: want 24 lower-case hex characters, increasing", id, prev)
		}
		// The first 4 bytes are the creation time in seconds, big-endian.
		sec, err := strconv.ParseUint(id[:8], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		if d := int64(sec) - now.Unix(); d < 0 || d > 1 {
			t.Fatalf("id %q carries second %d, created at %d", id, sec, now.Unix())
		}
		prev = id
	}
	// A clock that steps back does not break the order.
	back := app.NewID(f.svc.Now().Add(-time.Hour))
	if back <= prev {
		t.Errorf("id %q made with an earlier clock sorts before %q", back, prev)
	}
}

// TestLoginInTheMillisecondOfARevocation: tokens carry their issue time to
// the millisecond and a token issued at or before the revocation fails. A
// token issued before a revocation in the same millisecond fails; a login in
// that same millisecond after the revocation gets a token that works.
func TestLoginInTheMillisecondOfARevocation(t *testing.T) {
	f := newFixture(t)
	nu, err := f.svc.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "r@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	// Near the real time, since the token check reads the real clock for
	// expiry, and a few milliseconds behind it, so that no issue time falls
	// after the real clock's second when the test runs at a second's end
	// (the check refuses a token issued in the future).
	clock := time.Now().Truncate(time.Millisecond).Add(-5*time.Millisecond + 100*time.Microsecond)
	f.svc.Now = func() time.Time { return clock }
	before, err := f.svc.Authenticate(ctx, "r@alfa.com", nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(400 * time.Microsecond) // .5 ms in: the same millisecond
	if n, err := f.svc.RevokeTokens(ctx, app.UserSelector{Email: "r@alfa.com"}); err != nil || n != 1 {
		t.Fatalf("revoke: %d, %v", n, err)
	}
	clock = clock.Add(300 * time.Microsecond) // .8 ms in: still the same millisecond
	after, err := f.svc.Authenticate(ctx, "r@alfa.com", nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Authorize(ctx, before.Token); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Errorf("a token issued before the revocation: %v, want EUNAUTHORIZED", err)
	}
	if _, err := f.svc.Authorize(ctx, after.Token); err != nil {
		t.Errorf("a token issued after the revocation, in its millisecond: %v, want it to work", err)
	}
}

// TestAuthorizeReadsTheGeneration: the speed layer's Authorize gives the
// caller and its company's write generation from one transaction, the same
// generation Generation reads, and a write moves it.
func TestAuthorizeReadsTheGeneration(t *testing.T) {
	f := newFixture(t)
	nu, err := f.svc.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "g@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.svc.Authenticate(ctx, "g@alfa.com", nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	p, g1, err := f.speed.Authorize(ctx, f.svc, s.Token, "")
	if err != nil {
		t.Fatal(err)
	}
	if want, err := f.speed.Generation(ctx, p.CompanyID, ""); err != nil || want != g1 {
		t.Fatalf("Authorize generation %+v, Generation %+v (%v)", g1, want, err)
	}
	if _, err := f.svc.CreateGroup(ctx, p, app.GroupInput{Description: "Nova"}); err != nil {
		t.Fatal(err)
	}
	_, g2, err := f.speed.Authorize(ctx, f.svc, s.Token, "")
	if err != nil {
		t.Fatal(err)
	}
	if g2.Company <= g1.Company {
		t.Errorf("after a write the company generation is %d, was %d", g2.Company, g1.Company)
	}
}

// TestUserKeptAcrossCompanyWrites: the caller's user, once read, is kept
// while no user is written, whatever the company writes (its data's
// generation moves at every write); any user written (here another user
// added) makes the next authorization read it again. The user is changed
// behind the Service's back to tell a read from a kept one.
func TestUserKeptAcrossCompanyWrites(t *testing.T) {
	f := newFixture(t)
	nu, err := f.svc.AddUser(ctx, app.NewUserInput{Company: "Alfa", Email: "k@alfa.com"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.svc.Authenticate(ctx, "k@alfa.com", nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := f.speed.Authorize(ctx, f.svc, s.Token, "") // read and kept
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateGroup(ctx, p, app.GroupInput{Description: "Nova"}); err != nil {
		t.Fatal(err)
	}
	// Disabled in the store without a user write through the Service: no
	// generation moves.
	err = f.st.Update(ctx, func(tx app.Tx) error {
		u, err := tx.User(p.UserID)
		if err != nil {
			return err
		}
		u.Disabled = true
		return tx.PutUser(u)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.speed.Authorize(ctx, f.svc, s.Token, ""); err != nil {
		t.Fatalf("after a company write, the kept user: %v (read again)", err)
	}
	if _, _, err := f.speed.Authorize(ctx, f.svc, s.Token, ""); err != nil {
		t.Fatalf("a read after a company write, the kept user: %v (read again)", err)
	}
	if _, err := f.svc.AddUser(ctx, app.NewUserInput{Company: "Beta", Email: "other@beta.com"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.speed.Authorize(ctx, f.svc, s.Token, ""); domain.ErrorCode(err) != domain.EUNAUTHORIZED {
		t.Fatalf("after a user write, the user read again (disabled): %v, want EUNAUTHORIZED", err)
	}
}
