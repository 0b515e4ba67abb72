package v2

import (
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/reports"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// Verifiable budgets (docs/verify.md):
//
//	GET /budgets/{id}/versions/{version}/content        the version as one self-contained JSON document
//	GET /budgets/{id}/versions/{version}/verification   the version checked against the editions held
//
// The content is the version's canonical encoding, byte for byte: its
// SHA-256 is the version's hash (printed in the version's PDF footer), and
// `costdb verify` recomputes it offline from the official files. The
// verification is JSON:API type "version-checks", id "<budget>:<version>".
func (h *handlers) verifyRoutes(r chi.Router) {
	r.Get("/budgets/{id}/versions/{version}/content", h.versionContent)
	r.Get("/budgets/{id}/versions/{version}/verification", h.versionVerification)
}

// versionContent handles GET /budgets/{id}/versions/{version}/content.
func (h *handlers) versionContent(w http.ResponseWriter, r *http.Request) {
	v, ok := h.version(w, r)
	if !ok {
		return
	}
	b, _, err := v.Open()
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Content-SHA256", v.Hash)
	httpapi.WriteExport(w, "application/json", "attachment", reports.VersionFilename(b, v.Number, "versao", "json"), v.Content)
}

// versionVerification handles GET /budgets/{id}/versions/{version}/verification.
func (h *handlers) versionVerification(w http.ResponseWriter, r *http.Request) {
	n, ok := h.versionRead(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	c, v, err := h.env.App.CheckVersion(r.Context(), principal(r), id, n)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: &jsonapi.Node{Type: "version-checks", ID: id + ":" + strconv.Itoa(n), Attributes: map[string]any{
		"ok": c.OK, "version": v.Number, "hash": v.Hash, "summary": c.String(), "files": c.Files,
		"unverifiable_editions": c.Unverifiable, "records_checked": c.Records, "differences": c.Differences,
		"total_with_bdi": httpapi.Money(c.Frozen.TotalWithBDI), "recomputed_total_with_bdi": httpapi.Money(c.Recomputed.TotalWithBDI),
	}}})
}
