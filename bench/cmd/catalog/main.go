// Command catalog measures toolgen at catalog scale (issue #44): for each
// size it writes a synthetic tools.yaml of that many tools shaped like a
// published API's (internal/toolsyaml/synth; -shape small: the issue's
// tools of two properties in and two out), generates its package with
// gen.Generate (time and allocation), builds it with go build (time and
// the peak resident set of the go command and the compiler), then runs a
// program that serves it: NewServer's time and heap, and one tool's call
// through Invoke against the same call in a catalog of 10 tools.
//
//	cd bench && go run ./cmd/catalog -n 1000,10000
//	cd bench && go run ./cmd/catalog -shape small -n 10000
//
// Each build compiles the package afresh (a random constant beside it),
// not from the build cache; the modules are under a temporary directory,
// removed at the end unless -keep.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/toolsyaml/synth"
)

func main() {
	sizes := flag.String("n", "1000,10000", "catalog sizes, comma-separated")
	root := flag.String("root", "..", "toolgen's module root")
	keep := flag.Bool("keep", false, "keep the generated modules")
	shape := flag.String("shape", "api", "the tools: \"api\" (shaped like a published API's) or \"small\" (two properties in, two out: issue #44's)")
	flag.Parse()
	abs, err := filepath.Abs(*root)
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "toolgen-catalog-")
	if err != nil {
		log.Fatal(err)
	}
	if !*keep {
		defer os.RemoveAll(tmp)
	} else {
		fmt.Fprintln(os.Stderr, "modules in", tmp)
	}
	fmt.Printf("go %s, %s/%s, %d CPUs\n\n", goruntime.Version(), goruntime.GOOS, goruntime.GOARCH, goruntime.NumCPU())
	fmt.Println("| tools | tools.yaml | generate | allocated | tools_gen.go | go build | peak RSS | NewServer | its heap | a call | the call with 10 tools |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	catalog, method, args := synth.Catalog, apiMethod, apiArgs
	switch *shape {
	case "api":
	case "small":
		catalog, method, args = synth.Small, smallMethod, smallArgs
	default:
		log.Fatalf("unknown shape %q", *shape)
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			log.Fatalf("bad size %q", s)
		}
		r, err := measure(filepath.Join(tmp, *shape+s), abs, n, catalog, method, args)
		if err != nil {
			log.Fatalf("%d tools: %v", n, err)
		}
		fmt.Printf("| %d | %.1f MB | %s | %d MiB | %.1f MB | %s | %d MiB | %s (%.1f µs a tool) | %.1f MiB (%.1f KiB a tool) | %s | %s |\n",
			n, float64(r.yamlBytes)/1e6, r.generate.Round(time.Millisecond), r.genAlloc>>20, float64(r.goBytes)/1e6,
			r.build.Round(100*time.Millisecond), r.buildRSS>>20,
			time.Duration(r.serve.NewServerNs).Round(10*time.Microsecond), float64(r.serve.NewServerNs)/1e3/float64(n),
			float64(r.serve.HeapBytes)/(1<<20), float64(r.serve.HeapBytes)/1024/float64(n),
			time.Duration(r.serve.CallNs), time.Duration(r.serve.Call10Ns))
	}
}

type result struct {
	yamlBytes, goBytes int
	generate           time.Duration
	genAlloc           uint64
	build              time.Duration
	buildRSS           int64
	serve              served
}

// served is what the serving program prints.
type served struct {
	NewServerNs int64  `json:"new_server_ns"` // the median of 5
	HeapBytes   uint64 `json:"heap_bytes"`    // live heap NewServer added
	CallNs      int64  `json:"call_ns"`       // a call of list_issue_0, Invoke
	Call10Ns    int64  `json:"call10_ns"`     // the same in a catalog of 10 tools
}

func measure(dir, root string, n int, catalog func(string, int) []byte, method, args string) (*result, error) {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	r := &result{}
	cat := catalog("cat", n)
	r.yamlBytes = len(cat)
	files := map[string]string{
		"go.mod":           "module example.com/catalog\n\ngo 1.26.0\n",
		"go.work":          "go 1.26.0\n\nuse (\n\t.\n\t" + root + "\n)\n",
		"cat/tools.yaml":   string(cat),
		"cat/nonce.go":     "package cat\n\nconst buildNonce = \"" + hex.EncodeToString(nonce[:]) + "\"\n",
		"cat10/tools.yaml": string(catalog("cat10", 10)),
		"serve/main.go":    strings.Replace(serveMain, "ARGS", args, 1),
		"serve/big.go":     strings.NewReplacer("TYPE", "big", "PKG", "cat").Replace(method),
		"serve/small.go":   strings.NewReplacer("TYPE", "small", "PKG", "cat10").Replace(method),
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	goruntime.GC()
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	start := time.Now()
	out, err := gen.Generate(gen.Config{Dir: dir}, []string{"cat/tools.yaml"})
	r.generate = time.Since(start)
	goruntime.ReadMemStats(&after)
	r.genAlloc = after.TotalAlloc - before.TotalAlloc
	if err != nil {
		return nil, err
	}
	small, err := gen.Generate(gen.Config{Dir: dir}, []string{"cat10/tools.yaml"})
	if err != nil {
		return nil, err
	}
	for _, f := range append(out, small...) {
		if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
			return nil, err
		}
	}
	r.goBytes = len(out[0].Content)
	env := append(os.Environ(), "GOFLAGS=", "GOWORK="+filepath.Join(dir, "go.work"))
	build := exec.Command("go", "build", "./cat")
	build.Dir, build.Env = dir, env
	start = time.Now()
	if b, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, b)
	}
	r.build = time.Since(start)
	if ru, ok := build.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.buildRSS = ru.Maxrss << 10
	}
	run := exec.Command("go", "run", "./serve")
	run.Dir, run.Env = dir, env
	var stderr bytes.Buffer
	run.Stderr = &stderr
	b, err := run.Output()
	if err != nil {
		return nil, fmt.Errorf("serve: %v\n%s", err, stderr.Bytes())
	}
	if err := json.Unmarshal(b, &r.serve); err != nil {
		return nil, fmt.Errorf("serve printed %q: %v", b, err)
	}
	return r, nil
}

// apiArgs and smallArgs are the arguments of the call of list_issue_0 the
// serving program times, in each shape of catalog.
const (
	apiArgs   = `{"workspace":"acme","state":"closed","per_page":10}`
	smallArgs = `{"workspace":"acme","limit":10}`
)

// apiMethod and smallMethod are the serving program's handlers of
// list_issue_0 in each shape of catalog, as a file of package main: TYPE
// is the type, PKG the catalog's package.
const (
	apiMethod = `package main

import (
	"context"

	"example.com/catalog/PKG"
)

type TYPE struct{ PKG.UnimplementedHandlers }

func (TYPE) ListIssue0(context.Context, PKG.ListIssue0Input) (PKG.ListIssue0Output, error) {
	return PKG.ListIssue0Output{Items: []PKG.ListIssue0OutputItemsItem{{ID: 1, Title: "One"}}}, nil
}
`
	smallMethod = `package main

import (
	"context"

	"example.com/catalog/PKG"
)

type TYPE struct{ PKG.UnimplementedHandlers }

func (TYPE) ListIssue0(context.Context, PKG.ListIssue0Input) (PKG.ListIssue0Output, error) {
	return PKG.ListIssue0Output{ID: 1, Title: "One"}, nil
}
`
)

// serveMain serves both catalogs in process: NewServer five times (the
// median, and the live heap the last one holds), then list_issue_0's call
// through Invoke in each, after a warm-up that makes its schema's first
// use.
const serveMain = `package main

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"time"

	"example.com/catalog/cat"
	"example.com/catalog/cat10"
	tg "github.com/toolgen-go/toolgen/runtime"
)

func call(srv *tg.Server) int64 {
	c := &tg.Call{Tool: "list_issue_0", Arguments: json.RawMessage(` + "`ARGS`" + `)}
	for range 2000 {
		if out := srv.Invoke(context.Background(), c); out.Result == nil || out.Result.IsError {
			panic("the call failed")
		}
	}
	const n = 20000
	start := time.Now()
	for range n {
		srv.Invoke(context.Background(), c)
	}
	return int64(time.Since(start)) / n
}

func main() {
	tools := cat.Tools(big{})
	var times []int64
	var srv *tg.Server
	var before, after runtime.MemStats
	for range 5 {
		srv = nil
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		srv = tg.NewServer(tools, nil)
		times = append(times, int64(time.Since(start)))
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	slices.Sort(times)
	heap := after.HeapAlloc - before.HeapAlloc
	callNs := call(srv)
	call10 := call(tg.NewServer(cat10.Tools(small{}), nil))
	json.NewEncoder(os.Stdout).Encode(map[string]any{"new_server_ns": times[2], "heap_bytes": heap, "call_ns": callNs, "call10_ns": call10})
}
`
