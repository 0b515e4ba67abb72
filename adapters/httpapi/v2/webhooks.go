package v2

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// Webhooks (docs/webhooks.md), JSON:API types "webhooks" and
// "webhook-deliveries":
//
//	POST   /webhooks                                   register (the secret in the answer, once)
//	GET    /webhooks, /webhooks/{id}                   read (never the secret)
//	PATCH  /webhooks/{id}                              url, events, active
//	DELETE /webhooks/{id}                              with its deliveries
//	GET    /webhooks/{id}/deliveries[?filter[state]=dead]   the newest 500, oldest first
//	POST   /webhooks/{id}/deliveries/{delivery}/replay        back in line
func (h *handlers) webhookRoutes(r chi.Router) {
	r.Post("/webhooks", h.createWebhook)
	r.Get("/webhooks", h.listWebhooks)
	r.Get("/webhooks/{id}", h.getWebhook)
	r.Patch("/webhooks/{id}", h.updateWebhook)
	r.Delete("/webhooks/{id}", h.deleteWebhook)
	r.Get("/webhooks/{id}/deliveries", h.listDeliveries)
	r.Post("/webhooks/{id}/deliveries/{delivery}/replay", h.replayDelivery)
}

var (
	aWebhookURL    = attr{app: "url", names: []string{"url"}, kind: "string"}
	aWebhookEvents = attr{app: "events", names: []string{"events"}, kind: "array of strings"}
	aWebhookActive = attr{app: "active", names: []string{"active"}, kind: "boolean"}
	// webhookReadOnly are what v2 writes and ignores when sent back.
	webhookReadOnly = []string{"created_at", "secret"}
)

func webhookPatch(b *attrBody) app.WebhookPatch {
	return app.WebhookPatch{URL: read[string](b, aWebhookURL), Events: read[[]string](b, aWebhookEvents), Active: read[bool](b, aWebhookActive)}
}

func (h *handlers) webhookNode(w *domain.Webhook, secret bool) *jsonapi.Node {
	attrs := map[string]any{"url": w.URL, "events": w.Events, "active": w.Active, "created_at": h.env.FormatTime(w.CreatedAt)}
	if secret {
		attrs["secret"] = w.Secret
	}
	self := "/api/public/v2/webhooks/" + w.ID
	return &jsonapi.Node{Type: "webhooks", ID: w.ID, Attributes: attrs, Links: &jsonapi.Links{"self": self},
		Relationships: map[string]any{"deliveries": relatedOnly{Links: jsonapi.Links{"related": self + "/deliveries"}}}}
}

func (h *handlers) deliveryNode(d *domain.WebhookDelivery) *jsonapi.Node {
	at := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return h.env.FormatTime(t)
	}
	return &jsonapi.Node{Type: "webhook-deliveries", ID: d.ID, Attributes: map[string]any{
		"event": d.Event, "resource": d.Resource, "data": json.RawMessage(d.Data), "created_at": at(d.CreatedAt),
		"state": d.State, "attempts": d.Attempts, "next_attempt_at": at(d.NextAt), "last_error": d.LastError,
		"delivered_at": at(d.DeliveredAt),
	}}
}

// createWebhook handles POST /webhooks.
func (h *handlers) createWebhook(w http.ResponseWriter, r *http.Request) {
	b, in, ok := readPatch(h, w, r, "webhooks", "", webhookPatch, webhookReadOnly...)
	if !ok {
		return
	}
	wi := app.WebhookInput{Active: in.Active}
	if in.URL != nil {
		wi.URL = *in.URL
	}
	if in.Events != nil {
		wi.Events = *in.Events
	}
	wh, err := h.env.App.CreateWebhook(r.Context(), principal(r), wi)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	w.Header().Set("Location", created(r, wh.ID))
	h.writeNodesStatus(w, r, http.StatusCreated, &jsonapi.OnePayload{Data: h.webhookNode(wh, true)})
}

// listWebhooks handles GET /webhooks.
func (h *handlers) listWebhooks(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.env.App.Webhooks(r.Context(), principal(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	nodes := make([]*jsonapi.Node, len(list))
	for i, wh := range list {
		nodes[i] = h.webhookNode(wh, false)
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: totalMeta(len(nodes))})
}

// getWebhook handles GET /webhooks/{id}.
func (h *handlers) getWebhook(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	wh, err := h.env.App.Webhook(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.webhookNode(wh, false)})
}

// updateWebhook handles PATCH /webhooks/{id}.
func (h *handlers) updateWebhook(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	b, in, ok := readPatch(h, w, r, "webhooks", id, webhookPatch, webhookReadOnly...)
	if !ok {
		return
	}
	wh, err := h.env.App.UpdateWebhook(r.Context(), principal(r), id, in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.webhookNode(wh, false)})
}

// deleteWebhook handles DELETE /webhooks/{id}.
func (h *handlers) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteWebhook(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// listDeliveries handles GET /webhooks/{id}/deliveries.
func (h *handlers) listDeliveries(w http.ResponseWriter, r *http.Request) {
	q, err := query(r, "filter[state]")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	state := q.Get("filter[state]")
	if state != "" && !domain.ValidDeliveryState(state) {
		h.writeError(w, r, paramErrors{{Param: "filter[state]", Message: "must be pending, delivered or dead"}})
		return
	}
	list, err := h.env.App.WebhookDeliveries(r.Context(), principal(r), chi.URLParam(r, "id"), state)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	nodes := make([]*jsonapi.Node, len(list))
	for i, d := range list {
		nodes[i] = h.deliveryNode(d)
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: totalMeta(len(nodes))})
}

// replayDelivery handles POST /webhooks/{id}/deliveries/{delivery}/replay.
func (h *handlers) replayDelivery(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	d, err := h.env.App.ReplayDelivery(r.Context(), principal(r), chi.URLParam(r, "id"), chi.URLParam(r, "delivery"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.deliveryNode(d)})
}
