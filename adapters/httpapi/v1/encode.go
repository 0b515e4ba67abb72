package v1

import (
	"slices"
	"sync"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// The records read most (a composition with its items, a resource, and
// their lists) are written without reflection (docs/decisions.md,
// "Answers written without reflection"): each answer appends its JSON to an
// httpapi.Encoder, byte for byte what encoding/json wrote of the structs
// that described them (reference_test.go; encode_test.go compares both),
// its figures checked against the bounds as they are written.

// compositionBody is a composition as v1 shows it: id, company_id, user_id,
// department_id, group_id (null when it has no group), code, second_code,
// description, type, unit, state, is_sicro, calculation_method {type,
// description}, labor, then team_production, fic and adc_labor only for a
// SICRO-model composition, whose prices also carry every SICRO key (pnd and
// pd otherwise); banks by name {data, estado, regiao (the edition's region,
// or the region the client sent for a bank without regions; left out when
// none), relatorio, with_labor_charges (when the client sent it)}; items,
// each {banco, code, description, type, unit, unitary_pnd, unitary_pd,
// coefficient (the quantity sent), pnd and pd (the line totals at 2
// decimals, domain.RoundingMethod.ShowLine), is_resource, and missing true
// for an item without a price, whose prices are null}; created_at; and,
// only when some item has no price, incomplete and missing: the prices then
// leave those items out (docs/decisions.md).
type compositionBody struct {
	env *httpapi.Env
	pc  *domain.PricedComposition
}

func (h *handler) composition(pc *domain.PricedComposition) compositionBody {
	return compositionBody{env: h.env, pc: pc}
}

// strs is the sorting space of an encoding.
type strs struct{ s []string }

var strsPool = sync.Pool{New: func() any { return new(strs) }}

// sortedBanks returns the indexes of banks sorted by name, only the last of
// each name: what encoding/json writes of a map filled in order.
func sortedBanks(banks []domain.BankRef, idx []int) []int {
	idx = idx[:0]
	for i := range banks {
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch x, y := banks[a].Name, banks[b].Name; {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	out := idx[:0]
	for j, i := range idx {
		if j+1 < len(idx) && banks[idx[j+1]].Name == banks[i].Name {
			continue
		}
		out = append(out, i)
	}
	return out
}

// AppendJSON implements httpapi.JSONAppender.
func (b compositionBody) AppendJSON(e *httpapi.Encoder) {
	pc := b.pc
	c := pc.Composition
	e.Raw(`{"id":`)
	e.String(c.ID)
	e.Raw(`,"company_id":`)
	e.String(c.CompanyID)
	e.Raw(`,"user_id":`)
	e.String(c.UserID)
	e.Raw(`,"department_id":`)
	e.String(c.DepartmentID)
	e.Raw(`,"group_id":`)
	if c.GroupID == "" {
		e.Null()
	} else {
		e.String(c.GroupID)
	}
	e.Raw(`,"code":`)
	e.String(c.Code)
	e.Raw(`,"second_code":`)
	e.String(c.SecondCode)
	e.Raw(`,"description":`)
	e.String(c.Description)
	e.Raw(`,"type":`)
	e.String(c.Type)
	e.Raw(`,"unit":`)
	e.String(c.Unit)
	e.Raw(`,"state":`)
	e.String(c.State)
	e.Raw(`,"is_sicro":`)
	e.Bool(c.IsSicro)
	e.Raw(`,"calculation_method":{"type":`)
	e.Int(int(c.Rounding))
	e.Raw(`,"description":`)
	e.String(c.Rounding.Description())
	e.Raw(`},"labor":`)
	e.Bool(c.Labor)
	p := pc.Prices
	if c.IsSicro {
		e.Raw(`,"team_production":`)
		e.Num(c.TeamProduction)
		e.Raw(`,"fic":`)
		e.Num(c.FIC)
		e.Raw(`,"adc_labor":`)
		e.Num(c.LaborAddition)
	}
	e.Raw(`,"prices":{"pnd":`)
	e.Num(p.PND)
	e.Raw(`,"pd":`)
	e.Num(p.PD)
	if c.IsSicro {
		e.SicroPrices(p)
	}
	e.Raw(`},"banks":{`)
	var small [16]int
	for j, i := range sortedBanks(c.Banks, small[:0]) {
		bk := c.Banks[i]
		if j > 0 {
			e.Byte(',')
		}
		e.String(bk.Name)
		e.Raw(`:{"data":`)
		e.String(bk.Month)
		e.Raw(`,"estado":`)
		e.String(bk.State)
		if reg := orElse(bk.Region, bk.AskedRegion); reg != "" {
			e.Raw(`,"regiao":`)
			e.String(reg)
		}
		e.Raw(`,"relatorio":`)
		e.Bool(bk.Report)
		if bk.WithLaborCharges != nil {
			e.Raw(`,"with_labor_charges":`)
			e.Bool(*bk.WithLaborCharges)
		}
		e.Byte('}')
	}
	e.Raw(`},"items":[`)
	for i := range pc.Items {
		it := &pc.Items[i]
		if i > 0 {
			e.Byte(',')
		}
		unpricedND, unpricedD := !it.Priced(domain.NaoDesonerado), !it.Priced(domain.Desonerado)
		e.Raw(`{"banco":`)
		e.String(it.Bank)
		e.Raw(`,"code":`)
		e.String(it.Code)
		e.Raw(`,"description":`)
		e.String(it.Description)
		e.Raw(`,"type":`)
		e.String(it.Type)
		e.Raw(`,"unit":`)
		e.String(it.Unit)
		e.Raw(`,"unitary_pnd":`)
		e.NumOrNull(it.UnitPrice.PND, unpricedND)
		e.Raw(`,"unitary_pd":`)
		e.NumOrNull(it.UnitPrice.PD, unpricedD)
		e.Raw(`,"coefficient":`)
		e.Num(it.Quantity)
		e.Raw(`,"pnd":`)
		e.NumOrNull(c.Rounding.ShowLine(it.Total.PND), unpricedND)
		e.Raw(`,"pd":`)
		e.NumOrNull(c.Rounding.ShowLine(it.Total.PD), unpricedD)
		e.Raw(`,"is_resource":`)
		e.Bool(it.Kind == domain.KindResource)
		if it.Missing {
			e.Raw(`,"missing":true`)
		}
		e.Byte('}')
	}
	e.Raw(`],"created_at":`)
	e.Time(b.env, c.CreatedAt)
	if pc.Incomplete() {
		e.Raw(`,"incomplete":true,"missing":[`)
		for i, m := range pc.Missing {
			if i > 0 {
				e.Byte(',')
			}
			e.Raw(`{"banco":`)
			e.String(m.Bank)
			e.Raw(`,"code":`)
			e.String(m.Code)
			e.Raw(`,"is_resource":`)
			e.Bool(m.Kind == domain.KindResource)
			e.Raw(`,"reason":`)
			e.String(m.Reason)
			e.Byte('}')
		}
		e.Byte(']')
	}
	e.Byte('}')
}

// orElse is a, or b when a is empty.
func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// resourceRecord is a resource as the v1 list shows it (also the answer of
// GET /{id} and find_by_code): id, company_id, user_id, department_id,
// group_id (left out when the resource has no group), code, second_code
// (null when empty), description, type, unit, locals (locals), is_sicro,
// status, note.
type resourceRecord struct{ r *domain.Resource }

func resourceToRecord(r *domain.Resource) resourceRecord { return resourceRecord{r} }

// AppendJSON implements httpapi.JSONAppender.
func (rec resourceRecord) AppendJSON(e *httpapi.Encoder) {
	r := rec.r
	e.Raw(`{"id":`)
	e.String(r.ID)
	e.Raw(`,"company_id":`)
	e.String(r.CompanyID)
	e.Raw(`,"user_id":`)
	e.String(r.UserID)
	e.Raw(`,"department_id":`)
	e.String(r.DepartmentID)
	if r.GroupID != "" {
		e.Raw(`,"group_id":`)
		e.String(r.GroupID)
	}
	e.Raw(`,"code":`)
	e.String(r.Code)
	e.Raw(`,"second_code":`)
	if r.SecondCode == "" {
		e.Null()
	} else {
		e.String(r.SecondCode)
	}
	e.Raw(`,"description":`)
	e.String(r.Description)
	e.Raw(`,"type":`)
	e.Int(r.Type)
	e.Raw(`,"unit":`)
	e.String(r.Unit)
	e.Raw(`,"locals":{`)
	s := strsPool.Get().(*strs)
	s.s = s.s[:0]
	for st := range r.Locals {
		s.s = append(s.s, st)
	}
	slices.Sort(s.s)
	for i, st := range s.s {
		p := r.Locals[st]
		if i > 0 {
			e.Byte(',')
		}
		e.String(st)
		e.Byte(':')
		if r.IsSicro {
			e.Num(p.PND)
			continue
		}
		e.Raw(`{"pnd":`)
		e.Num(p.PND)
		e.Raw(`,"pd":`)
		e.Num(p.PD)
		e.Raw(`,"pndi":`)
		e.Num(p.PNDI)
		e.Raw(`,"pdi":`)
		e.Num(p.PDI)
		e.Byte('}')
	}
	clear(s.s)
	strsPool.Put(s)
	e.Raw(`},"is_sicro":`)
	e.Bool(r.IsSicro)
	e.Raw(`,"status":`)
	e.Bool(r.Status)
	e.Raw(`,"note":`)
	e.String(r.Note)
	e.Byte('}')
}

// plainEnvelope is a listEnvelope encoded by encoding/json.
type plainEnvelope[T any] listEnvelope[T]

// AppendJSON implements httpapi.JSONAppender: a list of records that write
// their own JSON is written without reflection, any other by encoding/json.
func (l listEnvelope[T]) AppendJSON(e *httpapi.Encoder) {
	var zero T
	if _, ok := any(zero).(httpapi.JSONAppender); !ok {
		_ = e.Value(plainEnvelope[T](l))
		return
	}
	e.Raw(`{"total":`)
	e.Int(l.Total)
	e.Raw(`,"per_page":`)
	e.Int(l.PerPage)
	e.Raw(`,"current_page":`)
	e.Int(l.CurrentPage)
	e.Raw(`,"records":`)
	if l.Records == nil {
		e.Null()
	} else {
		e.Byte('[')
		for i, rec := range l.Records {
			if i > 0 {
				e.Byte(',')
			}
			any(rec).(httpapi.JSONAppender).AppendJSON(e)
		}
		e.Byte(']')
	}
	e.Byte('}')
}
