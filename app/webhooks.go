package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	mathrand "math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// Webhooks (docs/webhooks.md): a company's endpoints and the outbox of
// their deliveries. An event is written, one delivery per endpoint that
// wants it, in the transaction of the change it reports (emit), so a crash
// neither loses nor invents one; an adapter (adapters/webhooks) claims the
// due deliveries, sends them signed and records each outcome.

// WebhookTx is what a store's transaction offers to keep webhooks and
// their deliveries; a store without it keeps none (emit writes nothing,
// the webhook use cases answer an internal error).
type WebhookTx interface {
	PutWebhook(w *domain.Webhook) error
	// Webhook returns the webhook; ENOTFOUND when none.
	Webhook(id string) (*domain.Webhook, error)
	// Webhooks lists a company's webhooks in creation (ID) order; every
	// company's for companyID "".
	Webhooks(companyID string) ([]*domain.Webhook, error)
	// DeleteWebhook deletes the webhook and its deliveries.
	DeleteWebhook(id string) error
	PutDelivery(d *domain.WebhookDelivery) error
	// Delivery returns the delivery; ENOTFOUND when none.
	Delivery(id string) (*domain.WebhookDelivery, error)
	// Deliveries lists a webhook's deliveries in ID order, at most limit
	// (the newest when there are more), of the state when state is not "".
	Deliveries(webhookID, state string, limit int) ([]*domain.WebhookDelivery, error)
	// ClaimDeliveries leases until `until` at most n pending deliveries
	// of active webhooks due at now, each the oldest pending one of its
	// webhook and leased by no one (a lease ended at now is no lease); an
	// inactive webhook's wait, untouched. On PostgreSQL rows another
	// transaction holds are skipped (FOR UPDATE SKIP LOCKED), so several
	// servers never claim one delivery at once.
	ClaimDeliveries(now, until time.Time, n int) ([]*domain.WebhookDelivery, error)
}

func webhookTx(tx Tx) (WebhookTx, error) {
	w, ok := Optional[WebhookTx](tx)
	if !ok {
		return nil, domain.Errorf(domain.EINTERNAL, "this store keeps no webhooks")
	}
	return w, nil
}

// MaxWebhooks caps a company's webhooks.
const MaxWebhooks = 20

// WebhookInput is what a client sets on a webhook.
type WebhookInput struct {
	URL    string
	Events []string
	Active *bool // nil: true on creation, unchanged on update
}

func (in WebhookInput) apply(w *domain.Webhook) {
	w.URL = strings.TrimSpace(in.URL)
	w.Events = slices.Clone(in.Events)
	slices.Sort(w.Events)
	w.Events = slices.Compact(w.Events)
	if in.Active != nil {
		w.Active = *in.Active
	}
}

// checkWebhook checks the fields, then (when the fields are right) asks
// the configured check whether the URL may be reached.
func (s *Service) checkWebhook(ctx context.Context, w *domain.Webhook) error {
	if err := w.Validate(); err != nil {
		return err
	}
	if s.cfg.WebhookURLCheck == nil {
		return nil
	}
	u, _ := url.Parse(w.URL)
	if err := s.cfg.WebhookURLCheck(ctx, u); err != nil {
		return domain.FieldErrorf("/url", "%v", err)
	}
	return nil
}

// CreateWebhook registers an endpoint of the caller's company, with a new
// secret (given in the answer, and never again).
func (s *Service) CreateWebhook(ctx context.Context, p domain.Principal, in WebhookInput) (*domain.Webhook, error) {
	now := s.now()
	w := &domain.Webhook{ID: NewID(now), CompanyID: p.CompanyID, Active: true, CreatedAt: now, Secret: newWebhookSecret()}
	in.apply(w)
	if err := s.checkWebhook(ctx, w); err != nil {
		return nil, err
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		list, err := wt.Webhooks(p.CompanyID)
		if err != nil {
			return err
		}
		if len(list) >= MaxWebhooks {
			return domain.Errorf(domain.ECONFLICT, "the company has %d webhooks, the most it may have: delete one first", len(list))
		}
		return wt.PutWebhook(w)
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// newWebhookSecret is 256 random bits, as text ("whsec_" and base64url).
func newWebhookSecret() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return "whsec_" + base64.RawURLEncoding.EncodeToString(b[:])
}

// Webhooks lists the caller's company's webhooks.
func (s *Service) Webhooks(ctx context.Context, p domain.Principal) ([]*domain.Webhook, error) {
	var out []*domain.Webhook
	err := s.store.View(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		out, err = wt.Webhooks(p.CompanyID)
		return err
	})
	return out, err
}

// webhook reads a webhook of the caller's company (another company's is
// not found).
func webhook(wt WebhookTx, p domain.Principal, id string) (*domain.Webhook, error) {
	w, err := wt.Webhook(id)
	if err != nil {
		return nil, err
	}
	if err := inCompany(p, w.CompanyID, "webhook", id); err != nil {
		return nil, err
	}
	return w, nil
}

// Webhook returns one webhook of the caller's company.
func (s *Service) Webhook(ctx context.Context, p domain.Principal, id string) (*domain.Webhook, error) {
	var out *domain.Webhook
	err := s.store.View(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		out, err = webhook(wt, p, id)
		return err
	})
	return out, err
}

// WebhookPatch names the fields of a webhook to change.
type WebhookPatch struct {
	URL    *string
	Events *[]string
	Active *bool
}

// UpdateWebhook changes the fields the patch names (the secret stays),
// read and written in one transaction; a new URL is checked for reach
// before it (a name lookup does not belong in a write transaction).
func (s *Service) UpdateWebhook(ctx context.Context, p domain.Principal, id string, patch WebhookPatch) (*domain.Webhook, error) {
	if patch.URL != nil && s.cfg.WebhookURLCheck != nil {
		probe := &domain.Webhook{URL: strings.TrimSpace(*patch.URL), Events: []string{domain.EventBudgetFrozen}}
		if err := s.checkWebhook(ctx, probe); err != nil {
			return nil, err
		}
	}
	var out *domain.Webhook
	err := s.store.Update(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		w, err := webhook(wt, p, id)
		if err != nil {
			return err
		}
		in := WebhookInput{URL: w.URL, Events: w.Events, Active: patch.Active}
		set(&in.URL, patch.URL)
		set(&in.Events, patch.Events)
		in.apply(w)
		if err := w.Validate(); err != nil {
			return err
		}
		out = w
		return wt.PutWebhook(w)
	})
	return out, err
}

// DeleteWebhook deletes a webhook of the caller's company and its
// deliveries.
func (s *Service) DeleteWebhook(ctx context.Context, p domain.Principal, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		if _, err := webhook(wt, p, id); err != nil {
			return err
		}
		return wt.DeleteWebhook(id)
	})
}

// MaxDeliveriesListed caps a list of deliveries.
const MaxDeliveriesListed = 500

// WebhookDeliveries lists the deliveries of a webhook of the caller's
// company (of one state when state is not ""), oldest first, the newest
// MaxDeliveriesListed at most.
func (s *Service) WebhookDeliveries(ctx context.Context, p domain.Principal, id, state string) ([]*domain.WebhookDelivery, error) {
	if state != "" && !domain.ValidDeliveryState(state) {
		return nil, domain.FieldErrorf("/state", "%q is not a state: pending, delivered or dead", state)
	}
	var out []*domain.WebhookDelivery
	err := s.store.View(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		if _, err := webhook(wt, p, id); err != nil {
			return err
		}
		out, err = wt.Deliveries(id, state, MaxDeliveriesListed)
		return err
	})
	return out, err
}

// ReplayDelivery puts a delivery of a webhook of the caller's company
// back in line (domain.WebhookDelivery.Replay): due now, with a new retry
// window, the same id.
func (s *Service) ReplayDelivery(ctx context.Context, p domain.Principal, id, deliveryID string) (*domain.WebhookDelivery, error) {
	var out *domain.WebhookDelivery
	err := s.store.Update(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		if _, err := webhook(wt, p, id); err != nil {
			return err
		}
		d, err := wt.Delivery(deliveryID)
		if err != nil {
			return err
		}
		if d.WebhookID != id {
			return domain.Errorf(domain.ENOTFOUND, "webhook %s has no delivery %s", id, deliveryID)
		}
		if d.State == domain.DeliveryPending {
			return domain.Errorf(domain.ECONFLICT, "delivery %s is pending: it is tried again at %s", d.ID, d.NextAt.Format(time.RFC3339))
		}
		d.Replay(s.now())
		out = d
		return wt.PutDelivery(d)
	})
	return out, err
}

// emit writes the event, one delivery per webhook that wants it: the
// company's webhooks, or every company's for companyID "" (reference data).
// It runs in the transaction of the change it reports. A store that keeps
// no webhooks writes nothing.
func (s *Service) emit(tx Tx, companyID, event, resource string, data map[string]any) error {
	wt, ok := Optional[WebhookTx](tx)
	if !ok {
		return nil
	}
	hooks, err := wt.Webhooks(companyID)
	if err != nil {
		return err
	}
	var body []byte
	now := s.now()
	for _, w := range hooks {
		if !w.Wants(event) {
			continue
		}
		if body == nil {
			if body, err = json.Marshal(data); err != nil {
				return err
			}
		}
		d := &domain.WebhookDelivery{ID: NewID(now), WebhookID: w.ID, CompanyID: w.CompanyID, Event: event, Resource: resource,
			Data: body, CreatedAt: now, Since: now, State: domain.DeliveryPending, NextAt: now}
		if err := wt.PutDelivery(d); err != nil {
			return err
		}
	}
	return nil
}

// ClaimedDelivery is a delivery to make: the delivery and its webhook's
// URL and secret.
type ClaimedDelivery struct {
	Delivery *domain.WebhookDelivery
	URL      string
	Secret   string
}

// ClaimDeliveries leases, for lease, at most n deliveries due now (each
// the oldest pending of its webhook), for a dispatcher to send.
func (s *Service) ClaimDeliveries(ctx context.Context, n int, lease time.Duration) ([]ClaimedDelivery, error) {
	var out []ClaimedDelivery
	err := s.store.Update(ctx, func(tx Tx) error {
		out = out[:0]
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		now := s.now()
		list, err := wt.ClaimDeliveries(now, now.Add(lease), n)
		if err != nil {
			return err
		}
		for _, d := range list {
			w, err := wt.Webhook(d.WebhookID)
			if err != nil {
				return err
			}
			out = append(out, ClaimedDelivery{Delivery: d, URL: w.URL, Secret: w.Secret})
		}
		return nil
	})
	return out, err
}

// FinishDelivery records the outcome of a claimed delivery: delivered, or
// failed with why (tried again by policy, or dead past its window). A
// delivery gone meanwhile (its webhook deleted) is no error.
func (s *Service) FinishDelivery(ctx context.Context, id string, ok bool, why string, policy domain.RetryPolicy) error {
	return s.store.Update(ctx, func(tx Tx) error {
		wt, err := webhookTx(tx)
		if err != nil {
			return err
		}
		d, err := wt.Delivery(id)
		if isNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.State != domain.DeliveryPending {
			return nil
		}
		now := s.now()
		if ok {
			d.Delivered(now)
		} else {
			policy.Failed(d, now, why, jitter())
		}
		return wt.PutDelivery(d)
	})
}

// The resources events name, under the server's public URL.
func budgetVersionPath(budgetID string, n int) string {
	return "/api/public/v2/budgets/" + budgetID + "/versions/" + strconv.Itoa(n)
}

func contractPath(id string) string { return "/api/public/v2/contracts/" + id }

// jitter is the randomness of retry waits.
func jitter() *mathrand.Rand {
	return mathrand.New(mathrand.NewPCG(uint64(time.Now().UnixNano()), 0x9e3779b97f4a7c15))
}
