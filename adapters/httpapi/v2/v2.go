// Package v2 is the JSON:API generation of costdb's HTTP API, mounted at
// /api/public/v2. Responses are JSON:API 1.1 documents (media type
// application/vnd.api+json) marshalled with google/jsonapi; request bodies are
// read with encoding/json, both as the plain JSON the seed shows and, where a
// record is created or updated, as a JSON:API document. Errors are JSON:API
// errors documents, one error object per problem, with a JSON pointer into
// the request body where the problem has a field.
//
// Handlers are thin: decode, map to an app input, call the one app method,
// map the result, encode. Every rule lives in app or domain.
//
// Contract decisions that are not in the seed are written next to the code
// that makes them; the main ones:
//
//   - A composition carries the seed's attribute `type` (the class code),
//     which real clients read although JSON:API reserves the name, and the
//     same value as `composition_type` for JSON:API libraries; a resource's
//     type is `resource_type`. Requests may use either name, or both when
//     they agree.
//   - Every relationship has links.related; reads take include= (include.go).
//   - Item ids inside a composition's `items` are "<BANK>:<C|R>:<code>"
//     (see itemID).
//   - Unknown query parameters answer 400; unknown attributes in a create or
//     update body answer 422; read-only attributes echoed back are ignored.
package v2

import (
	"mime"
	"net/http"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/jsonapi"
)

// mediaType is the JSON:API media type.
const mediaType = jsonapi.MediaType

// handlers holds what every v2 handler needs.
type handlers struct {
	env  *httpapi.Env
	root chi.Router
}

// Routes returns the v2 router, to be mounted at /api/public/v2:
//
//	POST   /authenticate
//	GET    /enums                                        the catalogues (types, units, states…)
//	GET    /enums/{catalog}                              one catalogue's codes and names
//	GET    /users/{id}, /sectors/{id}                    a user (name, e-mail), a sector (department) of the company
//	GET    /banks, /banks/{id}                           imported bank editions (banks.go)
//	GET    /banks/{id}/items, /banks/{id}/items/{code}   an edition's items, one item with its structure
//	GET    /banks/{bank}/labour-charges                  a bank's labour charges tables (chargestables.go)
//	POST   /prices/bulk                                  up to 1,000 bank or own items priced at once (bulkprices.go)
//	GET    /my_database/compositions                     list (page[number], page[size], sort, filter[…])
//	POST   /my_database/compositions                     create → 201 + Location
//	GET    /my_database/compositions/find_by_code        ?code=&state=
//	GET    /my_database/compositions/{id}                detail, with every item
//	PATCH  /my_database/compositions/{id}                the attributes named change
//	DELETE /my_database/compositions/{id}                → 204
//	POST   /my_database/compositions/{id}/add_banks      {"banks":[…]}
//	POST   /my_database/compositions/{id}/add_items      {"items":[…]}
//	DELETE /my_database/compositions/{id}/remove_items   {"items":[…]}
//	GET, POST, GET/PATCH/DELETE {id}   /my_database/resources (and find_by_code?code=)
//	GET, POST, GET/PATCH/DELETE {id}   /my_database/groups
//	GET, POST, GET/PATCH/DELETE {id}   /budgets (budgets.go: list, create, detail…)
//	POST /budgets/{id}/nodes, GET/PATCH/DELETE /budgets/{id}/nodes/{node}
//	GET  /budgets/{id}/reports/synthetic|analytic|abc|abc-services (JSON:API or CSV), …/abc.svg, …/abc-services.svg
//	GET/PATCH /budgets/{id}/bdi (estimator_bdi.go: the BDI as TCU checks it)
//	POST /banks/{id}/items/{code}/copy, /my_database/compositions/{id}/duplicate,
//	     /budgets/{id}/duplicate (estimator_copy.go)
//	POST /budgets/{id}/reprice/preview (JSON:API or CSV), /budgets/{id}/reprice (estimator_reprice.go)
//	POST/GET /budgets/{id}/versions, GET …/versions/{version}[/reports/…|/compare/{other}] (estimator_versions.go)
//	GET/PATCH /company/profile, GET/PUT/DELETE /company/profile/logo (profile.go)
//
// The lists take sort=field,-field and filter[name]=value on the fields
// app.Service.Groups, Resources and Compositions name; an unknown field or
// filter, or a bad filter value, is 400 with source.parameter, one error
// object per parameter. Reads of records with relationships take
// include=user,sector,group (those the record type has).
//
// Every answer is a JSON:API document. Every route but /authenticate needs
// "Authorization: Bearer <token>" (v2 takes no bare token). A panic answers
// a 500 errors document; bodies are capped at env.MaxBodyBytes (413).
func Routes(env *httpapi.Env) http.Handler {
	r := chi.NewRouter()
	h := &handlers{env: env, root: r}
	r.NotFound(h.notFound)
	r.MethodNotAllowed(h.methodNotAllowed)
	r.Use(env.Recoverer(h.writePanic))
	r.Use(middleware.StripSlashes)
	r.Use(httpapi.RememberRoutePath)
	r.Use(negotiate)
	r.Use(httpapi.LimitBody(env.MaxBodyBytes))
	r.Use(h.requireJSON) // httpapi.RequireJSON, but for the logo (profile.go)

	r.Post("/authenticate", h.authenticate)

	env.Authenticated(r, false, h.writeError, narrow, func(r chi.Router) {
		r.Get("/enums", h.listEnums)
		r.Get("/enums/{catalog}", h.getEnum)
		// What the relationships user and sector name (users.go).
		r.Get("/users/{id}", h.getUser)
		r.Get("/sectors/{id}", h.getSector)
		// The bank catalogue (banks.go).
		r.Get("/banks", h.listBanks)
		r.Get("/banks/{id}", h.getBank)
		r.Get("/banks/{id}/items", h.listBankItems)
		r.Get("/banks/{id}/labour-charges", h.listLabourCharges)
		r.Get("/banks/{id}/items/{code}", h.getBankItem)
		r.Get(searchPath, h.search)
		r.Get(bankChangesPath, h.listBankChanges)
		r.Get(whereUsedPath, h.bankChangesWhereUsed)
		r.Post("/banks/{id}/items/{code}/copy", h.copyBankComposition)
		r.Get("/price_history/{code}", h.priceHistory)
		r.Get("/price_history/{code}/chart.svg", h.priceChart)
		r.Post(bulkPath, h.priceBulk) // bulkprices.go

		const c, res, g = "/my_database/compositions", "/my_database/resources", "/my_database/groups"
		r.Get(c, h.listCompositions)
		r.Post(c, h.createComposition)
		r.Get(c+"/find_by_code", h.findComposition)
		r.Get(c+"/{id}", h.getComposition)
		r.Patch(c+"/{id}", h.updateComposition)
		r.Delete(c+"/{id}", h.deleteComposition)
		r.Post(c+"/{id}/add_banks", h.addBanks)
		r.Post(c+"/{id}/add_items", h.addItems)
		r.Delete(c+"/{id}/remove_items", h.removeItems)
		r.Post(c+"/{id}/duplicate", h.duplicateComposition)
		r.Get("/my_database/export", h.exportCompany)
		r.Get(profilePath, h.getProfile)
		r.Patch(profilePath, h.updateProfile)
		r.Get(logoPath, h.getLogo)
		r.Put(logoPath, h.putLogo)
		r.Delete(logoPath, h.deleteLogo)
		r.Post("/my_database/import", h.importCompany)

		r.Get(res, h.listResources)
		r.Post(res, h.createResource)
		r.Get(res+"/find_by_code", h.findResource)
		r.Get(res+"/{id}", h.getResource)
		r.Patch(res+"/{id}", h.updateResource)
		r.Delete(res+"/{id}", h.deleteResource)

		r.Get(g, h.listGroups)
		r.Post(g, h.createGroup)
		r.Get(g+"/{id}", h.getGroup)
		r.Patch(g+"/{id}", h.updateGroup)
		r.Delete(g+"/{id}", h.deleteGroup)

		// Budgets and their reports (budgets.go, reports.go).
		const bud = "/budgets"
		r.Get(bud, h.listBudgets)
		r.Post(bud, h.createBudget)
		r.Post(bud+"/import", h.importBudgetSheet)
		r.Get(bud+"/{id}", h.getBudget)
		r.Patch(bud+"/{id}", h.updateBudget)
		r.Delete(bud+"/{id}", h.deleteBudget)
		r.Post(bud+"/{id}/nodes", h.addNode)
		r.Get(bud+"/{id}/nodes/{node}", h.getNode)
		r.Patch(bud+"/{id}/nodes/{node}", h.updateNode)
		r.Delete(bud+"/{id}/nodes/{node}", h.removeNode)
		r.Get(bud+"/{id}/reports/synthetic", h.syntheticReport)
		r.Get(bud+"/{id}/reports/analytic", h.analyticReport)
		r.Get(bud+"/{id}/reports/abc", h.abcReport)
		r.Get(bud+"/{id}/reports/abc.svg", h.abcChart)
		r.Get(bud+"/{id}/reports/abc-services", h.abcServicesReport)
		r.Get(bud+"/{id}/reports/abc-services.svg", h.abcServicesChart)
		r.Get(bud+"/{id}/bdi", h.getBudgetBDI)
		r.Patch(bud+"/{id}/bdi", h.updateBudgetBDI)
		r.Post(bud+"/{id}/duplicate", h.duplicateBudget)
		r.Post(bud+"/{id}/reprice/preview", h.repricePreview)
		r.Post(bud+"/{id}/reprice", h.reprice)
		r.Post(bud+"/{id}/versions", h.freezeBudget)
		r.Get(bud+"/{id}/versions", h.listVersions)
		r.Get(bud+"/{id}/versions/{version}", h.getVersion)
		r.Get(bud+"/{id}/versions/{version}/reports/synthetic", h.versionReport(h.syntheticReport))
		r.Get(bud+"/{id}/versions/{version}/reports/analytic", h.versionReport(h.analyticReport))
		r.Get(bud+"/{id}/versions/{version}/reports/abc", h.versionReport(h.abcReport))
		r.Get(bud+"/{id}/versions/{version}/reports/abc-services", h.versionReport(h.abcServicesReport))
		r.Get(bud+"/{id}/versions/{version}/compare/{other}", h.compareVersions)
		r.Get(bud+"/{id}/proposal", h.proposal)
		r.Get(bud+"/{id}/versions/{version}/proposal", h.versionReport(h.proposal))
		r.Get(bud+"/{id}/proposal/target", h.proposalForTarget)
		r.Put(bud+"/{id}/schedule", h.putSchedule)
		r.Get(bud+"/{id}/schedule", h.getSchedule)
		r.Delete(bud+"/{id}/schedule", h.deleteSchedule)
		r.Get(bud+"/{id}/schedule/table", h.scheduleTable)
		r.Get(bud+"/{id}/versions/{version}/schedule/table", h.versionReport(h.scheduleTable))
		r.Put(bud+"/{id}/versions/{version}/schedule", h.versionReport(h.putSchedule))
		r.Get(bud+"/{id}/versions/{version}/schedule", h.versionReport(h.getSchedule))
		r.Delete(bud+"/{id}/versions/{version}/schedule", h.versionReport(h.deleteSchedule))
		r.Get(bud+"/{id}/schedule/s-curve.svg", h.scheduleChart)
		r.Get(bud+"/{id}/versions/{version}/schedule/s-curve.svg", h.versionReport(h.scheduleChart))
		for _, kind := range []string{"xlsx", "pdf"} {
			r.Get(bud+"/{id}/schedule/table."+kind, h.reportDocument("schedule", kind, false))
			r.Get(bud+"/{id}/versions/{version}/schedule/table."+kind, h.reportDocument("schedule", kind, true))
		}
		r.Get("/indexes", h.listIndexes)
		r.Get("/indexes/{id}", h.getIndex)
		r.Put("/indexes/{id}", h.putIndex)
		r.Delete("/indexes/{id}", h.deleteIndex)
		r.Post("/readjustments", h.readjust)
		r.Get(bud+"/{id}/versions/{version}/proposal/target", h.versionReport(h.proposalForTarget))
		for _, rep := range []string{"synthetic", "analytic", "abc", "abc-services"} {
			for _, kind := range []string{"xlsx", "pdf"} {
				r.Get(bud+"/{id}/reports/"+rep+"."+kind, h.reportDocument(rep, kind, false))
				r.Get(bud+"/{id}/versions/{version}/reports/"+rep+"."+kind, h.reportDocument(rep, kind, true))
			}
		}
		// Contracts, measurements and amendments (contracts.go).
		h.contractRoutes(r)
		h.contractProgressRoutes(r)
		h.contractDocumentRoutes(r)
		h.changeCauseRoutes(r)
		h.verifyRoutes(r)
		h.webhookRoutes(r)
		h.conformityRoutes(r)
	})
	return r
}

// negotiate applies JSON:API 1.1 content negotiation. A request body sent as
// application/vnd.api+json with a media type parameter other than profile is
// 415 (costdb implements no extension, so `ext` is unsupported too). An Accept
// header that names nothing costdb can answer with (the JSON:API media type
// without such parameters, application/json, or a wildcard) is 406. Plain
// application/json requests are fine: the seed sends them.
func negotiate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if mt, params, err := mime.ParseMediaType(ct); err == nil && mt == mediaType && !onlyProfile(params) {
				writeErrors(w, []errorObject{negotiationError(http.StatusUnsupportedMediaType,
					"the JSON:API media type in Content-Type must carry no parameter other than profile")})
				return
			}
		}
		if accepts := r.Header.Values("Accept"); len(accepts) > 0 && !acceptable(accepts) && !exportAccepted(r) && !logoAccepted(r) {
			writeErrors(w, []errorObject{negotiationError(http.StatusNotAcceptable,
				"Accept must allow application/vnd.api+json without parameters other than profile, application/json or */*")})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// acceptable reports whether the Accept header values allow an answer in
// the JSON:API media type.
func acceptable(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			mt, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok {
				if strings.Trim(q, "0.") == "" { // q=0, q=0.0…: not acceptable
					continue
				}
				delete(params, "q")
			}
			switch mt {
			case "*/*", "application/*", "application/json":
				return true
			case mediaType:
				if onlyProfile(params) {
					return true
				}
			}
		}
	}
	return false
}

func onlyProfile(params map[string]string) bool {
	for k := range params {
		if k != "profile" {
			return false
		}
	}
	return true
}

func (h *handlers) notFound(w http.ResponseWriter, r *http.Request) {
	writeErrors(w, []errorObject{{
		Status: "404", Code: "not_found", Title: titles["not_found"],
		Detail: "no such path: " + r.URL.Path,
	}})
}

func (h *handlers) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	if allowed := httpapi.AllowedMethods(h.root, httpapi.RoutePath(r)); len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
	}
	writeErrors(w, []errorObject{{
		Status: "405", Code: "method_not_allowed", Title: "Method not allowed",
		Detail: r.Method + " is not allowed on " + r.URL.Path,
	}})
}

// narrow is what a GET may read of the company's compositions
// (httpapi.Narrow): GET /my_database/compositions/{id} that one, the GETs
// of /my_database/resources none.
func narrow(r *http.Request) httpapi.Narrow {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return httpapi.Narrow{}
	}
	pat := rc.RoutePattern()
	switch {
	case strings.HasSuffix(pat, "/my_database/compositions/{id}"):
		return httpapi.Narrow{Composition: chi.URLParam(r, "id")}
	case strings.HasSuffix(pat, "/my_database/resources"), strings.HasSuffix(pat, "/my_database/resources/{id}"),
		strings.HasSuffix(pat, "/my_database/resources/find_by_code"):
		return httpapi.Narrow{NoCompositions: true}
	}
	return httpapi.Narrow{}
}
