package main

import (
	"github.com/toolgen-go/toolgen/runtime"
	_ "github.com/toolgen-go/toolgen/runtime/history/postgres" // -history postgres://... for replicas
	_ "github.com/toolgen-go/toolgen/runtime/history/sqlite"   // the default: a SQLite file
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	serve.Main(Tools(), &runtime.Options{
		Name:     "qmcp",
		Title:    "qmcp tools",
		Version:  "1.0.0",
		Explorer: runtime.ExplorerOptions{ProjectName: "toolgen", ProjectURL: "https://github.com/toolgen-go/toolgen"},
	})
}
