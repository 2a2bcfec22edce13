// Command server serves one of the benchmarks' impls on loopback, for the
// load test: the report runs it pinned to one CPU. It prints its base URL
// on the first line of its output once it listens, and serves until it is
// interrupted or terminated.
//
//	server -impl mcp/toolgen-stateful
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/toolgen-go/toolgen/bench/impls"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("server: ")
	var ids []string
	for _, i := range impls.All() {
		ids = append(ids, i.ID())
	}
	id := flag.String("impl", "", "the impl to serve: "+strings.Join(ids, ", "))
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	flag.Parse()
	impl, err := impls.Lookup(*id)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: impl.New()}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Printf("http://%s\n", ln.Addr())
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
