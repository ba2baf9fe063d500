package serve

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// guard wraps the receiver's handler with the checks every request passes
// before its body is read: the bearer token when one is set, and on a
// loopback receiver the Host and Origin headers. A web page the user opens
// can make the browser post to 127.0.0.1 under a name that resolves there
// (DNS rebinding); its requests carry that name in Host, and its Origin.
func (rc *Receiver) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rc.cfg.Token != "" && !bearerOK(r.Header.Get("Authorization"), rc.cfg.Token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="faultlens"`)
			writePlain(w, http.StatusUnauthorized, "401 unauthorized: a bearer token is required")
			rc.logf("%s  refused (401): no valid bearer token", sourceName(r.RemoteAddr, 0))
			return
		}
		if rc.cfg.LoopbackOnly {
			if !loopbackHost(r.Host) {
				writePlain(w, http.StatusForbidden, "403 forbidden: Host is not a loopback name")
				rc.logf("%s  refused (403): Host is not a loopback name", sourceName(r.RemoteAddr, 0))
				return
			}
			if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
				writePlain(w, http.StatusForbidden, "403 forbidden: Origin is not a loopback address")
				rc.logf("%s  refused (403): Origin is not a loopback address", sourceName(r.RemoteAddr, 0))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bearerOK compares the Authorization header with the token in constant
// time.
func bearerOK(header, token string) bool {
	got, ok := strings.CutPrefix(header, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}

// loopbackHost reports whether a Host header names this machine's loopback:
// localhost or a loopback IP, with or without a port.
func loopbackHost(host string) bool {
	h := host
	if sh, _, err := net.SplitHostPort(host); err == nil {
		h = sh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// loopbackOrigin reports whether an Origin header is a loopback page.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && loopbackHost(u.Host)
}

// LimitListener accepts at most n connections at once; the next waits in
// the kernel's backlog until one closes. Without it, slow clients could
// hold every file descriptor of the process.
func LimitListener(l net.Listener, n int) net.Listener {
	return &limitListener{Listener: l, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, free: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back once, when it is closed.
type limitConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
