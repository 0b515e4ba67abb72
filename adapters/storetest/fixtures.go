package storetest

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// IDs of the fixtures. Any string is an id to a store; these look like the
// ULIDs earlier versions made and sort in the order of their last letter.
const (
	coA = "01HZXCO000000000000000000A"
	coB = "01HZXCO000000000000000000B"
	coC = "01HZXCO000000000000000000C"
	coZ = "01HZXCO000000000000000000Z" // never stored

	deA1 = "01HZXDE00000000000000000A1"
	deA2 = "01HZXDE00000000000000000A2"
	deB1 = "01HZXDE00000000000000000B1"

	usA1 = "01HZXUS00000000000000000A1"
	usA2 = "01HZXUS00000000000000000A2"
	usB1 = "01HZXUS00000000000000000B1"

	grA1 = "01HZXGR00000000000000000A1"
	grA2 = "01HZXGR00000000000000000A2"
	grA3 = "01HZXGR00000000000000000A3"
	grB1 = "01HZXGR00000000000000000B1"

	reA1 = "01HZXRE00000000000000000A1"
	reA2 = "01HZXRE00000000000000000A2"
	reA3 = "01HZXRE00000000000000000A3"
	reB1 = "01HZXRE00000000000000000B1"

	cpA1 = "01HZXCP00000000000000000A1"
	cpA2 = "01HZXCP00000000000000000A2"
	cpA3 = "01HZXCP00000000000000000A3"
	cpB1 = "01HZXCP00000000000000000B1"

	buA1 = "01HZXBU00000000000000000A1"
	buA2 = "01HZXBU00000000000000000A2"
	buA3 = "01HZXBU00000000000000000A3"
	buB1 = "01HZXBU00000000000000000B1"
)

var (
	// tUTC has nanoseconds; tBRT is in another zone. Stores may hand times
	// back in UTC: they are compared with Equal.
	tUTC = time.Date(2026, 8, 14, 13, 45, 30, 123456789, time.UTC)
	tBRT = time.Date(2024, 1, 31, 21, 0, 0, 1, time.FixedZone("BRT", -3*60*60))
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func newCompany(id, name string) *domain.Company {
	return &domain.Company{ID: id, Name: name, CreatedAt: tUTC}
}

func newDepartment(id, companyID, name string) *domain.Department {
	return &domain.Department{ID: id, CompanyID: companyID, Name: name, CreatedAt: tBRT}
}

func newUser(id, companyID, departmentID, email string) *domain.User {
	return &domain.User{
		ID: id, CompanyID: companyID, DepartmentID: departmentID, Email: email,
		Name:       "Usuária " + email,
		SecretHash: []byte{0x00, 0x9f, 0xff, 0x10, byte(len(email))},
		CreatedAt:  tUTC,
	}
}

func newGroup(id, companyID, description string) *domain.Group {
	return &domain.Group{
		ID: id, CompanyID: companyID, UserID: usA1, DepartmentID: deA1,
		Description: description, CreatedAt: tUTC,
	}
}

func newResource(id, companyID, code string) *domain.Resource {
	return &domain.Resource{
		ID: id, CompanyID: companyID, UserID: usA1, DepartmentID: deA1, GroupID: grA1,
		Code: code, SecondCode: "SC " + code, Description: "Cimento Portland CP II-32 (" + code + ")",
		Type: domain.TypeMaterial, Unit: "KG", IsSicro: false, Status: true, Note: "preço de referência — ação",
		Locals: map[string]domain.PriceLine{
			"MG": {PND: dec("0.0000001"), PD: dec("12345678.1234"), PNDI: dec("1.50"), PDI: dec("0")},
			"SP": {PND: dec("0.89"), PD: dec("0.85"), PNDI: dec("0.89"), PDI: dec("0.85")},
		},
		CreatedAt: tBRT,
	}
}

// yes and no are the regimes a composition's bank may record (v1
// with_labor_charges), by address.
var yes, no = true, false

func newComposition(id, companyID, code, state string) *domain.Composition {
	return &domain.Composition{
		ID: id, CompanyID: companyID, UserID: usA1, DepartmentID: deA1, GroupID: grA1,
		Code: code, SecondCode: "SC " + code, Description: "Alvenaria de vedação (" + code + ")",
		Type: "PARE", Unit: "M2", State: state, IsSicro: true, Labor: true, Rounding: domain.Truncate4,
		Note:           "nota",
		TeamProduction: dec("12.5"), FIC: dec("0.0123456"), LaborAddition: dec("15.5"),
		Banks: []domain.BankRef{
			{Name: "SICRO3", State: "AL", Month: "01/2024", Report: true, AskedRegion: "MACEIO", WithLaborCharges: &no},
			{Name: "SINAPI", State: "MG", Month: "08/2026", Region: "NORTE", WithLaborCharges: &yes},
		},
		Items: []domain.Item{
			{Bank: "SINAPI", Code: "00001", Kind: domain.KindResource, Quantity: dec("0.0000001")},
			{Bank: domain.BankMyBase, Code: "R-1", Kind: domain.KindResource, Quantity: dec("12345678.1234"),
				Utilization: decimal.NewNullDecimal(dec("0.75"))},
			{Bank: "SICRO3", Code: "0308001", Kind: domain.KindComposition, Quantity: dec("2.5000000")},
		},
		CreatedAt: tUTC,
	}
}

// newBudget is a budget with a tree three levels deep, decimals that must
// keep every digit and both times set.
func newBudget(id, companyID, code string) *domain.Budget {
	return &domain.Budget{
		ID: id, CompanyID: companyID, UserID: usA1, DepartmentID: deA1,
		Code: code, Description: "Residência unifamiliar (" + code + ")", Client: "Maria — ação",
		State: "MG", Desonerado: true, BDI: dec("25.1234"),
		BDIMode: domain.BDIOnFinalTotal, Rounding: domain.BudgetRound,
		Banks: []domain.BankRef{
			{Name: "SICRO3", State: "AL", Month: "01/2024", Report: true},
			{Name: "SINAPI", State: "MG", Month: "08/2026", Region: "NORTE"},
		},
		Items: []domain.BudgetNode{
			{ID: "n1", Kind: domain.NodeStage, Description: "Fundação", Items: []domain.BudgetNode{
				{ID: "n2", Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89306", Quantity: dec("120.50")},
				{ID: "n3", Kind: domain.NodeStage, Description: "Blocos", Items: []domain.BudgetNode{
					{ID: "n4", Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("0.0000001")},
				}},
				{ID: "n6", Kind: domain.NodeStage, Description: "Vazia"},
			}},
			{ID: "n5", Kind: domain.NodeComposition, Bank: domain.BankMyBase, Code: "C-1", Quantity: dec("12345678.1234")},
		},
		NodeSeq:   7,
		CreatedAt: tBRT,
		UpdatedAt: tUTC,
	}
}

func newEdition(bank, state, month string) *domain.Edition {
	return &domain.Edition{
		Bank: bank, State: state, Month: month,
		Regimes:   []domain.Regime{domain.NaoDesonerado, domain.Desonerado},
		Resources: 4812, Compositions: 7310, Structures: 7001,
		Source:     "sample/" + bank,
		ImportedAt: tBRT,
	}
}

func newBankResource(code, price string) *domain.BankResource {
	return &domain.BankResource{
		Code: code, Description: "Areia média (" + code + ")", Unit: "M3", Type: domain.TypeMaterial,
		Prices: domain.PriceLine{PND: dec(price), PD: dec("12345678.1234"), PNDI: dec("0.0000001"), PDI: dec("99.99")},
	}
}

func newBankComposition(code, cost string) *domain.BankComposition {
	return &domain.BankComposition{
		Code: code, Description: "Concreto fck 25 MPa (" + code + ")", Unit: "M3", Class: "FUES",
		Cost: domain.UnitPrice{PND: dec(cost), PD: dec("0.0000001")},
		Items: []domain.StructureItem{
			{Kind: domain.KindResource, Code: "00001", Coefficient: dec("0.0000001")},
			{Kind: domain.KindComposition, Code: "88316", Coefficient: dec("12345678.1234")},
		},
	}
}

// Edition keys of the world's editions.
var (
	edSinapiAug = newEdition("SINAPI", "MG", "08/2026").Key()
	edSinapiJul = newEdition("SINAPI", "MG", "07/2026").Key()
	edSicroAL   = newEdition("SICRO3", "AL", "01/2024").Key()
	edOrseSE    = newEdition("ORSE", "SE", "01/2025").Key() // made by mutate
)

// world is one of every kind of record, in two companies, with the cases the
// indexes must tell apart: the same department name, resource code and
// composition code in two companies, the same composition code in two
// states, the same bank code in two editions.
type world struct {
	settings         map[string][]byte
	companies        []*domain.Company
	departments      []*domain.Department
	users            []*domain.User
	groups           []*domain.Group
	resources        []*domain.Resource
	compositions     []*domain.Composition
	editions         []*domain.Edition
	bankResources    map[string][]*domain.BankResource // by edition key
	bankCompositions map[string][]*domain.BankComposition
	budgets          []*domain.Budget
}

func newWorld() *world {
	return &world{
		settings: map[string][]byte{
			"signing-key": {0x00, 0x01, 0xfe, 0xff},
			"counter":     []byte("7"),
		},
		companies: []*domain.Company{
			newCompany(coB, "Construtora Beta"), // stored out of ID order on purpose
			newCompany(coA, "Construtora Alfa"),
		},
		departments: []*domain.Department{
			newDepartment(deA1, coA, "Engenharia"),
			newDepartment(deB1, coB, "Engenharia"),
		},
		users: []*domain.User{
			newUser(usA1, coA, deA1, "ana@alfa.example"),
			newUser(usB1, coB, deB1, "bia@beta.example"),
		},
		groups: []*domain.Group{
			newGroup(grB1, coB, "Fundações"),
			newGroup(grA2, coA, "Estruturas"),
			newGroup(grA1, coA, "Alvenaria"),
		},
		resources: []*domain.Resource{
			newResource(reA2, coA, "R-2"),
			newResource(reB1, coB, "R-1"),
			newResource(reA1, coA, "R-1"),
		},
		compositions: []*domain.Composition{
			newComposition(cpA2, coA, "C-1", "SP"),
			newComposition(cpB1, coB, "C-1", "MG"),
			newComposition(cpA1, coA, "C-1", "MG"),
		},
		editions: []*domain.Edition{
			newEdition("SINAPI", "MG", "08/2026"),
			newEdition("SICRO3", "AL", "01/2024"),
			newEdition("SINAPI", "MG", "07/2026"),
		},
		bankResources: map[string][]*domain.BankResource{
			edSinapiAug: {newBankResource("00001", "10.01"), newBankResource("00002", "20.02")},
			edSinapiJul: {newBankResource("00001", "9.99")},
		},
		bankCompositions: map[string][]*domain.BankComposition{
			edSinapiAug: {newBankComposition("87292", "401.23")},
			edSicroAL:   {newBankComposition("0308001", "0.0000001")},
		},
		budgets: []*domain.Budget{
			newBudget(buB1, coB, "ORC-1"),
			newBudget(buA2, coA, "ORC-2"),
			newBudget(buA1, coA, "ORC-1"),
		},
	}
}

// put stores every record of the world.
func (w *world) put(tx app.Tx) error {
	for k, v := range w.settings {
		if err := tx.PutSetting(k, v); err != nil {
			return err
		}
	}
	for _, c := range w.companies {
		if err := tx.PutCompany(c); err != nil {
			return err
		}
	}
	for _, d := range w.departments {
		if err := tx.PutDepartment(d); err != nil {
			return err
		}
	}
	for _, u := range w.users {
		if err := tx.PutUser(u); err != nil {
			return err
		}
	}
	for _, g := range w.groups {
		if err := tx.PutGroup(g); err != nil {
			return err
		}
	}
	for _, r := range w.resources {
		if err := tx.PutResource(r); err != nil {
			return err
		}
	}
	for _, c := range w.compositions {
		if err := tx.PutComposition(c); err != nil {
			return err
		}
	}
	for _, e := range w.editions {
		if err := tx.PutEdition(e); err != nil {
			return err
		}
	}
	for k, rs := range w.bankResources {
		for _, r := range rs {
			if err := tx.PutBankResource(k, r); err != nil {
				return err
			}
		}
	}
	for k, cs := range w.bankCompositions {
		for _, c := range cs {
			if err := tx.PutBankComposition(k, c); err != nil {
				return err
			}
		}
	}
	for _, b := range w.budgets {
		if err := tx.PutBudget(b); err != nil {
			return err
		}
	}
	return nil
}

// mutate changes every kind of record of the world: it renames, re-codes,
// moves to another state, deletes and creates. Rollback tests run it and
// fail the transaction; reopen tests commit it.
func mutate(tx app.Tx) error {
	steps := []func() error{
		func() error { return tx.PutSetting("counter", []byte("8")) },
		func() error { return tx.PutSetting("extra", []byte("x")) },
		func() error { return tx.PutCompany(newCompany(coA, "Construtora Alfa S/A")) },
		func() error { return tx.PutCompany(newCompany(coC, "Construtora Gama")) },
		func() error { return tx.PutDepartment(newDepartment(deA1, coA, "Obras")) },
		func() error { return tx.PutDepartment(newDepartment(deA2, coA, "Orçamentos")) },
		func() error { return tx.PutUser(newUser(usA1, coA, deA1, "ana@alfa2.example")) },
		func() error { return tx.PutUser(newUser(usA2, coA, deA2, "caio@alfa.example")) },
		func() error { return tx.PutGroup(newGroup(grA1, coA, "Alvenaria e vedação")) },
		func() error { return tx.DeleteGroup(grA2) },
		func() error { return tx.PutGroup(newGroup(grA3, coA, "Coberturas")) },
		func() error { return tx.PutResource(newResource(reA1, coA, "R-1X")) },
		func() error { return tx.DeleteResource(reA2) },
		func() error { return tx.PutResource(newResource(reA3, coA, "R-3")) },
		func() error { return tx.PutComposition(newComposition(cpA1, coA, "C-1", "RJ")) },
		func() error { return tx.DeleteComposition(cpA2) },
		func() error { return tx.PutComposition(newComposition(cpA3, coA, "C-3", "MG")) },
		func() error {
			e := newEdition("SINAPI", "MG", "08/2026")
			e.Resources, e.Regimes = 1, []domain.Regime{domain.Desonerado}
			return tx.PutEdition(e)
		},
		func() error { return tx.PutEdition(newEdition("ORSE", "SE", "01/2025")) },
		func() error { return tx.PutBankResource(edSinapiAug, newBankResource("00001", "11.11")) },
		func() error { return tx.PutBankResource(edSinapiAug, newBankResource("00003", "30.03")) },
		func() error { return tx.PutBankComposition(edSinapiAug, newBankComposition("87292", "1")) },
		func() error { return tx.PutBankComposition(edOrseSE, newBankComposition("87293", "2")) },
		func() error { return tx.PutBudget(newBudget(buA1, coA, "ORC-1X")) },
		func() error { return tx.DeleteBudget(buA2) },
		func() error { return tx.PutBudget(newBudget(buA3, coA, "ORC-3")) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("mutate step %d: %w", i, err)
		}
	}
	return nil
}

// probe is one read whose result a dump records.
type probe struct {
	name string
	get  func(tx app.Tx) (any, error)
}

// probes reads everything the world and mutate store: every record by id
// and by each index, under the keys before and after mutate, every list,
// the user count and the settings.
func probes() []probe {
	p := []probe{
		{"Setting(signing-key)", func(tx app.Tx) (any, error) { return tx.Setting("signing-key") }},
		{"Setting(counter)", func(tx app.Tx) (any, error) { return tx.Setting("counter") }},
		{"Setting(extra)", func(tx app.Tx) (any, error) { return tx.Setting("extra") }},
		{"CountUsers", func(tx app.Tx) (any, error) { return tx.CountUsers() }},
		{"Editions", func(tx app.Tx) (any, error) { return tx.Editions() }},
	}
	for _, id := range []string{coA, coB, coC} {
		p = append(p, probe{"Company(" + id + ")", func(tx app.Tx) (any, error) { return tx.Company(id) }})
	}
	for _, n := range []string{"Construtora Alfa", "Construtora Beta", "Construtora Alfa S/A", "Construtora Gama"} {
		p = append(p, probe{"CompanyByName(" + n + ")", func(tx app.Tx) (any, error) { return tx.CompanyByName(n) }})
	}
	for _, id := range []string{deA1, deA2, deB1} {
		p = append(p, probe{"Department(" + id + ")", func(tx app.Tx) (any, error) { return tx.Department(id) }})
	}
	for _, co := range []string{coA, coB} {
		for _, n := range []string{"Engenharia", "Obras", "Orçamentos"} {
			p = append(p, probe{"DepartmentByName(" + co + "," + n + ")", func(tx app.Tx) (any, error) { return tx.DepartmentByName(co, n) }})
		}
	}
	for _, id := range []string{usA1, usA2, usB1} {
		p = append(p, probe{"User(" + id + ")", func(tx app.Tx) (any, error) { return tx.User(id) }})
	}
	for _, e := range []string{"ana@alfa.example", "ana@alfa2.example", "caio@alfa.example", "bia@beta.example"} {
		p = append(p, probe{"UserByEmail(" + e + ")", func(tx app.Tx) (any, error) { return tx.UserByEmail(e) }})
	}
	for _, id := range []string{grA1, grA2, grA3, grB1} {
		p = append(p, probe{"Group(" + id + ")", func(tx app.Tx) (any, error) { return tx.Group(id) }})
	}
	for _, id := range []string{reA1, reA2, reA3, reB1} {
		p = append(p, probe{"Resource(" + id + ")", func(tx app.Tx) (any, error) { return tx.Resource(id) }})
	}
	for _, co := range []string{coA, coB} {
		for _, code := range []string{"R-1", "R-1X", "R-2", "R-3"} {
			p = append(p, probe{"ResourceByCode(" + co + "," + code + ")", func(tx app.Tx) (any, error) { return tx.ResourceByCode(co, code) }})
		}
	}
	for _, id := range []string{cpA1, cpA2, cpA3, cpB1} {
		p = append(p, probe{"Composition(" + id + ")", func(tx app.Tx) (any, error) { return tx.Composition(id) }})
	}
	for _, co := range []string{coA, coB} {
		for _, code := range []string{"C-1", "C-3"} {
			for _, st := range []string{"MG", "SP", "RJ"} {
				p = append(p, probe{"CompositionByCode(" + co + "," + code + "," + st + ")", func(tx app.Tx) (any, error) { return tx.CompositionByCode(co, code, st) }})
			}
		}
	}
	for _, id := range []string{buA1, buA2, buA3, buB1} {
		p = append(p, probe{"Budget(" + id + ")", func(tx app.Tx) (any, error) { return tx.Budget(id) }})
	}
	for _, co := range []string{coA, coB} {
		for _, code := range []string{"ORC-1", "ORC-1X", "ORC-2", "ORC-3"} {
			p = append(p, probe{"BudgetByCode(" + co + "," + code + ")", func(tx app.Tx) (any, error) { return tx.BudgetByCode(co, code) }})
		}
	}
	for _, co := range []string{coA, coB, coC, coZ} {
		p = append(p,
			probe{"Budgets(" + co + ")", func(tx app.Tx) (any, error) { return all(tx.Budgets(co, app.Query{})) }},
			probe{"Groups(" + co + ")", func(tx app.Tx) (any, error) { return all(tx.Groups(co, app.Query{})) }},
			probe{"Resources(" + co + ")", func(tx app.Tx) (any, error) { return all(tx.Resources(co, app.Query{})) }},
			probe{"Compositions(" + co + ")", func(tx app.Tx) (any, error) { return all(tx.Compositions(co, app.Query{})) }},
		)
	}
	for _, k := range []string{edSinapiAug, edSinapiJul, edSicroAL, edOrseSE} {
		p = append(p, probe{"Edition(" + k + ")", func(tx app.Tx) (any, error) { return tx.Edition(k) }})
		p = append(p,
			probe{"BankResources(" + k + ")", func(tx app.Tx) (any, error) { return tx.BankResources(k) }},
			probe{"BankCompositions(" + k + ")", func(tx app.Tx) (any, error) { return tx.BankCompositions(k) }},
		)
		for _, code := range []string{"00001", "00002", "00003"} {
			p = append(p, probe{"BankResource(" + k + "," + code + ")", func(tx app.Tx) (any, error) { return tx.BankResource(k, code) }})
		}
		for _, code := range []string{"87292", "87293", "0308001"} {
			p = append(p, probe{"BankComposition(" + k + "," + code + ")", func(tx app.Tx) (any, error) { return tx.BankComposition(k, code) }})
		}
	}
	return p
}

// dump runs every probe in one read transaction and returns each result, or
// "error: <code>" for a failed read.
func dump(s app.Store) (map[string]any, error) {
	out := make(map[string]any)
	err := s.View(bg(), func(tx app.Tx) error {
		for _, p := range probes() {
			v, err := p.get(tx)
			if err != nil {
				out[p.name] = "error: " + domain.ErrorCode(err)
				continue
			}
			out[p.name] = v
		}
		return nil
	})
	return out, err
}
