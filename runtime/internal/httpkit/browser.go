package httpkit

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Browser safety: a web page the user visits must not be able to run a
// tool. A cross-origin form or fetch POST needs no CORS preflight when its
// content type is text/plain, so a page can send one blind; and a page on a
// rebinding domain (one whose DNS answer switches to 127.0.0.1) is
// same-origin to the browser, so only the Host header gives it away. One
// layer in front of every surface refuses both, before any surface sees
// the request.

// Guard wraps h in the cross-origin and DNS-rebinding checks.
// trustedOrigins and allowedHosts (the runtime's Options.TrustedOrigins
// and Options.AllowedHosts) widen them; a bad origin is a programming
// error, and panics as NewServer does for bad tools. A request another
// Guard already let through is not checked twice. A refusal is answered
// in the shape of the surface shape gives for the request (nil, or a nil
// shape: {"error": message}), as the surface itself answers errors.
func Guard(h http.Handler, log *slog.Logger, trustedOrigins, allowedHosts []string, shape func(*http.Request) *Surface) http.Handler {
	cop, err := CrossOriginProtection(trustedOrigins)
	if err != nil {
		panic("runtime: " + err.Error())
	}
	anyHost := false
	hosts := make(map[string]bool, len(allowedHosts))
	for _, h := range allowedHosts {
		if h == "*" {
			anyHost = true
		}
		hosts[strings.ToLower(h)] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st := StateFrom(r.Context()); st != nil && st.guarded {
			h.ServeHTTP(w, r)
			return
		}
		if fromBrowser(r.Header) && cop.Check(r) != nil {
			refuseCrossOrigin(log, w, r, shape)
			return
		}
		if !anyHost && !hostAllowed(r, hosts) {
			refuseHost(log, w, r, shape)
			return
		}
		if st := StateFrom(r.Context()); st != nil {
			st.guarded = true
		}
		h.ServeHTTP(w, r)
	})
}

// fromBrowser reports whether a request carries either header the
// cross-origin check reads. With neither (a client that is not a browser,
// or a same-origin request from an old one) the check lets it through, so
// it is asked only when one is there: it reads them with Header.Get, which
// checks each key's case on every request.
func fromBrowser(h http.Header) bool {
	return Header(h, "Sec-Fetch-Site") != "" || Header(h, "Origin") != ""
}

// refuseCrossOrigin and refuseHost answer a request the guard refuses.
// They are functions of their own, not inlined, so that their log lines'
// arguments do not make the guard's frame large: every request runs the
// rest of the server on the stack below it, and a connection's goroutine
// whose stack the collector shrank grows it again on the next request
// that needs more (BENCHMARKS.md, "MCP sessions").
//
//go:noinline
func refuseCrossOrigin(log *slog.Logger, w http.ResponseWriter, r *http.Request, shape func(*http.Request) *Surface) {
	log.WarnContext(r.Context(), "cross-origin request refused", "method", r.Method, "path", r.URL.Path, "origin", r.Header.Get("Origin"), "sec-fetch-site", r.Header.Get("Sec-Fetch-Site"), "remote", r.RemoteAddr)
	refuse(w, r, shape, "Cross-origin request refused.")
}

//go:noinline
func refuseHost(log *slog.Logger, w http.ResponseWriter, r *http.Request, shape func(*http.Request) *Surface) {
	log.WarnContext(r.Context(), "request for a foreign Host on a loopback address refused (DNS rebinding)", "method", r.Method, "path", r.URL.Path, "host", r.Host, "remote", r.RemoteAddr)
	refuse(w, r, shape, "Host not allowed.")
}

// refuse answers r 403 with msg, in the shape of r's surface.
func refuse(w http.ResponseWriter, r *http.Request, shape func(*http.Request) *Surface, msg string) {
	e := &Error{Status: http.StatusForbidden, Msg: msg}
	if shape != nil {
		if sf := shape(r); sf != nil {
			sf.WriteError(w, e)
			return
		}
	}
	WriteError(w, e.Status, e.Msg)
}

// hostAllowed reports whether r may be served for its Host header: always
// when it did not arrive on a loopback address (a server reachable from
// elsewhere is reached under names this one cannot know), else only for a
// loopback name or address, or a host in allowed (with or without its
// port).
func hostAllowed(r *http.Request, allowed map[string]bool) bool {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !addrIsLoopback(local) {
		return true
	}
	if isLoopback(r.Host) {
		return true
	}
	host := strings.ToLower(r.Host)
	if allowed[host] {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil && allowed[h] {
		return true
	}
	return false
}

// addrIsLoopback reports whether a is a loopback address: for TCP, the
// one case every request asks about, from its IP, without writing the
// address out and parsing it back.
func addrIsLoopback(a net.Addr) bool {
	switch a := a.(type) {
	case nil:
		return false
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	}
	return isLoopback(a.String())
}

// isLoopback reports whether addr ("host", "host:port", "[v6]:port") names
// this machine's loopback interface: localhost, a name under .localhost
// (which resolvers must map to loopback, RFC 6761), or a loopback IP.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// CrossOriginProtection is net/http's protection trusting origins, or
// the error of the first that is not an origin: what Guard checks, and
// runtime.NewServer checks first.
func CrossOriginProtection(origins []string) (*http.CrossOriginProtection, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range origins {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("TrustedOrigins: %w", err)
		}
	}
	return cop, nil
}
