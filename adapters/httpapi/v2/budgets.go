package v2

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
)

// Budgets (docs/budgets.md) are a documented extension of v2: the seed
// names only their list and detail, but a service whose budgets cannot be
// written is useless. A budget is the JSON:API type "budgets"; its tree of
// stages and lines is its attribute `items`, each node carrying its id
// (stable for the node's life) and its number (by position: 1, 1.1, 1.1.2).
// A node is also a resource of its own, type "budget-nodes", id "<budget
// id>:<node id>" (node ids are unique within one budget only), at
// …/budgets/{id}/nodes/{node}: the node with its figures (budgetnodes.go).
// The node operations (POST …/nodes, PATCH and DELETE …/nodes/{node})
// answer that node, not the whole budget, with the budget's new totals in
// meta, so that the answer does not grow with the budget.

// budgetDoc is a budget as v2 writes it. Money is written with at least two
// places (1234.50).
type budgetDoc struct {
	ID          string      `jsonapi:"primary,budgets"`
	Code        string      `jsonapi:"attr,code"`
	Description string      `jsonapi:"attr,description"`
	Client      string      `jsonapi:"attr,client"`
	Location    string      `jsonapi:"attr,location"`
	Tags        []string    `jsonapi:"attr,tags,omitempty"`
	Desonerado  bool        `jsonapi:"attr,desonerado"`
	BDI         json.Number `jsonapi:"attr,bdi"`
	BDIMode     string      `jsonapi:"attr,bdi_mode"`
	Rounding    string      `jsonapi:"attr,rounding"`
	ART         string      `jsonapi:"attr,art"`
	IssueDate   string      `jsonapi:"attr,issue_date"`
	// LabourCharges is the budget's own labour charges percentage, left
	// out when null (the bank's prices).
	LabourCharges *json.Number    `jsonapi:"attr,labour_charges,omitempty"`
	Banks         []budgetBankDoc `jsonapi:"attr,banks"`
	Items         []nodeDoc       `jsonapi:"attr,items"`
	Lines         int             `jsonapi:"attr,lines"`
	OmittedNodes  int             `jsonapi:"attr,omitted_nodes"`
	Total         json.Number     `jsonapi:"attr,total"`
	BDIValue      json.Number     `jsonapi:"attr,bdi_value"`
	TotalWithBDI  json.Number     `jsonapi:"attr,total_with_bdi"`
	CreatedAt     string          `jsonapi:"attr,created_at"`
	UpdatedAt     string          `jsonapi:"attr,updated_at"`
	// Incomplete and Missing appear only when some line has no price.
	Incomplete bool                  `jsonapi:"attr,incomplete,omitempty"`
	Missing    []httpapi.MissingLine `jsonapi:"attr,missing,omitempty"`
	User       *userRef              `jsonapi:"relation,user"`
	Sector     *sectorRef            `jsonapi:"relation,sector"`
}

// budgetBankDoc is one bank edition of a budget, in the names a request
// uses, so that a fetched budget can be sent back.
type budgetBankDoc struct {
	Name     string `json:"name"`
	Location string `json:"location"`
	Version  string `json:"version"`
	Region   string `json:"region,omitempty"`
}

// nodeDoc is a node of a budget's tree: a stage (description, items) or a
// line (bank, code, quantity).
type nodeDoc struct {
	ID          string       `json:"id"`
	Number      string       `json:"number"`
	Kind        string       `json:"kind"`
	Description string       `json:"description,omitempty"`
	Bank        string       `json:"bank,omitempty"`
	Code        string       `json:"code,omitempty"`
	Quantity    *json.Number `json:"quantity,omitempty"`
	Items       *[]nodeDoc   `json:"items,omitempty"`
}

// budgetDoc maps a priced budget. withItems false (lists) leaves `items`
// empty and counts the nodes in omitted_nodes.
func (h *handlers) budgetDoc(pb *domain.PricedBudget, withItems bool) *budgetDoc {
	b := pb.Budget
	d := &budgetDoc{
		ID:            b.ID,
		Code:          b.Code,
		Description:   b.Description,
		Client:        b.Client,
		Location:      b.State,
		Tags:          b.Tags,
		Desonerado:    b.Desonerado,
		BDI:           httpapi.Num(b.BDI),
		BDIMode:       string(b.BDIMode),
		Rounding:      string(b.Rounding),
		ART:           b.ART,
		IssueDate:     b.IssueDate,
		LabourCharges: labourChargesAttr(b.LabourCharges),
		Banks:         make([]budgetBankDoc, len(b.Banks)),
		Items:         []nodeDoc{},
		Lines:         b.Lines(),
		Total:         httpapi.Money(pb.Totals.Total),
		BDIValue:      httpapi.Money(pb.Totals.BDIValue),
		TotalWithBDI:  httpapi.Money(pb.Totals.TotalWithBDI),
		CreatedAt:     h.env.FormatTime(b.CreatedAt),
		UpdatedAt:     h.env.FormatTime(b.UpdatedAt),
		Incomplete:    pb.Incomplete(),
		Missing:       httpapi.MissingLines(pb.Missing),
		User:          userOf(b.UserID),
		Sector:        sectorOf(b.DepartmentID),
	}
	for i, ref := range b.Banks {
		d.Banks[i] = budgetBankDoc{Name: ref.Name, Location: ref.State, Version: ref.Month, Region: ref.Region}
	}
	if !withItems {
		d.OmittedNodes = len(b.Outline())
		return d
	}
	d.Items = nodeDocs(b.Items, "")
	return d
}

func nodeDocs(ns []domain.BudgetNode, prefix string) []nodeDoc {
	out := make([]nodeDoc, len(ns))
	for i, n := range ns {
		num := prefix + strconv.Itoa(i+1)
		d := nodeDoc{ID: n.ID, Number: num, Kind: string(n.Kind)}
		if n.Kind.IsLine() {
			q := httpapi.Num(n.Quantity)
			d.Bank, d.Code, d.Quantity = n.Bank, n.Code, &q
		} else {
			d.Description = n.Description
			items := nodeDocs(n.Items, num+".")
			d.Items = &items
		}
		out[i] = d
	}
	return out
}

// Attributes a budget create or update may carry, besides code and
// description (shared with compositions) and location.
var (
	aClient     = attr{app: "client", names: []string{"client"}, kind: "string"}
	aDesonerado = attr{app: "desonerado", names: []string{"desonerado"}, kind: "boolean"}
	aBDI        = attr{app: "bdi", names: []string{"bdi"}, kind: "number"}
	aBDIMode    = attr{app: "bdi_mode", names: []string{"bdi_mode"}, kind: "string"}
	aBudRound   = attr{app: "rounding", names: []string{"rounding"}, kind: "string"}
	aBudBanks   = attr{app: "banks", names: []string{"banks"}, kind: "array of {name, location, version}"}
	aBudItems   = attr{app: "items", names: []string{"items"}, kind: "array of stages and lines"}
	aART        = attr{app: "art", names: []string{"art"}, kind: "string"}
	aIssueDate  = attr{app: "issue_date", names: []string{"issue_date"}, kind: "string"}
)

// budgetReadOnly are the attributes v2 writes and never reads.
var budgetReadOnly = []string{"lines", "omitted_nodes", "total", "bdi_value", "total_with_bdi", "created_at", "updated_at", "incomplete", "missing"}

// nodeIn is a node of a budget as a request sends it. A line's description
// and a node's number (which a fetched budget carries) are not read; its id,
// when it is the id of a node of the budget being updated, keeps that id
// (so that a budget fetched and sent back keeps its node ids).
type nodeIn struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Description string   `json:"description"`
	Bank        string   `json:"bank"`
	Code        string   `json:"code"`
	Quantity    number   `json:"quantity"`
	Items       []nodeIn `json:"items"`
}

func (n nodeIn) input() app.NodeInput {
	return app.NodeInput{ID: n.ID, Kind: domain.NodeKind(n.Kind), Description: n.Description, Bank: n.Bank, Code: n.Code,
		Quantity: n.Quantity.D, Items: nodeInputs(n.Items)}
}

func nodeInputs(ns []nodeIn) []app.NodeInput {
	if ns == nil {
		return nil
	}
	out := make([]app.NodeInput, len(ns))
	for i, n := range ns {
		out[i] = n.input()
	}
	return out
}

// budgetBankIn is one bank edition of a budget as sent.
type budgetBankIn struct {
	Name     string `json:"name"`
	Location string `json:"location"`
	Version  string `json:"version"`
	Region   string `json:"region"`
}

func bankInputs(bs []budgetBankIn) []app.BankInput {
	out := make([]app.BankInput, len(bs))
	for i, b := range bs {
		out[i] = app.BankInput{Name: b.Name, State: b.Location, Month: b.Version, Region: b.Region}
	}
	return out
}

// budgetPatch reads the attributes of a budget create or update. Banks and
// items, when present (null counts as []), replace the budget's.
func budgetPatch(b *attrBody) app.BudgetPatch {
	pt := app.BudgetPatch{
		Code:        read[string](b, aCode),
		Description: read[string](b, aDescription),
		Client:      read[string](b, aClient),
		State:       read[string](b, aLocation),
		Tags:        read[[]string](b, aTags),
		Desonerado:  read[bool](b, aDesonerado),
		BDI:         readNumber(b, aBDI),
		ART:         read[string](b, aART),
		IssueDate:   read[string](b, aIssueDate),
		// Shared with compositions: a number from 0 to 1000, null clears.
		LabourCharges: readNullNumber(b, aLabourCharges),
	}
	if m := read[string](b, aBDIMode); m != nil {
		mode := domain.BDIMode(*m)
		pt.BDIMode = &mode
	}
	if r := read[string](b, aBudRound); r != nil {
		rounding := domain.BudgetRounding(*r)
		pt.Rounding = &rounding
	}
	if banks := read[[]budgetBankIn](b, aBudBanks); banks != nil {
		pt.Banks = bankInputs(*banks)
	}
	if items := readNumbers[[]nodeIn](b, aBudItems); items != nil {
		pt.Items = nodeInputs(*items)
		if pt.Items == nil {
			pt.Items = []app.NodeInput{}
		}
	}
	return pt
}

// listBudgets handles GET /budgets: a page of the company's budgets with
// their totals, without their trees (counted in omitted_nodes).
func (h *handlers) listBudgets(w http.ResponseWriter, r *http.Request) {
	lq, err := h.parseList(r, ownedRels...)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	list, total, err := h.env.App.Budgets(r.Context(), principal(r), lq.app)
	if err != nil {
		h.writeError(w, r, asParamErrors(err))
		return
	}
	docs := make([]*budgetDoc, len(list))
	for i, pb := range list {
		docs[i] = h.budgetDoc(pb, false)
	}
	h.writeCompound(w, r, http.StatusOK, docs, lq.page.links(r, total), totalMeta(total), lq.include)
}

// createBudget handles POST /budgets: plain JSON or a JSON:API document of
// type budgets → 201 with the budget, its tree and totals, and Location.
func (h *handlers) createBudget(w http.ResponseWriter, r *http.Request) {
	b := h.readAttrs(w, r, "budgets", "")
	if b == nil {
		return
	}
	pt := budgetPatch(b)
	// The TCU BDI may come with the budget (as PATCH …/bdi takes it).
	var missing domain.Validation
	tcu := readBDIPatch(b, &missing)
	_, withParts := b.attrs["bdi_components"]
	if _, withRate := b.attrs["bdi"]; withRate && withParts {
		b.wrong.Add(b.attrPointer("bdi"), "give bdi (the rate) or bdi_components (the rate from its parts), not both")
	}
	if err := b.finish(budgetReadOnly...); err != nil {
		h.writeError(w, r, err)
		return
	}
	in := app.BudgetInput{
		Code: deref(pt.Code), Description: deref(pt.Description), Client: deref(pt.Client),
		State: deref(pt.State), Tags: deref(pt.Tags), Desonerado: deref(pt.Desonerado), BDI: deref(pt.BDI),
		BDIMode: deref(pt.BDIMode), Rounding: deref(pt.Rounding), Banks: pt.Banks, Items: pt.Items, TCU: &tcu,
		ART: deref(pt.ART), IssueDate: deref(pt.IssueDate), LabourCharges: deref(pt.LabourCharges),
	}
	pb, err := h.env.App.Rejecting(b.rejected).Rejecting(missing.Fields).CreateBudget(r.Context(), principal(r), in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, pb.ID))
	h.writeDoc(w, r, http.StatusCreated, h.budgetDoc(pb, true))
}

// getBudget handles GET /budgets/{id}: the budget with its whole tree
// (include=user,sector).
func (h *handlers) getBudget(w http.ResponseWriter, r *http.Request) {
	_, inc, err := readQuery(r, ownedRels)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	pb, err := h.env.App.Budget(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeRead(w, r, h.budgetDoc(pb, true), inc)
}

// updateBudget handles PATCH /budgets/{id}: the attributes named change;
// banks and items, when present, replace the budget's (a new tree gets new
// node ids).
func (h *handlers) updateBudget(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	b, pt, ok := readPatch(h, w, r, "budgets", id, budgetPatch, budgetReadOnly...)
	if !ok {
		return
	}
	pb, err := h.env.App.Rejecting(b.rejected).UpdateBudget(r.Context(), principal(r), id, pt)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeDoc(w, r, http.StatusOK, h.budgetDoc(pb, true))
}

// deleteBudget handles DELETE /budgets/{id}: 204.
func (h *handlers) deleteBudget(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteBudget(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	noContent(w)
}

// optional is a member of a request body that may be absent, null or a
// value: Set tells absent from the rest, and null leaves the zero value.
type optional[T any] struct {
	Set   bool
	Value T
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(bytes.TrimSpace(b)) == "null" {
		var zero T
		o.Value = zero
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// NumberErrors implements httpapi.NumberErrorer: the problems of the
// numbers in the value, named from ptr.
func (o optional[T]) NumberErrors(ptr string) []domain.FieldError {
	return httpapi.NumberErrors(o.Value, ptr)
}

// decodeMembers reads a plain JSON object body into v. Members of the
// wrong JSON type are 400; then top-level members not in known are 422: a
// misspelt member ("qty") must not be ignored, as if it changed nothing.
func decodeMembers(r *http.Request, v any, known ...string) error {
	var whole json.RawMessage
	if err := httpapi.DecodeJSON(r, &whole); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(whole, &raw); err != nil || raw == nil {
		return domain.Errorf(domain.EBADREQUEST, "the request body must be a JSON object")
	}
	if err := httpapi.DecodeJSON(requestWith(r, whole), v); err != nil {
		return err
	}
	var bad domain.Validation
	for _, k := range sortedKeys(raw) {
		if !contains(known, k) {
			bad.Add("/"+k, "is not a member costdb knows here (members: %s)", strings.Join(known, ", "))
		}
	}
	if len(bad.Fields) > 0 {
		// One answer lists every bad member: the bad numbers too.
		bad.Fields = append(bad.Fields, httpapi.NumberErrors(v, "")...)
	}
	return bad.Err()
}

// requestWith is r with body b, to decode b again through DecodeJSON (for
// its error messages).
func requestWith(r *http.Request, b []byte) *http.Request {
	r2 := r.Clone(r.Context())
	r2.Body = readCloser{bytes.NewReader(b)}
	return r2
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// nodeAddBody is the body of POST /budgets/{id}/nodes: the node (a stage
// with what it holds, or a line) and where it goes.
type nodeAddBody struct {
	nodeIn
	ParentID optional[string] `json:"parent_id"`
	Position *int             `json:"position"`
}

// NumberErrors implements httpapi.NumberErrorer: the numbers of the node
// (an embedded unexported struct, which a reflective walk cannot read).
func (b nodeAddBody) NumberErrors(ptr string) []domain.FieldError {
	return httpapi.NumberErrors(b.nodeIn, ptr)
}

// addNode handles POST /budgets/{id}/nodes: 201 with the node added (and
// what it holds) and its figures, the budget's new totals in meta, and the
// node's Location.
func (h *handlers) addNode(w http.ResponseWriter, r *http.Request) {
	var body nodeAddBody
	if !h.readBody(w, r, &body, "parent_id", "position", "kind", "description", "bank", "code", "quantity", "items") {
		return
	}
	at := app.NodePlace{ParentID: body.ParentID.Value, Position: body.Position}
	pb, nodeID, err := h.env.RejectNumbers(body, "").AddBudgetNode(r.Context(), principal(r), chi.URLParam(r, "id"), at, body.nodeIn.input())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", created(r, nodeID))
	h.writeNode(w, r, http.StatusCreated, pb, nodeID)
}

// nodePatchBody is the body of PATCH /budgets/{id}/nodes/{node}: a
// stage's description, a line's quantity, and where the node moves
// (parent_id: a stage of the budget, or null or "" for the top level;
// position: from 0 among the new siblings). Naming either of parent_id and
// position moves the node; the one left out means the stage the node is in
// now, or the end.
type nodePatchBody struct {
	Description *string           `json:"description"`
	Quantity    optional[number]  `json:"quantity"`
	ParentID    optional[*string] `json:"parent_id"`
	Position    optional[*int]    `json:"position"`
}

// updateNode handles PATCH /budgets/{id}/nodes/{node}: 200 with the node
// as it now is (its figures, number and place) and the budget's new totals
// in meta. The change and the move happen together or not at all.
func (h *handlers) updateNode(w http.ResponseWriter, r *http.Request) {
	var body nodePatchBody
	if !h.readBody(w, r, &body, "description", "quantity", "parent_id", "position") {
		return
	}
	ch := app.NodeChange{NodePatch: app.NodePatch{Description: body.Description}}
	if body.Quantity.Set {
		q := body.Quantity.Value.D
		ch.Quantity = &q
	}
	if body.ParentID.Set || body.Position.Set {
		ch.Move = true
		if body.ParentID.Set {
			parent := ""
			if body.ParentID.Value != nil {
				parent = *body.ParentID.Value
			}
			ch.ParentID = &parent
		}
		ch.Position = body.Position.Value
	}
	nodeID := chi.URLParam(r, "node")
	pb, err := h.env.RejectNumbers(body, "").ChangeBudgetNode(r.Context(), principal(r), chi.URLParam(r, "id"), nodeID, ch)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNode(w, r, http.StatusOK, pb, nodeID)
}

// removeNode handles DELETE /budgets/{id}/nodes/{node}: 200 with a
// meta-only document (budgetnodes.go: removedMeta).
func (h *handlers) removeNode(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	nodeID := chi.URLParam(r, "node")
	pb, parent, err := h.env.App.RemoveBudgetNode(r.Context(), principal(r), chi.URLParam(r, "id"), nodeID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeMeta(w, r, http.StatusOK, h.removedMeta(pb, nodeID, parent))
}
