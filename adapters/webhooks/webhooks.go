// Package webhooks delivers the events costdb's outbox holds
// (app.Service.ClaimDeliveries) to the companies' endpoints: each one a
// JSON POST signed with HMAC-SHA256 over the timestamp and the body, cut at
// a timeout, retried by the domain's policy (docs/webhooks.md). It also
// checks that a URL may be reached: no private, loopback, link-local or
// unspecified address unless the operator allows them, checked again when
// each connection is made, so that a name that resolves elsewhere later
// cannot reach the server's network either.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// The headers of a delivery.
const (
	HeaderSignature = "Costdb-Signature" // t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
	HeaderEvent     = "Costdb-Event"
	HeaderDelivery  = "Costdb-Delivery" // the event's id
)

// Sign returns the signature header's value for body sent at t.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a signature header against body, as a receiver does: the
// HMAC must match and the timestamp be within tolerance of now (a replayed
// old request is refused).
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return errors.New("webhooks: malformed signature header")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return errors.New("webhooks: signature timestamp outside the tolerance")
	}
	if !hmac.Equal([]byte(sig), []byte(mac(secret, ts, body))) {
		return errors.New("webhooks: signature mismatch")
	}
	return nil
}

// Body is a delivery's JSON: its id, event, time, the resource's URL under
// base and the event's data.
func Body(d *domain.WebhookDelivery, base string) ([]byte, error) {
	data := json.RawMessage(d.Data)
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	return json.Marshal(struct {
		ID       string          `json:"id"`
		Event    string          `json:"event"`
		Time     string          `json:"time"`
		Resource string          `json:"resource"`
		Data     json.RawMessage `json:"data"`
	}{d.ID, d.Event, d.CreatedAt.UTC().Format(time.RFC3339Nano), strings.TrimSuffix(base, "/") + d.Resource, data})
}

// blocked reports whether an address may not be reached without the
// operator's leave: loopback, private, link-local, unspecified, multicast,
// shared (CGNAT) or the IPv4-mapped forms of those.
func blocked(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() ||
		netip.MustParsePrefix("100.64.0.0/10").Contains(a) || netip.MustParsePrefix("192.0.0.0/24").Contains(a)
}

// CheckURL returns the check app.Config.WebhookURLCheck calls: the URL's
// host must resolve, and (unless allowPrivate) to no blocked address.
func CheckURL(allowPrivate bool, resolver *net.Resolver) func(context.Context, *url.URL) error {
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	return func(ctx context.Context, u *url.URL) error {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		addrs, err := resolver.LookupNetIP(ctx, "ip", u.Hostname())
		if err != nil {
			return fmt.Errorf("the host %s does not resolve: %v", u.Hostname(), err)
		}
		if allowPrivate {
			return nil
		}
		for _, a := range addrs {
			if blocked(a) {
				return fmt.Errorf("the host %s resolves to %s, a private, loopback or link-local address: not allowed (the operator may allow them with --webhooks-allow-private)", u.Hostname(), a.Unmap())
			}
		}
		return nil
	}
}

// Dispatcher sends the outbox's deliveries.
type Dispatcher struct {
	App *app.Service
	// BaseURL is the server's public URL, which the resources' paths are
	// under ("https://costdb.example.com").
	BaseURL string
	// Timeout cuts one delivery: connecting, sending and reading the
	// answer's status. Default 10 s.
	Timeout time.Duration
	// Interval is the wait between polls of an empty outbox. Default 1 s.
	Interval time.Duration
	// Batch is the most deliveries claimed at once. Default 16.
	Batch int
	// Policy is the retry policy. Zero: domain.DefaultRetryPolicy.
	Policy domain.RetryPolicy
	// AllowPrivate lets deliveries reach private, loopback and link-local
	// addresses (a receiver on the server's own network).
	AllowPrivate bool
	Log          *slog.Logger

	client *http.Client
}

func (d *Dispatcher) defaults() {
	if d.Timeout <= 0 {
		d.Timeout = 10 * time.Second
	}
	if d.Interval <= 0 {
		d.Interval = time.Second
	}
	if d.Batch <= 0 {
		d.Batch = 16
	}
	if d.Policy == (domain.RetryPolicy{}) {
		d.Policy = domain.DefaultRetryPolicy
	}
	if d.Log == nil {
		d.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if d.client == nil {
		dialer := &net.Dialer{Timeout: d.Timeout, Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			if !d.AllowPrivate && blocked(ap.Addr()) {
				return fmt.Errorf("webhooks: %s is a private, loopback or link-local address", ap.Addr())
			}
			return nil
		}}
		d.client = &http.Client{
			Timeout:   d.Timeout,
			Transport: &http.Transport{DialContext: dialer.DialContext, Proxy: nil, MaxIdleConnsPerHost: 2, ResponseHeaderTimeout: d.Timeout},
			// A redirect is not followed: the URL registered is the one
			// delivered to.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
}

// Run delivers until ctx is done: it claims due deliveries, sends them one
// by one (a webhook's in order), records each outcome, and waits Interval
// when there was nothing to send.
func (d *Dispatcher) Run(ctx context.Context) {
	d.defaults()
	for ctx.Err() == nil {
		n, err := d.Once(ctx)
		if err != nil && ctx.Err() == nil {
			d.Log.Warn("webhook deliveries", "err", err)
		}
		if n == 0 || err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(d.Interval):
			}
		}
	}
}

// Once claims and sends one batch; it returns how many it sent.
func (d *Dispatcher) Once(ctx context.Context) (int, error) {
	d.defaults()
	// A claim lasts past every attempt of the batch: a server that dies
	// holding it leaves the deliveries to another once it ends.
	lease := time.Duration(d.Batch+1) * (d.Timeout + time.Second)
	claimed, err := d.App.ClaimDeliveries(ctx, d.Batch, lease)
	if err != nil {
		return 0, err
	}
	for _, c := range claimed {
		ok, why := d.send(ctx, c)
		if ctx.Err() != nil {
			return 0, ctx.Err() // stopping: the lease ends, another attempt comes
		}
		if err := d.App.FinishDelivery(context.WithoutCancel(ctx), c.Delivery.ID, ok, why, d.Policy); err != nil {
			return 0, err
		}
		if !ok {
			d.Log.Info("webhook delivery failed", "delivery", c.Delivery.ID, "webhook", c.Delivery.WebhookID, "attempt", c.Delivery.Attempts+1, "why", why)
		}
	}
	return len(claimed), nil
}

// send makes one attempt: delivered on a 2xx answer.
func (d *Dispatcher) send(ctx context.Context, c app.ClaimedDelivery) (bool, string) {
	body, err := Body(c.Delivery, d.BaseURL)
	if err != nil {
		return false, err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return false, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "costdb-webhooks/1")
	req.Header.Set(HeaderEvent, c.Delivery.Event)
	req.Header.Set(HeaderDelivery, c.Delivery.ID)
	req.Header.Set(HeaderSignature, Sign(c.Secret, time.Now(), body))
	resp, err := d.client.Do(req)
	if err != nil {
		return false, err.Error()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return false, "answered " + resp.Status
	}
	return true, ""
}
