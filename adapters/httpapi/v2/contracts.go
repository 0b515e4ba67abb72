package v2

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// Contracts, measurements and amendments (docs/contracts.md):
//
//	POST /contracts                                    from a budget's frozen version: 201
//	GET  /contracts, /contracts/{id}
//	POST /contracts/{id}/measurements                  open the next (draft): 201
//	GET  /contracts/{id}/measurements[/{n}]
//	PATCH /contracts/{id}/measurements/{n}             a draft's period or quantities
//	POST /contracts/{id}/measurements/{n}/submit|approve|reject
//	GET  /contracts/{id}/measurements/{n}/boletim      JSON:API, or ?format=csv
//	GET  /contracts/{id}/statement                     accumulated statement (approved measurements)
//	POST /contracts/{id}/amendments                    a draft amendment: 201
//	GET  /contracts/{id}/amendments
//	POST /contracts/{id}/amendments/{n}/submit|approve|reject
//
// Measurements, amendments and boletins are the JSON:API types
// "measurements", "amendments" and "boletins", id "<contract id>:<n>".

func (h *handlers) contractRoutes(r chi.Router) {
	const c = "/contracts"
	r.Post(c, h.createContract)
	r.Get(c, h.listContracts)
	r.Get(c+"/{id}", h.getContract)
	r.Post(c+"/{id}/measurements", h.createMeasurement)
	r.Get(c+"/{id}/measurements", h.listMeasurements)
	r.Get(c+"/{id}/measurements/{n}", h.getMeasurement)
	r.Patch(c+"/{id}/measurements/{n}", h.updateMeasurement)
	r.Get(c+"/{id}/measurements/{n}/boletim", h.getBoletim)
	r.Get(c+"/{id}/statement", h.getStatement)
	r.Post(c+"/{id}/amendments", h.createAmendment)
	r.Get(c+"/{id}/amendments", h.listAmendments)
	for _, step := range []app.MeasurementAction{app.ActionSubmit, app.ActionApprove, app.ActionReject} {
		r.Post(c+"/{id}/measurements/{n}/"+string(step), h.measurementStep(step))
		r.Post(c+"/{id}/amendments/{n}/"+string(step), h.amendmentStep(step))
	}
}

type contractLineDoc struct {
	ID               string      `json:"id"`
	Number           string      `json:"number"`
	Stage            string      `json:"stage"`
	StageName        string      `json:"stage_name"`
	Bank             string      `json:"bank"`
	Month            string      `json:"month,omitempty"`
	Code             string      `json:"code"`
	Description      string      `json:"description"`
	Unit             string      `json:"unit"`
	Quantity         json.Number `json:"quantity"`
	UnitPrice        json.Number `json:"unit_price"`
	UnitPriceWithBDI json.Number `json:"unit_price_with_bdi"`
	Amendment        int         `json:"amendment,omitempty"`
}

type contractDoc struct {
	ID           string            `jsonapi:"primary,contracts"`
	BudgetID     string            `jsonapi:"attr,budget_id"`
	Version      int               `jsonapi:"attr,version"`
	VersionHash  string            `jsonapi:"attr,version_hash"`
	Number       string            `jsonapi:"attr,number"`
	Contractor   string            `jsonapi:"attr,contractor"`
	StartDate    string            `jsonapi:"attr,start_date"`
	BaseMonth    string            `jsonapi:"attr,base_month"`
	Retention    json.Number       `jsonapi:"attr,retention"`
	Index        string            `jsonapi:"attr,index"`
	Renovation   bool              `jsonapi:"attr,renovation"`
	BDI          json.Number       `jsonapi:"attr,bdi"`
	Rounding     string            `jsonapi:"attr,rounding"`
	InitialValue json.Number       `jsonapi:"attr,initial_value"`
	CurrentValue json.Number       `jsonapi:"attr,current_value"`
	Additions    json.Number       `jsonapi:"attr,additions"`
	Reductions   json.Number       `jsonapi:"attr,reductions"`
	Measurements int               `jsonapi:"attr,measurements"`
	Lines        []contractLineDoc `jsonapi:"attr,lines"`
	CreatedAt    string            `jsonapi:"attr,created_at"`
}

func (h *handlers) contractDoc(v *app.ContractView) *contractDoc {
	s := v.State
	c := s.Contract
	d := &contractDoc{ID: c.ID, BudgetID: c.BudgetID, Version: c.VersionNumber, VersionHash: c.VersionHash, Number: c.Number,
		Contractor: c.Contractor, StartDate: c.StartDate, BaseMonth: c.BaseMonth, Retention: httpapi.Num(c.Retention),
		Index: c.IndexName, Renovation: c.Renovation, BDI: httpapi.Num(c.BDI.Rate), Rounding: string(c.BDI.Rounding),
		InitialValue: httpapi.Money(c.InitialValue()), Additions: httpapi.Money(s.Additions), Reductions: httpapi.Money(s.Reductions),
		Measurements: len(v.Measurements), CreatedAt: h.env.FormatTime(c.CreatedAt)}
	current := decimal.Zero
	for i := range s.Lines {
		l := &s.Lines[i]
		q := s.Contracted[l.ID]
		current = current.Add(c.Value(l, q))
		d.Lines = append(d.Lines, contractLineDoc{ID: l.ID, Number: l.Number, Stage: l.Stage, StageName: l.StageName, Bank: l.Bank,
			Month: l.Month, Code: l.Code, Description: l.Description, Unit: l.Unit, Quantity: httpapi.Num(q),
			UnitPrice: httpapi.Num(l.UnitPrice), UnitPriceWithBDI: httpapi.Money(l.UnitPriceWithBDI), Amendment: l.Amendment})
	}
	d.CurrentValue = httpapi.Money(current)
	return d
}

// decodeInto reads a create or update body (plain JSON or a JSON:API
// document of type typ) into v; the answer's pointers follow the body.
func (h *handlers) decodeInto(w http.ResponseWriter, r *http.Request, typ, id string, v any) (*attrBody, bool) {
	b := h.readAttrs(w, r, typ, id)
	if b == nil {
		return nil, false
	}
	raw, err := json.Marshal(b.attrs)
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		h.writeError(w, r, domain.Errorf(domain.EBADREQUEST, "the request body has members of the wrong JSON type: %v", err))
		return nil, false
	}
	return b, true
}

type contractBody struct {
	BudgetID   string          `json:"budget_id"`
	Version    int             `json:"version"`
	Number     string          `json:"number"`
	Contractor string          `json:"contractor"`
	StartDate  string          `json:"start_date"`
	BaseMonth  string          `json:"base_month"`
	Retention  decimal.Decimal `json:"retention"`
	Index      string          `json:"index"`
	Renovation bool            `json:"renovation"`
}

// createContract handles POST /contracts.
func (h *handlers) createContract(w http.ResponseWriter, r *http.Request) {
	var in contractBody
	b, ok := h.decodeInto(w, r, "contracts", "", &in)
	if !ok {
		return
	}
	p := principal(r)
	ci := domain.ContractInput{Number: in.Number, Contractor: in.Contractor, StartDate: in.StartDate, BaseMonth: in.BaseMonth,
		Retention: in.Retention, IndexName: in.Index, Renovation: in.Renovation}
	var val domain.Validation
	if in.BudgetID == "" {
		val.Add("/budget_id", "is required: the budget the contract is made from")
	}
	if in.Version < 1 {
		val.Add("/version", "is required: the number of one of the budget's frozen versions")
	}
	if err := val.Merge("", ci.Validate()); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := val.Err(); err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	c, err := h.env.App.CreateContract(r.Context(), p, in.BudgetID, in.Version, ci)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	v, err := h.env.App.Contract(r.Context(), p, c.ID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", created(r, c.ID))
	h.writeDoc(w, r, http.StatusCreated, h.contractDoc(v))
}

// listContracts handles GET /contracts.
func (h *handlers) listContracts(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.env.App.Contracts(r.Context(), principal(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	docs := make([]*contractDoc, 0, len(list))
	for _, c := range list {
		v, err := h.env.App.Contract(r.Context(), principal(r), c.ID)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		docs = append(docs, h.contractDoc(v))
	}
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &jsonapi.Meta{"total": len(docs)})
}

// getContract handles GET /contracts/{id}.
func (h *handlers) getContract(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.contractDoc(v))
}

type measurementDoc struct {
	ID           string                 `jsonapi:"primary,measurements"`
	Number       int                    `jsonapi:"attr,number"`
	PeriodStart  string                 `jsonapi:"attr,period_start"`
	PeriodEnd    string                 `jsonapi:"attr,period_end"`
	Status       string                 `jsonapi:"attr,status"`
	RejectReason string                 `jsonapi:"attr,reject_reason,omitempty"`
	Quantities   map[string]json.Number `jsonapi:"attr,quantities"`
	CreatedAt    string                 `jsonapi:"attr,created_at"`
	UpdatedAt    string                 `jsonapi:"attr,updated_at"`
}

func (h *handlers) measurementDoc(m *domain.Measurement) *measurementDoc {
	q := make(map[string]json.Number, len(m.Quantities))
	for id, d := range m.Quantities {
		q[id] = httpapi.Num(d)
	}
	return &measurementDoc{ID: m.ContractID + ":" + strconv.Itoa(m.Number), Number: m.Number, PeriodStart: m.PeriodStart,
		PeriodEnd: m.PeriodEnd, Status: string(m.Status), RejectReason: m.RejectReason, Quantities: q,
		CreatedAt: h.env.FormatTime(m.CreatedAt), UpdatedAt: h.env.FormatTime(m.UpdatedAt)}
}

type measurementBody struct {
	PeriodStart *string                    `json:"period_start"`
	PeriodEnd   *string                    `json:"period_end"`
	Quantities  map[string]decimal.Decimal `json:"quantities"`
}

// recordNumber reads the {n} path parameter: a whole number from 1.
func recordNumber(r *http.Request) (int, error) {
	n, err := strconv.Atoi(chi.URLParam(r, "n"))
	if err != nil || n < 1 {
		return 0, domain.Errorf(domain.ENOTFOUND, "no record %q of contract %s: they are numbered 1, 2, …", chi.URLParam(r, "n"), chi.URLParam(r, "id"))
	}
	return n, nil
}

// createMeasurement handles POST /contracts/{id}/measurements.
func (h *handlers) createMeasurement(w http.ResponseWriter, r *http.Request) {
	var in measurementBody
	b, ok := h.decodeInto(w, r, "measurements", "", &in)
	if !ok {
		return
	}
	m, err := h.env.App.CreateMeasurement(r.Context(), principal(r), chi.URLParam(r, "id"),
		app.MeasurementInput{PeriodStart: in.PeriodStart, PeriodEnd: in.PeriodEnd, Quantities: in.Quantities})
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, strconv.Itoa(m.Number)))
	h.writeDoc(w, r, http.StatusCreated, h.measurementDoc(m))
}

// updateMeasurement handles PATCH /contracts/{id}/measurements/{n}.
func (h *handlers) updateMeasurement(w http.ResponseWriter, r *http.Request) {
	var in measurementBody
	b, ok := h.decodeInto(w, r, "measurements", chi.URLParam(r, "id")+":"+chi.URLParam(r, "n"), &in)
	if !ok {
		return
	}
	n, err := recordNumber(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	m, err := h.env.App.UpdateMeasurement(r.Context(), principal(r), chi.URLParam(r, "id"), n,
		app.MeasurementInput{PeriodStart: in.PeriodStart, PeriodEnd: in.PeriodEnd, Quantities: in.Quantities})
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.measurementDoc(m))
}

// stepReason reads a reject's body: {"reason": …}, plain or as a JSON:API
// document's attributes; the other steps take no body.
func (h *handlers) stepReason(w http.ResponseWriter, r *http.Request, step app.MeasurementAction, typ string) (string, bool) {
	if step != app.ActionReject {
		if _, err := query(r); err != nil {
			h.writeError(w, r, err)
			return "", false
		}
		return "", true
	}
	var in struct {
		Reason string `json:"reason"`
	}
	_, ok := h.decodeInto(w, r, typ, "", &in)
	return in.Reason, ok
}

// measurementStep handles POST /contracts/{id}/measurements/{n}/<step>.
func (h *handlers) measurementStep(step app.MeasurementAction) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		reason, ok := h.stepReason(w, r, step, "measurements")
		if !ok {
			return
		}
		n, err := recordNumber(r)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		m, err := h.env.App.MeasurementStep(r.Context(), principal(r), chi.URLParam(r, "id"), n, step, reason)
		if err != nil {
			h.writeErrorAt(w, r, err, (&attrBody{doc: true}).pointers)
			return
		}
		h.writeDoc(w, r, http.StatusOK, h.measurementDoc(m))
	}
}

// listMeasurements handles GET /contracts/{id}/measurements.
func (h *handlers) listMeasurements(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	docs := make([]*measurementDoc, 0, len(v.Measurements))
	for _, m := range v.Measurements {
		docs = append(docs, h.measurementDoc(m))
	}
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &jsonapi.Meta{"total": len(docs)})
}

// getMeasurement handles GET /contracts/{id}/measurements/{n}.
func (h *handlers) getMeasurement(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	n, err := recordNumber(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	m, err := v.Measurement(n)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.measurementDoc(m))
}

type boletimRowDoc struct {
	Line             string      `json:"line"`
	Number           string      `json:"number"`
	Stage            string      `json:"stage"`
	Bank             string      `json:"bank"`
	Code             string      `json:"code"`
	Description      string      `json:"description"`
	Unit             string      `json:"unit"`
	UnitPriceWithBDI json.Number `json:"unit_price_with_bdi"`
	Contracted       json.Number `json:"contracted"`
	Previous         json.Number `json:"previous"`
	ThisPeriod       json.Number `json:"this_period"`
	Accumulated      json.Number `json:"accumulated"`
	Balance          json.Number `json:"balance"`
	ContractedValue  json.Number `json:"contracted_value"`
	PreviousValue    json.Number `json:"previous_value"`
	ThisValue        json.Number `json:"this_value"`
	AccumulatedValue json.Number `json:"accumulated_value"`
	BalanceValue     json.Number `json:"balance_value"`
}

func boletimRowOf(r *domain.BoletimRow) boletimRowDoc {
	l := r.Line
	return boletimRowDoc{Line: l.ID, Number: l.Number, Stage: l.Stage, Bank: l.Bank, Code: l.Code,
		Description: l.Description, Unit: l.Unit, UnitPriceWithBDI: httpapi.Money(l.UnitPriceWithBDI),
		Contracted: httpapi.Num(r.Contracted), Previous: httpapi.Num(r.Previous), ThisPeriod: httpapi.Num(r.ThisPeriod),
		Accumulated: httpapi.Num(r.Accumulated), Balance: httpapi.Num(r.Balance),
		ContractedValue: httpapi.Money(r.ContractedValue), PreviousValue: httpapi.Money(r.PreviousValue),
		ThisValue: httpapi.Money(r.ThisValue), AccumulatedValue: httpapi.Money(r.AccumulatedValue),
		BalanceValue: httpapi.Money(r.BalanceValue)}
}

type boletimStageDoc struct {
	Number           string      `json:"number"`
	Name             string      `json:"name"`
	ContractedValue  json.Number `json:"contracted_value"`
	PreviousValue    json.Number `json:"previous_value"`
	ThisValue        json.Number `json:"this_value"`
	AccumulatedValue json.Number `json:"accumulated_value"`
	BalanceValue     json.Number `json:"balance_value"`
}

func stageDoc(s domain.BoletimStage) boletimStageDoc {
	return boletimStageDoc{Number: s.Number, Name: s.Name, ContractedValue: httpapi.Money(s.ContractedValue),
		PreviousValue: httpapi.Money(s.PreviousValue), ThisValue: httpapi.Money(s.ThisValue),
		AccumulatedValue: httpapi.Money(s.AccumulatedValue), BalanceValue: httpapi.Money(s.BalanceValue)}
}

type boletimDoc struct {
	ID           string            `jsonapi:"primary,boletins"`
	Measurement  int               `jsonapi:"attr,measurement"`
	Status       string            `jsonapi:"attr,status"`
	PeriodStart  string            `jsonapi:"attr,period_start"`
	PeriodEnd    string            `jsonapi:"attr,period_end"`
	Contract     string            `jsonapi:"attr,contract_number"`
	Contractor   string            `jsonapi:"attr,contractor"`
	Rows         []boletimRowDoc   `jsonapi:"attr,rows"`
	Stages       []boletimStageDoc `jsonapi:"attr,stages"`
	Totals       boletimStageDoc   `jsonapi:"attr,totals"`
	PeriodTotal  json.Number       `jsonapi:"attr,period_total"`
	Retention    json.Number       `jsonapi:"attr,retention"`
	Readjustment *json.Number      `jsonapi:"attr,readjustment"`
	Factor       *json.Number      `jsonapi:"attr,readjustment_factor"`
	Note         *string           `jsonapi:"attr,readjustment_note"`
	Net          json.Number       `jsonapi:"attr,net"`
}

func boletimOf(b *domain.Boletim) *boletimDoc {
	m := b.Measurement
	d := &boletimDoc{ID: m.ContractID + ":" + strconv.Itoa(m.Number), Measurement: m.Number, Status: string(m.Status),
		PeriodStart: m.PeriodStart, PeriodEnd: m.PeriodEnd, Contract: b.Contract.Number, Contractor: b.Contract.Contractor,
		Totals: stageDoc(b.Totals), PeriodTotal: httpapi.Money(b.PeriodTotal), Retention: httpapi.Money(b.Retention),
		Net: httpapi.Money(b.Net)}
	if b.Readjustment.Valid {
		n, f := httpapi.Money(b.Readjustment.Decimal), httpapi.Num(b.ReadjustmentFactor.Decimal)
		d.Readjustment, d.Factor = &n, &f
	}
	d.Note = strOrNil(b.ReadjustmentNote)
	for i := range b.Rows {
		d.Rows = append(d.Rows, boletimRowOf(&b.Rows[i]))
	}
	for _, s := range b.Stages {
		d.Stages = append(d.Stages, stageDoc(s))
	}
	return d
}

// getBoletim handles GET /contracts/{id}/measurements/{n}/boletim
// (?format=csv for the CSV).
func (h *handlers) getBoletim(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	n, err := recordNumber(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	b, err := v.Boletim(n)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if isCSV(format) {
		d := boletimOf(b)
		h.writeCSV(w, r, nil, "boletim-"+strconv.Itoa(n)+".csv", func(buf *bytes.Buffer) error { return boletimCSV(buf, d) })
		return
	}
	h.streamBoletim(w, r, b)
}

// boletimCSV writes the boletim's rows, the stages' subtotals and the
// footer (period total, retention, net) as CSV with a header row.
func boletimCSV(buf *bytes.Buffer, d *boletimDoc) error {
	cw := csv.NewWriter(buf)
	_ = cw.Write([]string{"item", "etapa", "banco", "codigo", "descricao", "unidade", "preco_unitario_com_bdi",
		"qtd_contratada", "qtd_anterior", "qtd_periodo", "qtd_acumulada", "qtd_saldo",
		"valor_contratado", "valor_anterior", "valor_periodo", "valor_acumulado", "valor_saldo"})
	for _, r := range d.Rows {
		_ = cw.Write([]string{r.Number, r.Stage, r.Bank, r.Code, r.Description, r.Unit, string(r.UnitPriceWithBDI),
			string(r.Contracted), string(r.Previous), string(r.ThisPeriod), string(r.Accumulated), string(r.Balance),
			string(r.ContractedValue), string(r.PreviousValue), string(r.ThisValue), string(r.AccumulatedValue), string(r.BalanceValue)})
	}
	for _, s := range append(d.Stages, d.Totals) {
		label := "subtotal etapa " + s.Number
		if s.Number == "" && s.Name == "" {
			label = "total"
		}
		_ = cw.Write([]string{label, s.Number, "", "", s.Name, "", "", "", "", "", "", "",
			string(s.ContractedValue), string(s.PreviousValue), string(s.ThisValue), string(s.AccumulatedValue), string(s.BalanceValue)})
	}
	_ = cw.Write([]string{"total do periodo", "", "", "", "", "", "", "", "", "", "", "", "", "", string(d.PeriodTotal), "", ""})
	_ = cw.Write([]string{"retencao", "", "", "", "", "", "", "", "", "", "", "", "", "", string(d.Retention), "", ""})
	_ = cw.Write([]string{"liquido", "", "", "", "", "", "", "", "", "", "", "", "", "", string(d.Net), "", ""})
	cw.Flush()
	return cw.Error()
}

type amendmentChangeDoc struct {
	Line     string      `json:"line"`
	Quantity json.Number `json:"quantity"`
}

type amendmentDoc struct {
	ID           string               `jsonapi:"primary,amendments"`
	Number       int                  `jsonapi:"attr,number"`
	Description  string               `jsonapi:"attr,description"`
	Status       string               `jsonapi:"attr,status"`
	RejectReason string               `jsonapi:"attr,reject_reason,omitempty"`
	Changes      []amendmentChangeDoc `jsonapi:"attr,changes"`
	NewLines     []contractLineDoc    `jsonapi:"attr,new_lines"`
	CreatedAt    string               `jsonapi:"attr,created_at"`
	UpdatedAt    string               `jsonapi:"attr,updated_at"`
}

func (h *handlers) amendmentDoc(a *domain.Amendment) *amendmentDoc {
	d := &amendmentDoc{ID: a.ContractID + ":" + strconv.Itoa(a.Number), Number: a.Number, Description: a.Description,
		Status: string(a.Status), RejectReason: a.RejectReason, Changes: []amendmentChangeDoc{}, NewLines: []contractLineDoc{},
		CreatedAt: h.env.FormatTime(a.CreatedAt), UpdatedAt: h.env.FormatTime(a.UpdatedAt)}
	for _, c := range a.Changes {
		d.Changes = append(d.Changes, amendmentChangeDoc{Line: c.LineID, Quantity: httpapi.Num(c.Quantity)})
	}
	for _, l := range a.NewLines {
		d.NewLines = append(d.NewLines, contractLineDoc{ID: l.ID, Number: l.Number, Stage: l.Stage, StageName: l.StageName,
			Bank: l.Bank, Month: l.Month, Code: l.Code, Description: l.Description, Unit: l.Unit, Quantity: httpapi.Num(l.Quantity),
			UnitPrice: httpapi.Num(l.UnitPrice), UnitPriceWithBDI: httpapi.Money(l.UnitPriceWithBDI), Amendment: l.Amendment})
	}
	return d
}

type amendmentBody struct {
	Description string `json:"description"`
	Changes     []struct {
		Line     string          `json:"line"`
		Quantity decimal.Decimal `json:"quantity"`
	} `json:"changes"`
	NewLines []struct {
		Bank     string          `json:"bank"`
		Code     string          `json:"code"`
		Quantity decimal.Decimal `json:"quantity"`
	} `json:"new_lines"`
}

// createAmendment handles POST /contracts/{id}/amendments: 201 with the
// limits' figures in meta.
func (h *handlers) createAmendment(w http.ResponseWriter, r *http.Request) {
	var in amendmentBody
	b, ok := h.decodeInto(w, r, "amendments", "", &in)
	if !ok {
		return
	}
	ai := app.AmendmentInput{Description: in.Description}
	for _, c := range in.Changes {
		ai.Changes = append(ai.Changes, domain.AmendmentChange{LineID: c.Line, Quantity: c.Quantity})
	}
	for _, l := range in.NewLines {
		ai.NewLines = append(ai.NewLines, app.NewContractLine{Bank: l.Bank, Code: l.Code, Quantity: l.Quantity})
	}
	a, lim, err := h.env.App.CreateAmendment(r.Context(), principal(r), chi.URLParam(r, "id"), ai)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, strconv.Itoa(a.Number)))
	h.writeDocWith(w, r, http.StatusCreated, h.amendmentDoc(a), nil, &jsonapi.Meta{
		"base": httpapi.Money(lim.Base), "additions": httpapi.Money(lim.Additions), "reductions": httpapi.Money(lim.Reductions),
		"addition_limit_percent": httpapi.Num(lim.AdditionPct), "max_additions": httpapi.Num(lim.MaxAdditions),
		"max_reductions": httpapi.Num(lim.MaxReductions)})
}

// amendmentStep handles POST /contracts/{id}/amendments/{n}/<step>.
func (h *handlers) amendmentStep(step app.MeasurementAction) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		reason, ok := h.stepReason(w, r, step, "amendments")
		if !ok {
			return
		}
		n, err := recordNumber(r)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		a, err := h.env.App.AmendmentStep(r.Context(), principal(r), chi.URLParam(r, "id"), n, step, reason)
		if err != nil {
			h.writeErrorAt(w, r, err, (&attrBody{doc: true}).pointers)
			return
		}
		h.writeDoc(w, r, http.StatusOK, h.amendmentDoc(a))
	}
}

// listAmendments handles GET /contracts/{id}/amendments.
func (h *handlers) listAmendments(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	docs := make([]*amendmentDoc, 0, len(v.Amendments))
	for _, a := range v.Amendments {
		docs = append(docs, h.amendmentDoc(a))
	}
	h.writeDocWith(w, r, http.StatusOK, docs, selfLink(r), &jsonapi.Meta{"total": len(docs)})
}

type statementRowDoc struct {
	Line             string        `json:"line"`
	Number           string        `json:"number"`
	Code             string        `json:"code"`
	Description      string        `json:"description"`
	Unit             string        `json:"unit"`
	Contracted       json.Number   `json:"contracted"`
	Accumulated      json.Number   `json:"accumulated"`
	Values           []json.Number `json:"values"`
	ContractedValue  json.Number   `json:"contracted_value"`
	AccumulatedValue json.Number   `json:"accumulated_value"`
	BalanceValue     json.Number   `json:"balance_value"`
}

type statementDoc struct {
	ID           string            `jsonapi:"primary,contract-statements"`
	Measurements []int             `jsonapi:"attr,measurements"`
	Rows         []statementRowDoc `jsonapi:"attr,rows"`
	Totals       []json.Number     `jsonapi:"attr,totals"`
	Retentions   []json.Number     `jsonapi:"attr,retentions"`
	Contracted   json.Number       `jsonapi:"attr,contracted"`
	Accumulated  json.Number       `jsonapi:"attr,accumulated"`
	Balance      json.Number       `jsonapi:"attr,balance"`
}

func moneys(ds []decimal.Decimal) []json.Number {
	out := make([]json.Number, len(ds))
	for i, d := range ds {
		out[i] = httpapi.Money(d)
	}
	return out
}

// getStatement handles GET /contracts/{id}/statement (?format=csv): the
// accumulated statement over the approved measurements.
func (h *handlers) getStatement(w http.ResponseWriter, r *http.Request) {
	format, ok := h.formatQuery(w, r)
	if !ok {
		return
	}
	v, err := h.env.App.Contract(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if !isCSV(format) {
		h.streamStatement(w, r, v.State, v.Measurements)
		return
	}
	d := statementOf(v.State.Statement(v.Measurements))
	{
		h.writeCSV(w, r, nil, "medicoes-acumuladas.csv", func(buf *bytes.Buffer) error {
			cw := csv.NewWriter(buf)
			head := []string{"item", "codigo", "descricao", "unidade", "qtd_contratada", "qtd_acumulada", "valor_contratado"}
			for _, n := range d.Measurements {
				head = append(head, "medicao_"+strconv.Itoa(n))
			}
			_ = cw.Write(append(head, "valor_acumulado", "valor_saldo"))
			for _, row := range d.Rows {
				rec := []string{row.Number, row.Code, row.Description, row.Unit, string(row.Contracted), string(row.Accumulated), string(row.ContractedValue)}
				for _, v := range row.Values {
					rec = append(rec, string(v))
				}
				_ = cw.Write(append(rec, string(row.AccumulatedValue), string(row.BalanceValue)))
			}
			tot := []string{"total", "", "", "", "", "", string(d.Contracted)}
			for _, v := range d.Totals {
				tot = append(tot, string(v))
			}
			_ = cw.Write(append(tot, string(d.Accumulated), string(d.Balance)))
			cw.Flush()
			return cw.Error()
		})
	}
}

// statementOf is the statement as its document.
func statementOf(st *domain.Statement) *statementDoc {
	d := &statementDoc{ID: st.Contract.ID, Measurements: []int{}, Totals: moneys(st.Totals), Retentions: moneys(st.Retentions),
		Contracted: httpapi.Money(st.Contracted), Accumulated: httpapi.Money(st.Accumulated), Balance: httpapi.Money(st.Balance)}
	for _, m := range st.Measurements {
		d.Measurements = append(d.Measurements, m.Number)
	}
	for i := range st.Rows {
		d.Rows = append(d.Rows, statementRowOf(&st.Rows[i]))
	}
	return d
}

func statementRowOf(row *domain.StatementRow) statementRowDoc {
	l := row.Line
	return statementRowDoc{Line: l.ID, Number: l.Number, Code: l.Code, Description: l.Description, Unit: l.Unit,
		Contracted: httpapi.Num(row.Contracted), Accumulated: httpapi.Num(row.Accumulated), Values: moneys(row.Values),
		ContractedValue: httpapi.Money(row.ContractedValue), AccumulatedValue: httpapi.Money(row.AccumValue),
		BalanceValue: httpapi.Money(row.BalanceValue)}
}
