package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// testWebhooks checks app.WebhookTx, for a store that offers it: webhooks
// by company (every company's for ""), deliveries by ID, listed by webhook
// in ID order (of a state, the newest n), a webhook's deletion taking its
// deliveries, and claims: only the oldest pending delivery of each webhook,
// only when due and not leased, leased until the time given; concurrent
// claimers never claim one delivery twice.
func testWebhooks(t *testing.T, s app.Store) {
	var supported bool
	view(t, s, func(tx app.Tx) error { _, supported = tx.(app.WebhookTx); return nil })
	if !supported {
		t.Skip("the store keeps no webhooks")
	}
	wt := func(tx app.Tx) app.WebhookTx { return tx.(app.WebhookTx) }
	t0 := tUTC
	w1 := &domain.Webhook{ID: "wh1", CompanyID: coA, URL: "https://erp.example.com/costdb", Events: []string{domain.EventBudgetFrozen},
		Secret: "whsec_1", Active: true, CreatedAt: tBRT}
	w2 := &domain.Webhook{ID: "wh2", CompanyID: coB, URL: "http://b.example.com/h", Events: []string{domain.EventEditionImported},
		Secret: "whsec_2", Active: true, CreatedAt: tUTC}
	d := func(id, hook, state string, next time.Time) *domain.WebhookDelivery {
		return &domain.WebhookDelivery{ID: id, WebhookID: hook, CompanyID: coA, Event: domain.EventBudgetFrozen,
			Resource: "/api/public/v2/budgets/b/versions/1", Data: []byte(`{"version":1}`), CreatedAt: t0, Since: t0,
			State: state, NextAt: next}
	}
	d1, d2, d3 := d("d1", "wh1", domain.DeliveryPending, t0), d("d2", "wh1", domain.DeliveryPending, t0), d("d3", "wh1", domain.DeliveryDead, time.Time{})
	d4 := d("d4", "wh2", domain.DeliveryPending, t0.Add(time.Hour)) // not due before then
	d4.CompanyID = coB
	update(t, s, func(tx app.Tx) error {
		for _, w := range []*domain.Webhook{w1, w2} {
			if err := wt(tx).PutWebhook(w); err != nil {
				return err
			}
		}
		for _, x := range []*domain.WebhookDelivery{d2, d1, d3, d4} {
			if err := wt(tx).PutDelivery(x); err != nil {
				return err
			}
		}
		return nil
	})
	checkLookups(t, s, []lookup{
		{name: "Webhook", get: func(tx app.Tx) (any, error) { return wt(tx).Webhook("wh1") }, want: w1},
		{name: "Webhook(none)", get: func(tx app.Tx) (any, error) { return wt(tx).Webhook("nope") }, code: notFound},
		{name: "Webhooks(A)", get: func(tx app.Tx) (any, error) { return wt(tx).Webhooks(coA) }, want: []*domain.Webhook{w1}},
		{name: "Webhooks(all)", get: func(tx app.Tx) (any, error) { return wt(tx).Webhooks("") }, want: []*domain.Webhook{w1, w2}},
		{name: "Delivery", get: func(tx app.Tx) (any, error) { return wt(tx).Delivery("d3") }, want: d3},
		{name: "Delivery(none)", get: func(tx app.Tx) (any, error) { return wt(tx).Delivery("nope") }, code: notFound},
		{name: "Deliveries", get: func(tx app.Tx) (any, error) { return wt(tx).Deliveries("wh1", "", 0) }, want: []*domain.WebhookDelivery{d1, d2, d3}},
		{name: "Deliveries(dead)", get: func(tx app.Tx) (any, error) { return wt(tx).Deliveries("wh1", domain.DeliveryDead, 0) }, want: []*domain.WebhookDelivery{d3}},
		{name: "Deliveries(newest 2)", get: func(tx app.Tx) (any, error) { return wt(tx).Deliveries("wh1", "", 2) }, want: []*domain.WebhookDelivery{d2, d3}},
		{name: "Deliveries(none)", get: func(tx app.Tx) (any, error) { return wt(tx).Deliveries("nope", "", 0) }, want: []*domain.WebhookDelivery{}},
	})

	// Claims: d1 (the head of wh1; d2 waits behind it), not d4 (not due).
	claim := func(now time.Time, n int) []*domain.WebhookDelivery {
		var out []*domain.WebhookDelivery
		update(t, s, func(tx app.Tx) error {
			var err error
			out, err = wt(tx).ClaimDeliveries(now, now.Add(time.Minute), n)
			return err
		})
		return out
	}
	ids := func(ds []*domain.WebhookDelivery) (out []string) {
		for _, x := range ds {
			out = append(out, x.ID)
		}
		return out
	}
	if got := ids(claim(t0, 10)); len(got) != 1 || got[0] != "d1" {
		t.Fatalf("first claim: %v, want [d1]", got)
	}
	if got := claim(t0.Add(time.Second), 10); len(got) != 0 {
		t.Fatalf("a claim within d1's lease: %v, want none (d2 waits behind d1)", ids(got))
	}
	view(t, s, func(tx app.Tx) error {
		x, err := wt(tx).Delivery("d1")
		if err == nil && !x.LeaseUntil.Equal(t0.Add(time.Minute)) {
			t.Errorf("d1 leased until %v", x.LeaseUntil)
		}
		return err
	})
	// d1 delivered: d2 is the head; past its hour d4 is due too.
	d1b := *d1
	d1b.Delivered(t0.Add(2 * time.Second))
	update(t, s, func(tx app.Tx) error { return wt(tx).PutDelivery(&d1b) })
	if got := ids(claim(t0.Add(2*time.Hour), 10)); len(got) != 2 || got[0] != "d2" || got[1] != "d4" {
		t.Fatalf("claim after d1 delivered: %v, want [d2 d4]", got)
	}
	// A lease over is no lease: claimed again.
	if got := ids(claim(t0.Add(3*time.Hour), 1)); len(got) != 1 {
		t.Fatalf("claim after the leases ended: %v, want one", got)
	}
	// An inactive webhook's deliveries are not claimed.
	w2off := *w2
	w2off.Active = false
	update(t, s, func(tx app.Tx) error { return wt(tx).PutWebhook(&w2off) })
	if got := ids(claim(t0.Add(4*time.Hour), 10)); len(got) != 1 || got[0] != "d2" {
		t.Fatalf("claim with wh2 inactive: %v, want [d2]", got)
	}

	// Concurrent claimers: each pending delivery claimed once.
	update(t, s, func(tx app.Tx) error {
		for i := range 12 {
			w := &domain.Webhook{ID: "whc" + string(rune('a'+i)), CompanyID: coA, URL: "https://x.example.com", Events: []string{domain.EventBudgetFrozen}, Active: true}
			if err := wt(tx).PutWebhook(w); err != nil {
				return err
			}
			x := d("dc"+string(rune('a'+i)), w.ID, domain.DeliveryPending, t0)
			if err := wt(tx).PutDelivery(x); err != nil {
				return err
			}
		}
		return nil
	})
	now := t0.Add(10 * time.Hour)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 6 {
				var got []*domain.WebhookDelivery
				err := s.Update(bg(), func(tx app.Tx) error {
					var err error
					got, err = wt(tx).ClaimDeliveries(now, now.Add(time.Hour), 2)
					return err
				})
				if err != nil {
					t.Errorf("concurrent claim: %v", err)
					return
				}
				mu.Lock()
				for _, x := range got {
					seen[x.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for id, n := range seen {
		if n != 1 {
			t.Errorf("delivery %s claimed %d times", id, n)
		}
	}

	// A webhook's deletion takes its deliveries.
	update(t, s, func(tx app.Tx) error { return wt(tx).DeleteWebhook("wh1") })
	checkLookups(t, s, []lookup{
		{name: "Webhook(deleted)", get: func(tx app.Tx) (any, error) { return wt(tx).Webhook("wh1") }, code: notFound},
		{name: "Delivery(of a deleted webhook)", get: func(tx app.Tx) (any, error) { return wt(tx).Delivery("d2") }, code: notFound},
		{name: "Deliveries(of a deleted webhook)", get: func(tx app.Tx) (any, error) { return wt(tx).Deliveries("wh1", "", 0) }, want: []*domain.WebhookDelivery{}},
	})
}
