// Command load drives a server started by the server command with a fixed
// number of connections and prints what it measured as one line of JSON
// (see load.Result).
//
//	load -url http://127.0.0.1:41234 -protocol mcp -c 32 -d 10s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"time"

	"github.com/toolgen-go/toolgen/bench/load"
	"github.com/toolgen-go/toolgen/bench/wire"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("load: ")
	var cfg load.Config
	flag.StringVar(&cfg.URL, "url", "", "the server's base URL")
	proto := flag.String("protocol", "rest", "rest, mcp or mcp2026")
	flag.IntVar(&cfg.Conns, "c", 32, "connections")
	flag.DurationVar(&cfg.Warmup, "warmup", time.Second, "calls before the measurement, not measured")
	flag.DurationVar(&cfg.Duration, "d", 10*time.Second, "how long to measure")
	flag.Parse()
	cfg.Protocol = wire.Protocol(*proto)
	if cfg.URL == "" || (cfg.Protocol != wire.REST && cfg.Protocol != wire.MCP && cfg.Protocol != wire.MCP2026) {
		flag.Usage()
		os.Exit(2)
	}
	res, err := load.Run(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		log.Fatal(err)
	}
}
