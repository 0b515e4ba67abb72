package main

import (
	"io"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/google/go-cmp/cmp"
)

// TestAbuseLimitFlags: the throttle, the trusted proxies and every server
// timeout are set by flag or environment, with the documented defaults.
func TestAbuseLimitFlags(t *testing.T) {
	d := NewMain(io.Discard, io.Discard)
	if err := d.ParseFlags(nil); err != nil {
		t.Fatal(err)
	}
	wantDefaults := server.Timeouts{ReadHeader: 5 * time.Second, Body: 10 * time.Second, Write: time.Minute, Idle: time.Minute}
	if d.Timeouts != wantDefaults || d.AuthFailures != 10 || d.AuthAddressFailures != 100 || d.AuthWindow != time.Minute || d.TrustedProxies != nil {
		t.Errorf("defaults: timeouts %+v, auth %d/%d per %s, proxies %v", d.Timeouts, d.AuthFailures, d.AuthAddressFailures, d.AuthWindow, d.TrustedProxies)
	}

	t.Setenv("COSTDB_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.1")
	t.Setenv("COSTDB_BODY_TIMEOUT", "3s")
	t.Setenv("COSTDB_AUTH_ADDRESS_FAILURES", "50")
	m := NewMain(io.Discard, io.Discard)
	if err := m.ParseFlags([]string{"--idle-timeout", "7s", "--read-header-timeout", "2s", "--auth-address-failures", "70"}); err != nil {
		t.Fatal(err)
	}
	want := server.Timeouts{ReadHeader: 2 * time.Second, Body: 3 * time.Second, Write: time.Minute, Idle: 7 * time.Second}
	if m.Timeouts != want {
		t.Errorf("timeouts %+v, want %+v", m.Timeouts, want)
	}
	if m.AuthAddressFailures != 70 {
		t.Errorf("auth-address-failures %d, want the flag's 70", m.AuthAddressFailures)
	}
	var got []string
	for _, p := range m.TrustedProxies {
		got = append(got, p.String())
	}
	if diff := cmp.Diff([]string{"10.0.0.0/8", "192.168.1.1/32"}, got); diff != "" {
		t.Errorf("trusted proxies (-want +got):\n%s", diff)
	}

	t.Setenv("COSTDB_TRUSTED_PROXIES", "proxy.internal")
	if err := NewMain(io.Discard, io.Discard).ParseFlags(nil); err == nil {
		t.Error("a trusted proxy that is not an address was accepted")
	}
}
