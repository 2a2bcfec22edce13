// Command toolgen generates typed tool servers from annotated Go functions
// or from a tools.yaml.
//
// Usage:
//
//	toolgen [flags] [packages | tools.yaml ...]
//
// With no arguments it generates for the package in the current directory.
// Each package (or tools.yaml) gets one file, tools_gen.go by default.
//
// Flags:
//
//	-o FILE     name of the generated file (a path when there is one input)
//	-check      write nothing; exit 1 naming each file that would change
//	-v          print what was done
//	-tags LIST  comma-separated build tags, as for go build
//	-strict     make warnings errors
//
// Errors are printed as file:line:col: message, one a line, and make
// toolgen exit 1 without writing anything. Warnings (a tool or an argument
// without a description) are printed as file:line:col: warning: message
// and do not change the exit status, unless -strict makes them errors. Used from go:generate:
//
//	//go:generate go tool toolgen
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/gen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "name of the generated file (default "+gen.DefaultOutput+")")
	check := fs.Bool("check", false, "write nothing; exit 1 naming each file that would change")
	verbose := fs.Bool("v", false, "print what was done")
	tags := fs.String("tags", "", "comma-separated build tags")
	strict := fs.Bool("strict", false, "make warnings (a tool or an argument without a description) errors")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen [flags] [packages | tools.yaml ...]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg := gen.Config{Output: *out, Strict: *strict, Warn: func(w *gen.Error) { fmt.Fprintln(stderr, w) }}
	if *tags != "" {
		cfg.Tags = strings.Split(*tags, ",")
	}
	files, err := gen.Generate(cfg, fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	wd, _ := os.Getwd()
	rel := func(p string) string {
		if r, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
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
		if stale > 0 {
			return 1
		}
		return 0
	}
	wrote, err := gen.Write(files)
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
