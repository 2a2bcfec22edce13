package main

import (
	"github.com/toolgen-go/toolgen/examples/internal/serve"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	serve.Main(Tools(), &runtime.Options{
		Title:       "Weather tools",
		ProjectName: "toolgen",
		ProjectURL:  "https://github.com/toolgen-go/toolgen",
	})
}
