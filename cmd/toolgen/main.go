// Command toolgen generates typed tool servers from annotated Go functions
// or from a tools.yaml.
//
// Usage:
//
//	toolgen [flags] [packages | tools.yaml ...]
//	toolgen init [-module PATH] [-replace DIR] [-tidy=false] DIR
//
// With no arguments it generates for the package in the current directory.
// Each package (or tools.yaml) gets one file, tools_gen.go by default.
//
// Flags:
//
//	-o FILE     name of the generated file (a path when there is one input)
//	-check      write nothing; exit 1 naming each file that would change
//	-v          print what was done, and to standard error how long each
//	            phase took, one line each: "toolgen: PHASE 12.345ms" for
//	            load, model, emit, format, then write (or check)
//	-tags LIST  comma-separated build tags, as for go build
//	-strict     make warnings errors
//	-client     also write tools_client_gen.go beside each generated file:
//	            a typed client, NewClient(runtime.Caller), with one method
//	            a tool (-check checks it too)
//	-lint PROFILES  comma-separated: claude, openai, gemini. Warn, at the
//	            Go field or tools.yaml key, of each input schema feature
//	            that provider's tool-calling API rejects or drops
//	            (file:line:col: lint(PROFILE): ...); -strict makes them
//	            errors
//	-openapi FILE          also write the OpenAPI 3.1 document of all the
//	                       tools generated, as a server of them serves it
//	                       at GET /openapi.json (-check checks it too)
//	-openapi-title TITLE   its info.title (default: the runtime's default
//	                       Options.Title, "MCP Tool Explorer")
//	-openapi-version V     its info.version (default 0.0.0)
//	-openapi-auth          declare the bearer scheme, as for a server with
//	                       an auth hook
//	-lock       also write tools.lock beside each generated file: every
//	            tool's name, version, annotations, policy and schemas, as
//	            sorted JSON. Once a tools.lock is there, every run (and
//	            -check) refuses a breaking change the versions do not
//	            allow, at its file:line:col, writing nothing
//	-force      with -lock: rewrite the lock over them, listing each
//	-diff OLD   print the changes from the lock OLD (a file, or git:REV)
//	            to the tools now; exit 0 when none breaks a caller, 1 when
//	            one does, 2 on an error
//	-json       with -diff: print them as JSON
//	-server-json FILE   also write the MCP registry's server.json: the
//	                    name from the module path, the description from
//	                    the package doc, the version from the toolkit,
//	                    unless -server-name, -server-description and
//	                    -server-version say otherwise; a remote with
//	                    -server-url URL, an OCI image (over stdio) with
//	                    -server-oci IMAGE (-check checks it too)
//
// toolgen init writes a new server module into DIR (created if missing):
// go.mod, with the tool directive that makes go generate run toolgen;
// tools.go, annotated tools; main.go, serving them with runtime/serve and
// recording their history in a SQLite file (runtime/history/sqlite);
// tools_test.go; README.md; and tools_gen.go and tools_client_gen.go (its
// typed client), generated. It then runs go mod tidy there, so that go
// run . serves at once. It refuses to
// overwrite any file, writing none. -module sets the module path (default:
// DIR's base name); -replace names a local checkout of toolgen for a
// replace directive, needed while the module is not published (and when
// this toolgen is a development build, whose version is unknown).
//
// Errors are printed as file:line:col: message, one a line, and make
// toolgen exit 1 without writing anything. Warnings (a tool or an argument
// without a description) are printed as file:line:col: warning: message
// and do not change the exit status, unless -strict makes them errors. Used from go:generate:
//
//	//go:generate go tool toolgen
//
// The guides: https://github.com/toolgen-go/toolgen/blob/main/docs/code-first.md (directives, type
// rules, this command), https://github.com/toolgen-go/toolgen/blob/main/docs/tools-yaml.md and
// https://github.com/toolgen-go/toolgen/blob/main/docs/clients.md (-client, -lint); installing toolgen
// from a checkout while the module is not published:
// https://github.com/toolgen-go/toolgen/blob/main/README.md#install.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/contract"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "init" {
		return runInit(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("toolgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "name of the generated file (default "+gen.DefaultOutput+")")
	check := fs.Bool("check", false, "write nothing; exit 1 naming each file that would change")
	verbose := fs.Bool("v", false, "print what was done, and how long each phase took (to standard error)")
	tags := fs.String("tags", "", "comma-separated build tags")
	strict := fs.Bool("strict", false, "make warnings (a tool or an argument without a description, -lint's findings) errors")
	lint := fs.String("lint", "", "comma-separated `PROFILES` (claude, openai, gemini): warn of each input schema feature that provider's tool-calling API rejects or drops")
	client := fs.Bool("client", false, "also write "+gen.DefaultClientOutput+", a typed client of the tools (NewClient(runtime.Caller)), beside each generated file")
	openapi := fs.String("openapi", "", "also write the OpenAPI 3.1 document of all the tools generated to `FILE`, as a server of them serves it at GET /openapi.json")
	openapiTitle := fs.String("openapi-title", "", "the OpenAPI document's info.title, a server's Options.Title (default \""+gen.DefaultOpenAPITitle+"\")")
	openapiVersion := fs.String("openapi-version", "", "the OpenAPI document's info.version, a server's Options.Version (default "+gen.DefaultOpenAPIVersion+")")
	openapiAuth := fs.Bool("openapi-auth", false, "declare the bearer scheme in the OpenAPI document, as for a server with an auth hook")
	lock := fs.Bool("lock", false, "also write "+contract.FileName+" beside each generated file, the contract of its tools; refuse a breaking change the versions do not allow")
	force := fs.Bool("force", false, "with -lock: rewrite the lock over breaking changes the versions do not allow, listing them")
	diffOld := fs.String("diff", "", "print the changes from the lock `OLD` (a file, or git:REV for the lock beside each generated file at that revision) to the tools now; exit 1 when one breaks a caller")
	jsonOut := fs.Bool("json", false, "with -diff: print the changes as JSON")
	var sj serverJSONFlags
	fs.StringVar(&sj.path, "server-json", "", "also write the MCP registry's server description to `FILE` (the name, description and version from the module path, the package doc and the toolkit, unless the flags below say otherwise)")
	fs.StringVar(&sj.name, "server-name", "", "with -server-json: the server's reverse-DNS `NAME` (default from the module path: io.github.OWNER/REPO)")
	fs.StringVar(&sj.description, "server-description", "", "with -server-json: its description, at most 100 characters (default the package doc's first sentence)")
	fs.StringVar(&sj.version, "server-version", "", "with -server-json: its `VERSION` (default the toolkit's)")
	fs.StringVar(&sj.url, "server-url", "", "with -server-json: a remote, its Streamable HTTP endpoint `URL`")
	fs.StringVar(&sj.oci, "server-oci", "", "with -server-json: an OCI `IMAGE` that serves MCP over stdio with -stdio (registry/owner/image[:tag])")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen [flags] [packages | tools.yaml ...]\n       toolgen init [-module PATH] [-replace DIR] [-tidy=false] DIR\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if msg := lockFlagsError(*lock, *force, *check, *diffOld, *jsonOut); msg != "" {
		fmt.Fprintln(stderr, msg)
		fs.Usage()
		return 2
	}
	cfg := gen.Config{Output: *out, Strict: *strict, Client: *client, Lock: *lock, Warn: func(w *gen.Error) { fmt.Fprintln(stderr, warning(w)) }}
	if *lint != "" {
		profiles, err := gen.ParseLintProfiles(*lint)
		if err != nil {
			fmt.Fprintln(stderr, err)
			fs.Usage()
			return 2
		}
		cfg.Lint = profiles
	}
	if *openapi != "" {
		cfg.OpenAPI = &gen.OpenAPIConfig{Path: *openapi, Title: *openapiTitle, Version: *openapiVersion, Auth: *openapiAuth}
	} else {
		var stray []string
		fs.Visit(func(f *flag.Flag) {
			if strings.HasPrefix(f.Name, "openapi-") {
				stray = append(stray, "-"+f.Name)
			}
		})
		if len(stray) > 0 {
			fmt.Fprintf(stderr, "%s without -openapi FILE\n", strings.Join(stray, ", "))
			fs.Usage()
			return 2
		}
	}
	if sj.path == "" {
		var stray []string
		fs.Visit(func(f *flag.Flag) {
			if strings.HasPrefix(f.Name, "server-") {
				stray = append(stray, "-"+f.Name)
			}
		})
		if len(stray) > 0 {
			fmt.Fprintf(stderr, "%s without -server-json FILE\n", strings.Join(stray, ", "))
			fs.Usage()
			return 2
		}
	}
	if *tags != "" {
		cfg.Tags = strings.Split(*tags, ",")
	}
	timed := func(string, time.Duration) {}
	if *verbose {
		timed = func(phase string, d time.Duration) { printPhase(stderr, phase, d) }
		cfg.Timed = timed
	}
	files, err := gen.Generate(cfg, fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, err)
		if *diffOld != "" {
			return 2
		}
		return 1
	}
	wd, _ := os.Getwd()
	rel := func(p string) string {
		if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	if *diffOld != "" {
		return runDiff(files, *diffOld, *jsonOut, rel, stdout, stderr)
	}
	if sj.path != "" {
		f, err := serverJSONFile(files, sj)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		files = append(files, f)
	}
	if !checkLocks(files, *check, *force, rel, stderr) {
		return 1
	}
	start := time.Now()
	if *check {
		stale := 0
		for _, f := range files {
			if f.Stale() {
				fmt.Fprintf(stderr, "%s is out of date: run toolgen\n", rel(f.Path))
				stale++
			} else if *verbose {
				fmt.Fprintf(stdout, "%s is up to date\n", rel(f.Path))
			}
		}
		timed(phaseCheck, time.Since(start))
		if stale > 0 {
			return 1
		}
		return 0
	}
	wrote, err := gen.Write(files)
	timed(phaseWrite, time.Since(start))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if *verbose {
		written := map[*gen.File]bool{}
		for _, f := range wrote {
			written[f] = true
			fmt.Fprintf(stdout, "wrote %s\n", rel(f.Path))
		}
		for _, f := range files {
			if !written[f] {
				fmt.Fprintf(stdout, "%s is up to date\n", rel(f.Path))
			}
		}
	}
	return 0
}

// warning is how a warning prints: "file:line:col: warning: message", or
// for -lint's findings "file:line:col: lint(PROFILE): ...", which say
// what they are.
func warning(w *gen.Error) string {
	if strings.HasPrefix(w.Msg, "lint(") {
		plain := *w
		plain.Warning = false
		return plain.Error()
	}
	return w.Error()
}

// The phases -v times beyond gen's: writing the files, or with -check
// comparing them with those on disk.
const (
	phaseWrite = "write"
	phaseCheck = "check"
)

// printPhase prints how long a phase took, in one stable shape a line:
// "toolgen: PHASE DURATION", the duration always in milliseconds to the
// microsecond ("toolgen: load 152.301ms"), so that lines compare at a
// glance and parse with time.ParseDuration.
func printPhase(w io.Writer, phase string, d time.Duration) {
	fmt.Fprintf(w, "toolgen: %s %.3fms\n", phase, float64(d)/float64(time.Millisecond))
}

// runInit is toolgen init.
func runInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	module := fs.String("module", "", "the new module's path, `PATH` (default: DIR's base name)")
	replace := fs.String("replace", "", "`DIR`, a local checkout of toolgen, for a replace directive in go.mod (while the module is not published)")
	tidy := fs.Bool("tidy", true, "run go mod tidy in DIR after writing it (needs the module proxy, or the dependencies in the module cache)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen init [-module PATH] [-replace DIR] [-tidy=false] DIR\n\n"+
			"Writes a new tool server module into DIR: go.mod, tools.go, main.go,\n"+
			"tools_test.go, README.md and the generated tools_gen.go and tools_client_gen.go.\nOverwrites nothing.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		if fs.NArg() == 0 {
			fmt.Fprintln(stderr, "toolgen init: no directory given")
		} else {
			fmt.Fprintf(stderr, "toolgen init: one directory, and flags before it: got %s\n", strings.Join(fs.Args(), " "))
		}
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	files, err := gen.Init(gen.InitConfig{Dir: dir, Module: *module, Replace: *replace})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := gen.WriteNew(files); err != nil {
		fmt.Fprintf(stderr, "toolgen init: %v\n", err)
		return 1
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f.Path)
	}
	fmt.Fprintf(stdout, "wrote %s in %s\n", strings.Join(names, ", "), dir)
	if *tidy {
		if err := gen.Tidy(dir); err != nil {
			fmt.Fprintf(stderr, "toolgen init: %v\nThe files are written: run go mod tidy in %s once that is fixed.\n", err, dir)
			return 1
		}
		fmt.Fprintf(stdout, "ran go mod tidy in %s\n", dir)
	}
	fmt.Fprintf(stdout, "\nNext:\n")
	if filepath.Clean(dir) != "." {
		fmt.Fprintf(stdout, "\tcd %s\n", dir)
	}
	if !*tidy {
		fmt.Fprintf(stdout, "\tgo mod tidy\n")
	}
	fmt.Fprintf(stdout, "\tgo run . -allow-execute\n")
	return 0
}
