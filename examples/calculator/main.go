package main

import (
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	serve.Main(Tools(&calculator{}), &runtime.Options{Title: "Calculator"})
}
