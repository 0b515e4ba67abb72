package server

import (
	"container/list"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// ConnLimits caps the connections a server holds open, so that a flood of
// connections (idle keep-alive ones above all) cannot use every file
// descriptor and starve the other clients (issue 22).
type ConnLimits struct {
	// Max is the most connections open at once; 0: no cap.
	Max int
	// PerClient is the most connections open at once from one client
	// address; 0: no cap. It does not apply to TrustedProxies: a
	// connection's only address is its TCP peer, which for a proxy is the
	// proxy itself, carrying the connections of many clients (the proxy
	// is where those are capped); they count towards Max.
	PerClient int
	// TrustedProxies are the peers PerClient does not apply to.
	TrustedProxies []netip.Prefix
	// Closed, when set, is told of each connection the caps close:
	// "idle" for one closed to make room, "refused" for a new one
	// refused (a metric: the caps are binding).
	Closed func(reason string)
}

// Limit wraps ln so that srv holds at most l's connections (srv must
// serve the listener returned; its ConnState is chained). A connection
// over a cap makes room first: the connection that has waited longest
// without a request in progress (idle between keep-alive requests, or
// open without having sent a byte) is closed, the client's own for
// PerClient, anyone's for Max. Only when every connection concerned is in
// the middle of a request is the new one refused: it is answered 503 with
// Retry-After and closed at once, never left waiting in Accept (as
// netutil.LimitListener would, starving everyone behind the flood).
func Limit(ln net.Listener, srv *http.Server, l ConnLimits) net.Listener {
	if l.Max <= 0 && l.PerClient <= 0 {
		return ln
	}
	cl := &connListener{Listener: ln, limits: l, idle: list.New(), clients: map[netip.Addr]*client{}}
	next := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		if tc, ok := c.(*trackedConn); ok {
			cl.setState(tc, s)
		}
		if next != nil {
			next(c, s)
		}
	}
	return cl
}

// connListener is the listener of Limit.
type connListener struct {
	net.Listener
	limits ConnLimits

	mu      sync.Mutex
	open    int
	idle    *list.List // of *trackedConn waiting for a request, longest first
	clients map[netip.Addr]*client
}

// client is what a connListener knows of one client address.
type client struct {
	addr netip.Addr
	open int
	idle *list.List // its connections in connListener.idle, in the same order
}

// trackedConn is a connection counted by its connListener; its fields are
// guarded by the listener's mu.
type trackedConn struct {
	net.Conn
	l        *connListener
	client   *client
	capped   bool // counted against PerClient
	gone     bool // out of the counts
	idleAll  *list.Element
	idleMine *list.Element
}

// Close closes the connection and forgets it.
func (c *trackedConn) Close() error {
	c.l.remove(c)
	return c.Conn.Close()
}

// refusal is what a connection over a cap is told before it is closed.
const refusal = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 36\r\n\r\ntoo many connections: try again soon"

// Accept returns the next connection within the caps.
func (l *connListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := peerAddr(c)
		tc := &trackedConn{Conn: c, l: l, capped: l.limits.PerClient > 0 && !l.trusted(addr)}
		evict, ok := l.admit(tc, addr)
		for _, e := range evict {
			l.closed("idle")
			_ = e.Close() // its server goroutine ends on the failed read
		}
		if ok {
			return tc, nil
		}
		l.closed("refused")
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write([]byte(refusal))
		_ = c.Close()
	}
}

// admit counts tc in when the caps allow it, after choosing the idle
// connections to close to make room; ok is false when there is no room.
func (l *connListener) admit(tc *trackedConn, addr netip.Addr) (evict []*trackedConn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cl := l.clients[addr]
	if tc.capped && cl != nil && cl.open >= l.limits.PerClient {
		oldest := cl.idle.Front()
		if oldest == nil {
			return nil, false
		}
		evict = append(evict, oldest.Value.(*trackedConn))
	}
	if l.limits.Max > 0 && l.open-len(evict) >= l.limits.Max {
		oldest := l.idle.Front()
		if oldest != nil && len(evict) > 0 && oldest.Value == evict[0] {
			oldest = oldest.Next()
		}
		if oldest == nil {
			return nil, false
		}
		evict = append(evict, oldest.Value.(*trackedConn))
	}
	// Those to close leave the counts now, so that the room they make is
	// this connection's, not the next one's.
	for _, e := range evict {
		l.forget(e)
	}
	if cl == nil {
		cl = &client{addr: addr, idle: list.New()}
		l.clients[addr] = cl
	}
	tc.client = cl
	cl.open++
	l.open++
	l.waiting(tc) // a new connection waits for its first request like an idle one
	return evict, true
}

// waiting puts tc last in the idle lists; l.mu is held.
func (l *connListener) waiting(tc *trackedConn) {
	tc.idleAll, tc.idleMine = l.idle.PushBack(tc), tc.client.idle.PushBack(tc)
}

// busy takes tc out of the idle lists; l.mu is held.
func (l *connListener) busy(tc *trackedConn) {
	if tc.idleAll != nil {
		l.idle.Remove(tc.idleAll)
		tc.client.idle.Remove(tc.idleMine)
		tc.idleAll, tc.idleMine = nil, nil
	}
}

// setState follows the server's view of a connection: waiting for a
// request (new, idle) or not.
func (l *connListener) setState(tc *trackedConn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		l.remove(tc)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if tc.gone {
		return
	}
	l.busy(tc)
	if s == http.StateIdle || s == http.StateNew {
		l.waiting(tc)
	}
}

// remove forgets a connection that is closing.
func (l *connListener) remove(tc *trackedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forget(tc)
}

// forget takes tc out of the counts, once; l.mu is held.
func (l *connListener) forget(tc *trackedConn) {
	if tc.gone {
		return
	}
	tc.gone = true
	l.busy(tc)
	tc.client.open--
	l.open--
	if tc.client.open == 0 {
		delete(l.clients, tc.client.addr)
	}
}

// closed tells ConnLimits.Closed, when set.
func (l *connListener) closed(reason string) {
	if l.limits.Closed != nil {
		l.limits.Closed(reason)
	}
}

// trusted reports whether addr is a trusted proxy's.
func (l *connListener) trusted(addr netip.Addr) bool {
	for _, p := range l.limits.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// peerAddr is the IP address of a connection's peer (the zero Addr when
// it has none, as for a Unix socket: then all such peers are one client).
func peerAddr(c net.Conn) netip.Addr {
	if ta, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		if a, ok := netip.AddrFromSlice(ta.IP); ok {
			return a.Unmap()
		}
	}
	return netip.Addr{}
}
