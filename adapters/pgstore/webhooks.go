package pgstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/jackc/pgx/v5"
)

// Webhooks (app.WebhookTx): tables webhooks and webhook_deliveries
// (migration 0013), each record's JSON in body. ClaimDeliveries takes the
// oldest pending delivery of each webhook, due and not leased, FOR UPDATE
// SKIP LOCKED, and leases it in the same transaction: a second server's
// claim skips the rows the first holds, then sees them leased.

var _ app.WebhookTx = (*tx)(nil)

func (t *tx) PutWebhook(w *domain.Webhook) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if w == nil || w.ID == "" || w.CompanyID == "" {
		return errors.New("pgstore: a webhook needs an ID and a company")
	}
	body, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO webhooks (id, company_id, body) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET company_id = EXCLUDED.company_id, body = EXCLUDED.body`, w.ID, w.CompanyID, body)
}

// jsonRows decodes the body column of each row.
func jsonRows[T any](t *tx, sql string, args ...any) ([]*T, error) {
	out := []*T{}
	err := t.query(sql, args, func(rows pgx.Rows) error {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return err
		}
		v := new(T)
		if err := json.Unmarshal(body, v); err != nil {
			return fmt.Errorf("pgstore: corrupt record: %w", err)
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

func (t *tx) Webhook(id string) (*domain.Webhook, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	ws, err := jsonRows[domain.Webhook](t, `SELECT body FROM webhooks WHERE id = $1`, id)
	if err != nil {
		return nil, err
	}
	if len(ws) == 0 {
		return nil, notFound("webhook %s not found", id)
	}
	return ws[0], nil
}

func (t *tx) Webhooks(companyID string) ([]*domain.Webhook, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if companyID == "" {
		return jsonRows[domain.Webhook](t, `SELECT body FROM webhooks ORDER BY id`)
	}
	return jsonRows[domain.Webhook](t, `SELECT body FROM webhooks WHERE company_id = $1 ORDER BY id`, companyID)
}

func (t *tx) DeleteWebhook(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	return t.exec(`DELETE FROM webhooks WHERE id = $1`, id) // its deliveries cascade
}

func (t *tx) PutDelivery(d *domain.WebhookDelivery) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if d == nil || d.ID == "" || d.WebhookID == "" {
		return errors.New("pgstore: a delivery needs an ID and a webhook")
	}
	body, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return t.exec(`INSERT INTO webhook_deliveries (id, webhook_id, state, next_at, lease_until, body) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, next_at = EXCLUDED.next_at, lease_until = EXCLUDED.lease_until, body = EXCLUDED.body`,
		d.ID, d.WebhookID, d.State, nullTime(d.NextAt), nullTime(d.LeaseUntil), body)
}

// nullTime is NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

func (t *tx) Delivery(id string) (*domain.WebhookDelivery, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	ds, err := jsonRows[domain.WebhookDelivery](t, `SELECT body FROM webhook_deliveries WHERE id = $1`, id)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, notFound("delivery %s not found", id)
	}
	return ds[0], nil
}

func (t *tx) Deliveries(webhookID, state string, limit int) ([]*domain.WebhookDelivery, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 1 << 30
	}
	return jsonRows[domain.WebhookDelivery](t, `SELECT body FROM (
		SELECT id, body FROM webhook_deliveries WHERE webhook_id = $1 AND ($2 = '' OR state = $2) ORDER BY id DESC LIMIT $3) d
		ORDER BY id`, webhookID, state, limit)
}

func (t *tx) ClaimDeliveries(now, until time.Time, n int) ([]*domain.WebhookDelivery, error) {
	if err := t.canWrite(); err != nil {
		return nil, err
	}
	ds, err := jsonRows[domain.WebhookDelivery](t, `SELECT d.body FROM webhook_deliveries d
		WHERE d.id IN (SELECT DISTINCT ON (webhook_id) id FROM webhook_deliveries WHERE state = 'pending' ORDER BY webhook_id, id)
		  AND d.next_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
		  AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND (w.body->>'Active')::boolean)
		ORDER BY d.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED`, now, n)
	if err != nil {
		return nil, err
	}
	for _, d := range ds {
		d.LeaseUntil = until
		if err := t.PutDelivery(d); err != nil {
			return nil, err
		}
	}
	return ds, nil
}
