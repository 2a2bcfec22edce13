package serve

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// pipeNet is an in-memory network for a server under test in a synctest
// bubble: each connection is a net.Pipe, whose deadlines (the server's
// header, body and idle timeouts) run on the bubble's fake clock, so that
// a test of the timeouts waits for none of them in real time and sees
// each fire exactly when it should. A pipe is unbuffered: a write waits
// for the other end to read it.
type pipeNet struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeNet() *pipeNet {
	return &pipeNet{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept, Close and Addr make it the server's net.Listener.
func (n *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.done:
		return nil, net.ErrClosed
	}
}

func (n *pipeNet) Close() error {
	n.once.Do(func() { close(n.done) })
	return nil
}

func (n *pipeNet) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "127.0.0.1:80" }

// dial connects to the server: the client's end of a new pipe.
func (n *pipeNet) dial(ctx context.Context) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case n.conns <- server:
		return client, nil
	case <-n.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// bubbleServer is Serve on a pipeNet, inside the calling test's synctest
// bubble, serving tools() with timeouts tm. Its client dials the pipeNet;
// stop shuts the server down (as SIGTERM does) and waits for Serve: defer
// it, so that every goroutine of the bubble has ended when the test does.
type bubbleServer struct {
	net    *pipeNet
	srv    *runtime.Server
	client *http.Client
	cancel context.CancelFunc // begins the shutdown
	done   chan error         // Serve's error
}

// bubbleURL is the server's base URL; its host is one the browser guard
// allows.
const bubbleURL = "http://127.0.0.1"

func serveInBubble(t *testing.T, tm Timeouts) *bubbleServer {
	t.Helper()
	b := &bubbleServer{net: newPipeNet(), done: make(chan error, 1)}
	b.srv = runtime.NewServer(tools(), &runtime.Options{AllowExecute: true, Logger: quiet.Logger})
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	go func() { b.done <- Serve(ctx, b.net, NewHandler(b.srv, nil), tm) }()
	b.client = &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return b.net.dial(ctx) },
	}}
	return b
}

// conn is a raw connection to the server.
func (b *bubbleServer) conn(t *testing.T) net.Conn {
	t.Helper()
	c, err := b.net.dial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stop shuts the server down and reports Serve's error.
func (b *bubbleServer) stop(t *testing.T) {
	t.Helper()
	b.client.CloseIdleConnections()
	b.cancel()
	if err := <-b.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
