// Package serve is the command line the example servers share: the flags
// -addr, -allow-execute and -stdio, a logger, and an HTTP server that
// prints the URL it serves (the Tool Explorer at /, its REST protocol under
// /tools, MCP at /mcp), or MCP over standard input and output.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Main parses the flags and serves tools until interrupted. opts may be nil;
// AllowExecute and Logger are set from the command line.
func Main(tools runtime.ToolsProvider, opts *runtime.Options) {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	allowExecute := flag.Bool("allow-execute", false, "let the Tool Explorer page run tools")
	stdio := flag.Bool("stdio", false, "speak MCP on standard input and output instead of serving HTTP")
	flag.Parse()

	var o runtime.Options
	if opts != nil {
		o = *opts
	}
	o.AllowExecute = *allowExecute
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := runtime.NewServer(tools, &o)
	if *stdio {
		// Standard output is the protocol's: the logger writes to
		// standard error.
		if err := srv.ServeStdio(ctx); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctx, *addr, srv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run serves h on addr until ctx is done, first printing the URL to out.
func run(ctx context.Context, addr string, h http.Handler, out io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Serving on http://%s/\n", ln.Addr())
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
