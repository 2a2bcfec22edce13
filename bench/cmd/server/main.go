// Command server serves one of the benchmarks' impls on loopback, for the
// load test: the report runs it pinned to one CPU. It prints its base URL
// on the first line of its output once it listens, and serves until it is
// interrupted or terminated.
//
//	server -impl mcp/toolgen-stateful
//
// With -cpuprofile it writes a CPU profile of everything it served to a
// file when it stops (BENCHMARKS.md profiles each REST server under the
// report's load this way).
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
	"runtime/pprof"
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
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file when stopped")
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
	stopProfile := func() {}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		stopProfile = func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				log.Print(err)
			}
		}
	}
	fmt.Printf("http://%s\n", ln.Addr())
	err = srv.Serve(ln)
	stopProfile()
	if err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
