package main

import (
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	serve.Main(AllTools(), &runtime.Options{
		Title:       "Weather tools",
		ProjectName: "toolgen",
		ProjectURL:  "https://github.com/toolgen-go/toolgen",
	})
}
