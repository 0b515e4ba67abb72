package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Webhooks (app.WebhookTx) live in buckets made on the first write:
// "webhooks" keyed by ID; "webhook_deliveries" keyed by webhook ID, NUL and
// delivery ID (a webhook's deliveries in creation order), with
// "webhook_delivery_ids" (delivery ID → webhook ID) to find one by ID and
// "webhook_pending" (the same keys as the deliveries, for the pending ones
// only), whose first key under a webhook is its oldest pending delivery.
// Values are the records' JSON. One process holds a bbolt file, so a lease
// only keeps a claimed delivery from being claimed again before its
// outcome is written.

var (
	bucketWebhooks          = []byte("webhooks")
	bucketWebhookDeliveries = []byte("webhook_deliveries")
	bucketWebhookDeliveryID = []byte("webhook_delivery_ids")
	bucketWebhookPending    = []byte("webhook_pending")
)

var _ app.WebhookTx = (*tx)(nil)

func deliveryKey(webhookID, id string) []byte { return []byte(webhookID + "\x00" + id) }

func (t *tx) PutWebhook(w *domain.Webhook) error {
	if w == nil || w.ID == "" || w.CompanyID == "" {
		return errors.New("boltstore: a webhook needs an ID and a company")
	}
	return t.putJSON(bucketWebhooks, []byte(w.ID), w)
}

func getJSON[T any](t *tx, bucket, key []byte, what string) (*T, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var data []byte
	if b := t.btx.Bucket(bucket); b != nil {
		data = b.Get(key)
	}
	if data == nil {
		return nil, notFound("%s %s not found", what, bytes.ReplaceAll(key, []byte{0}, []byte("/")))
	}
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf("boltstore: corrupt %s %q: %w", what, key, err)
	}
	return v, nil
}

func (t *tx) Webhook(id string) (*domain.Webhook, error) {
	return getJSON[domain.Webhook](t, bucketWebhooks, []byte(id), "webhook")
}

func (t *tx) Webhooks(companyID string) ([]*domain.Webhook, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.Webhook{}
	b := t.btx.Bucket(bucketWebhooks)
	if b == nil {
		return out, nil
	}
	err := b.ForEach(func(k, v []byte) error {
		var w domain.Webhook
		if err := json.Unmarshal(v, &w); err != nil {
			return fmt.Errorf("boltstore: corrupt webhook %s: %w", k, err)
		}
		if companyID == "" || w.CompanyID == companyID {
			out = append(out, &w)
		}
		return nil
	})
	return out, err
}

func (t *tx) DeleteWebhook(id string) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	prefix := []byte(id + "\x00")
	for _, name := range [][]byte{bucketWebhookDeliveries, bucketWebhookPending} {
		b := t.btx.Bucket(name)
		if b == nil {
			continue
		}
		var keys [][]byte
		c := b.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			keys = append(keys, append([]byte(nil), k...))
		}
		for _, k := range keys {
			if bytes.Equal(name, bucketWebhookDeliveries) { // their ID index too
				if ids := t.btx.Bucket(bucketWebhookDeliveryID); ids != nil {
					if err := ids.Delete(k[len(prefix):]); err != nil {
						return err
					}
				}
			}
			if err := b.Delete(k); err != nil {
				return err
			}
		}
	}
	if b := t.btx.Bucket(bucketWebhooks); b != nil {
		return b.Delete([]byte(id))
	}
	return nil
}

func (t *tx) PutDelivery(d *domain.WebhookDelivery) error {
	if d == nil || d.ID == "" || d.WebhookID == "" {
		return errors.New("boltstore: a delivery needs an ID and a webhook")
	}
	k := deliveryKey(d.WebhookID, d.ID)
	if err := t.putJSON(bucketWebhookDeliveries, k, d); err != nil {
		return err
	}
	ids, err := t.btx.CreateBucketIfNotExists(bucketWebhookDeliveryID)
	if err != nil {
		return err
	}
	if err := ids.Put([]byte(d.ID), []byte(d.WebhookID)); err != nil {
		return err
	}
	pending, err := t.btx.CreateBucketIfNotExists(bucketWebhookPending)
	if err != nil {
		return err
	}
	if d.State == domain.DeliveryPending {
		return pending.Put(k, nil)
	}
	return pending.Delete(k)
}

func (t *tx) Delivery(id string) (*domain.WebhookDelivery, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	var hook []byte
	if b := t.btx.Bucket(bucketWebhookDeliveryID); b != nil {
		hook = b.Get([]byte(id))
	}
	if hook == nil {
		return nil, notFound("delivery %s not found", id)
	}
	return getJSON[domain.WebhookDelivery](t, bucketWebhookDeliveries, deliveryKey(string(hook), id), "delivery")
}

func (t *tx) Deliveries(webhookID, state string, limit int) ([]*domain.WebhookDelivery, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []*domain.WebhookDelivery{}
	b := t.btx.Bucket(bucketWebhookDeliveries)
	if b == nil {
		return out, nil
	}
	prefix := []byte(webhookID + "\x00")
	c := b.Cursor()
	// Newest first from the end of the webhook's keys, then reversed.
	k, v := c.Seek(append(append([]byte(nil), prefix[:len(prefix)-1]...), 1))
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
		var d domain.WebhookDelivery
		if err := json.Unmarshal(v, &d); err != nil {
			return nil, fmt.Errorf("boltstore: corrupt delivery %q: %w", k, err)
		}
		if state == "" || d.State == state {
			out = append(out, &d)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func (t *tx) ClaimDeliveries(now, until time.Time, n int) ([]*domain.WebhookDelivery, error) {
	if err := t.canWrite(); err != nil {
		return nil, err
	}
	out := []*domain.WebhookDelivery{}
	b := t.btx.Bucket(bucketWebhookPending)
	if b == nil {
		return out, nil
	}
	var heads [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil; {
		heads = append(heads, append([]byte(nil), k...))
		hook := k[:bytes.IndexByte(k, 0)+1]
		k, _ = c.Seek(append(append([]byte(nil), hook[:len(hook)-1]...), 1)) // the next webhook's first
	}
	for _, k := range heads {
		if len(out) >= n {
			break
		}
		d, err := getJSON[domain.WebhookDelivery](t, bucketWebhookDeliveries, k, "delivery")
		if err != nil {
			return nil, err
		}
		if d.NextAt.After(now) || d.LeaseUntil.After(now) {
			continue
		}
		if w, err := t.Webhook(d.WebhookID); err != nil {
			return nil, err
		} else if !w.Active { // held while inactive
			continue
		}
		d.LeaseUntil = until
		if err := t.putJSON(bucketWebhookDeliveries, k, d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
