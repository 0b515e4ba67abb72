package domain

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Webhooks (docs/webhooks.md): a company's endpoints, told of events as
// they happen. An event is written as one WebhookDelivery per endpoint
// that wants it, in the transaction of the change it reports (an outbox),
// then delivered, signed, and retried until it is delivered or its retry
// window is over (then it is dead: listed, and replayable).

// The events a webhook may want.
const (
	EventEditionImported     = "edition.imported"     // a bank edition imported or merged into (global)
	EventEditionReplaced     = "edition.replaced"     // a bank edition replaced whole (global)
	EventBankChanges         = "bank.changes"         // a change log touching codes the company uses
	EventBudgetFrozen        = "budget.frozen"        // a version of a budget frozen
	EventContractCreated     = "contract.created"     // a contract made from a version
	EventMeasurementApproved = "measurement.approved" // a contract's measurement approved
	EventAmendmentCreated    = "amendment.created"    // a contract's amendment recorded
)

// WebhookEvents are the events, in the order the documentation gives them.
var WebhookEvents = []string{EventEditionImported, EventEditionReplaced, EventBankChanges, EventBudgetFrozen,
	EventContractCreated, EventMeasurementApproved, EventAmendmentCreated}

// Webhook is one of a company's endpoints.
type Webhook struct {
	ID        string
	CompanyID string
	URL       string
	Events    []string // sorted, each one of WebhookEvents
	// Secret is the HMAC-SHA256 key its deliveries are signed with: given
	// once, when the webhook is created.
	Secret    string
	Active    bool
	CreatedAt time.Time
}

// Wants reports whether the webhook is active and wants the event.
func (w *Webhook) Wants(event string) bool {
	return w.Active && slices.Contains(w.Events, event)
}

// MaxWebhookURL caps a webhook's URL.
const MaxWebhookURL = 2048

// Validate checks a webhook's fields (the API's names): an absolute http or
// https URL with a host and without user info, and at least one event,
// each known. Whether the host may be reached is the adapter's check.
func (w *Webhook) Validate() error {
	var v Validation
	switch u, err := url.Parse(w.URL); {
	case w.URL == "":
		v.Add("/url", "is required")
	case len(w.URL) > MaxWebhookURL:
		v.Add("/url", "is longer than %d characters", MaxWebhookURL)
	case err != nil:
		v.Add("/url", "is not a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		v.Add("/url", "must be an http or https URL")
	case u.Host == "" || u.Hostname() == "":
		v.Add("/url", "has no host")
	case u.User != nil:
		v.Add("/url", "must not carry a user or password (sign with the secret)")
	case u.Fragment != "":
		v.Add("/url", "must not carry a fragment")
	}
	if len(w.Events) == 0 {
		v.Add("/events", "is required: one or more of %s", strings.Join(WebhookEvents, ", "))
	}
	for i, e := range w.Events {
		if !slices.Contains(WebhookEvents, e) {
			v.Add("/events/"+strconv.Itoa(i), "%q is not an event (%s)", e, strings.Join(WebhookEvents, ", "))
		}
	}
	return v.Err()
}

// The states of a delivery.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryDead      = "dead"
)

// ValidDeliveryState reports whether s is a delivery's state.
func ValidDeliveryState(s string) bool {
	return s == DeliveryPending || s == DeliveryDelivered || s == DeliveryDead
}

// WebhookDelivery is one event for one webhook: the outbox's row. Its ID
// is the event's id the receiver sees (the same on every retry); IDs are
// in creation order, the order a webhook's deliveries are made in.
type WebhookDelivery struct {
	ID        string
	WebhookID string
	CompanyID string
	Event     string
	// Resource is the path of the resource the event is about, under the
	// server's public URL ("/api/public/v2/budgets/…/versions/2").
	Resource string
	// Data are the event's few facts, as JSON (an object).
	Data      []byte
	CreatedAt time.Time // the event's time
	// Since is when its retry window opened: the event's time, or its
	// last replay's.
	Since    time.Time
	State    string
	Attempts int
	// NextAt is when the next attempt is due; LeaseUntil, while a server
	// delivers it, until when no other server may.
	NextAt      time.Time
	LeaseUntil  time.Time
	LastError   string
	DeliveredAt time.Time
}

// RetryPolicy says when a failed delivery is tried again: after Base,
// doubling with each attempt up to Max, each wait jittered by up to a
// fifth either way, until Window after the event; then it is dead.
type RetryPolicy struct {
	Base, Max, Window time.Duration
}

// DefaultRetryPolicy: 10 s, 20 s, 40 s… up to an hour between attempts,
// for 24 hours.
var DefaultRetryPolicy = RetryPolicy{Base: 10 * time.Second, Max: time.Hour, Window: 24 * time.Hour}

// Failed records a failed attempt at now: the next one's time, or the
// delivery dead when that would fall past the window.
func (p RetryPolicy) Failed(d *WebhookDelivery, now time.Time, why string, rnd *rand.Rand) {
	d.Attempts++
	d.LastError = why
	d.LeaseUntil = time.Time{}
	wait := p.Base
	for i := 1; i < d.Attempts && wait < p.Max; i++ {
		wait *= 2
	}
	wait = min(wait, p.Max)
	if rnd != nil { // ±20%
		wait += time.Duration((rnd.Float64()*0.4 - 0.2) * float64(wait))
	}
	next := now.Add(wait)
	if next.After(d.Since.Add(p.Window)) {
		d.State = DeliveryDead
		d.NextAt = time.Time{}
		return
	}
	d.NextAt = next
}

// Delivered records a delivery made at now.
func (d *WebhookDelivery) Delivered(now time.Time) {
	d.Attempts++
	d.State, d.DeliveredAt, d.LastError, d.LeaseUntil, d.NextAt = DeliveryDelivered, now, "", time.Time{}, time.Time{}
}

// Replay puts a dead (or delivered) delivery back in line, due now, with
// a new retry window; its id and time stay the event's.
func (d *WebhookDelivery) Replay(now time.Time) {
	d.State, d.Attempts, d.NextAt, d.LeaseUntil, d.LastError, d.DeliveredAt = DeliveryPending, 0, now, time.Time{}, "", time.Time{}
	d.Since = now
}
