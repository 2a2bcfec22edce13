package main

import (
	"github.com/toolgen-go/toolgen/examples/internal/serve"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	serve.Main(Tools(&calculator{}), &runtime.Options{Title: "Calculator"})
}
