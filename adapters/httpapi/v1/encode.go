package v1

import (
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The records read most (a composition with its items, a resource, and
// their lists) are written without reflection (docs/decisions.md, "The
// hottest answers are written from tables of members"): each answer is a table of its
// members (httpapi.Object, one line a member; the members v2 shows alike
// are httpapi's), written to an httpapi.Encoder byte for byte as
// encoding/json wrote the structs that described them (reference_test.go;
// encode_test.go compares both), its figures checked against the bounds
// as they are written. A new field is a line in its table.

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

// notSicro leaves a member out of a composition of the SINAPI model.
func notSicro(b compositionBody) bool { return !b.pc.IsSicro }

// compositionObject is compositionBody's members, one a line.
var compositionObject = httpapi.NewObject(
	httpapi.Str("id", func(b compositionBody) string { return b.pc.ID }),
	httpapi.Str("company_id", func(b compositionBody) string { return b.pc.CompanyID }),
	httpapi.Str("user_id", func(b compositionBody) string { return b.pc.UserID }),
	httpapi.Str("department_id", func(b compositionBody) string { return b.pc.DepartmentID }),
	httpapi.StrOrNull("group_id", func(b compositionBody) string { return b.pc.GroupID }),
	httpapi.Str("code", func(b compositionBody) string { return b.pc.Code }),
	httpapi.Str("second_code", func(b compositionBody) string { return b.pc.SecondCode }),
	httpapi.Str("description", func(b compositionBody) string { return b.pc.Description }),
	httpapi.Str("type", func(b compositionBody) string { return b.pc.Type }),
	httpapi.Str("unit", func(b compositionBody) string { return b.pc.Unit }),
	httpapi.Str("state", func(b compositionBody) string { return b.pc.State }),
	httpapi.Boolean("is_sicro", func(b compositionBody) bool { return b.pc.IsSicro }),
	httpapi.Field("calculation_method", func(e *httpapi.Encoder, b compositionBody) { httpapi.CalculationMethod.Append(e, b.pc.Rounding) }),
	httpapi.Boolean("labor", func(b compositionBody) bool { return b.pc.Labor }),
	httpapi.Dec("team_production", func(b compositionBody) decimal.Decimal { return b.pc.TeamProduction }).OmitIf(notSicro),
	httpapi.Dec("fic", func(b compositionBody) decimal.Decimal { return b.pc.FIC }).OmitIf(notSicro),
	httpapi.Dec("adc_labor", func(b compositionBody) decimal.Decimal { return b.pc.LaborAddition }).OmitIf(notSicro),
	httpapi.Field("prices", func(e *httpapi.Encoder, b compositionBody) {
		if b.pc.IsSicro {
			httpapi.CompositionPrices.Append(e, &b.pc.Prices)
		} else {
			httpapi.BasePrices.Append(e, &b.pc.Prices)
		}
	}),
	httpapi.Field("banks", func(e *httpapi.Encoder, b compositionBody) {
		banks := b.pc.Banks
		e.Keyed(len(banks), func(i int, dst []byte) []byte { return append(dst, banks[i].Name...) },
			func(e *httpapi.Encoder, i int) { bankObject.Append(e, &banks[i]) })
	}),
	httpapi.Field("items", func(e *httpapi.Encoder, b compositionBody) {
		e.Array(len(b.pc.Items), func(e *httpapi.Encoder, i int) {
			itemObject.Append(e, httpapi.Line{PricedItem: &b.pc.Items[i], Rounding: b.pc.Rounding, Position: i + 1})
		})
	}),
	httpapi.Field("created_at", func(e *httpapi.Encoder, b compositionBody) { e.Time(b.env, b.pc.CreatedAt) }),
	httpapi.TagList(func(b compositionBody) []string { return b.pc.Tags }),
	httpapi.Boolean("incomplete", func(b compositionBody) bool { return true }).OmitIf(complete),
	httpapi.Field("missing", func(e *httpapi.Encoder, b compositionBody) { e.MissingPrices(b.pc.Missing) }).OmitIf(complete),
)

// complete leaves incomplete and missing out when every item has a price:
// the prices then leave those items out (docs/decisions.md).
func complete(b compositionBody) bool { return !b.pc.Incomplete() }

// bankObject is an entry of a composition's banks, keyed by name: regiao
// is the edition's region, or the region the client sent for a bank
// without regions (left out when none); with_labor_charges only when the
// client sent it.
var bankObject = httpapi.NewObject(
	httpapi.Str("data", func(b *domain.BankRef) string { return b.Month }),
	httpapi.Str("estado", func(b *domain.BankRef) string { return b.State }),
	httpapi.Str("regiao", regiao).OmitIf(func(b *domain.BankRef) bool { return regiao(b) == "" }),
	httpapi.Boolean("relatorio", func(b *domain.BankRef) bool { return b.Report }),
	httpapi.Boolean("with_labor_charges", func(b *domain.BankRef) bool { return *b.WithLaborCharges }).
		OmitIf(func(b *domain.BankRef) bool { return b.WithLaborCharges == nil }),
)

func regiao(b *domain.BankRef) string { return httpapi.OrElse(b.Region, b.AskedRegion) }

// itemObject is an item of a composition: the members of both
// generations, and missing true for an item without a price.
var itemObject = httpapi.LineMembers.With(httpapi.LineMissing)

// AppendJSON implements httpapi.JSONAppender.
func (b compositionBody) AppendJSON(e *httpapi.Encoder) { compositionObject.Append(e, b) }

// resourceRecord is a resource as the v1 list shows it (also the answer of
// GET /{id} and find_by_code): id, company_id, user_id, department_id,
// group_id (left out when the resource has no group), code, second_code
// (null when empty), description, type, unit, locals (locals), is_sicro,
// status, note.
type resourceRecord struct {
	r *domain.Resource
	// unpriced: a reference-bank resource (/base/{bank}/resources) the
	// bank published no price of in a regime (by domain.Regime): those
	// prices are null, never 0. Always false for the company's own.
	unpriced [2]bool
}

func resourceToRecord(r *domain.Resource) resourceRecord { return resourceRecord{r: r} }

// resourceObject is resourceRecord's members, one a line.
var resourceObject = httpapi.NewObject(
	httpapi.Str("id", func(rec resourceRecord) string { return rec.r.ID }),
	httpapi.Str("company_id", func(rec resourceRecord) string { return rec.r.CompanyID }),
	httpapi.Str("user_id", func(rec resourceRecord) string { return rec.r.UserID }),
	httpapi.Str("department_id", func(rec resourceRecord) string { return rec.r.DepartmentID }),
	httpapi.Str("group_id", func(rec resourceRecord) string { return rec.r.GroupID }).OmitIf(func(rec resourceRecord) bool { return rec.r.GroupID == "" }),
	httpapi.Str("code", func(rec resourceRecord) string { return rec.r.Code }),
	httpapi.StrOrNull("second_code", func(rec resourceRecord) string { return rec.r.SecondCode }),
	httpapi.Str("description", func(rec resourceRecord) string { return rec.r.Description }),
	httpapi.Whole("type", func(rec resourceRecord) int { return rec.r.Type }),
	httpapi.Str("unit", func(rec resourceRecord) string { return rec.r.Unit }),
	httpapi.Field("locals", func(e *httpapi.Encoder, rec resourceRecord) {
		httpapi.Map(e, rec.r.Locals, func(e *httpapi.Encoder, p domain.PriceLine) {
			switch {
			case rec.r.IsSicro: // a SICRO resource has one price a state
				e.Num(p.PND)
			case rec.unpriced != [2]bool{}:
				pricesOrNull.Append(e, pricesIn{p, rec.unpriced})
			default:
				httpapi.PriceLine.Append(e, p)
			}
		})
	}),
	httpapi.Boolean("is_sicro", func(rec resourceRecord) bool { return rec.r.IsSicro }),
	httpapi.Boolean("status", func(rec resourceRecord) bool { return rec.r.Status }),
	httpapi.Str("note", func(rec resourceRecord) string { return rec.r.Note }),
	httpapi.TagList(func(rec resourceRecord) []string { return rec.r.Tags }),
)

// pricesIn is a state's four prices and the regimes without a price.
type pricesIn struct {
	p        domain.PriceLine
	unpriced [2]bool
}

// pricesOrNull is httpapi.PriceLine with null for a regime without a price.
var pricesOrNull = httpapi.NewObject(
	httpapi.DecOrNull("pnd", func(v pricesIn) (decimal.Decimal, bool) { return v.p.PND, v.unpriced[domain.NaoDesonerado] }),
	httpapi.DecOrNull("pd", func(v pricesIn) (decimal.Decimal, bool) { return v.p.PD, v.unpriced[domain.Desonerado] }),
	httpapi.DecOrNull("pndi", func(v pricesIn) (decimal.Decimal, bool) { return v.p.PNDI, v.unpriced[domain.NaoDesonerado] }),
	httpapi.DecOrNull("pdi", func(v pricesIn) (decimal.Decimal, bool) { return v.p.PDI, v.unpriced[domain.Desonerado] }),
)

// AppendJSON implements httpapi.JSONAppender.
func (rec resourceRecord) AppendJSON(e *httpapi.Encoder) { resourceObject.Append(e, rec) }

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
