package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
)

type echoInput struct {
	Message string `json:"message"`
}

func echo(_ context.Context, in echoInput) (string, error) { return in.Message, nil }

// A server records every call, on every surface, in the store
// Options.History names: here a SQLite file, which outlives the process.
// (serve.Main's -history flag opens the same with history.Open, and
// defaults to a file in the user's cache directory once this package is
// imported.)
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "history")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "history.db")

	store, err := sqlite.Open(ctx, path, history.Retention{MaxRows: 100_000})
	if err != nil {
		panic(err)
	}
	srv := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("echo", "Echoes a message.", echo)},
		&runtime.Options{History: store})
	srv.Invoke(ctx, &runtime.Call{Tool: "echo", Arguments: json.RawMessage(`{"message":"hello"}`)})
	store.Close()

	// Opened again, by DSN as serve.Main does, the file has the call.
	again, err := history.Open(ctx, "sqlite:"+path, history.Retention{})
	if err != nil {
		panic(err)
	}
	defer again.Close()
	records, total, err := again.List(ctx, history.Filter{Tool: "echo"})
	if err != nil {
		panic(err)
	}
	fmt.Println(total, records[0].Tool, records[0].Status, string(records[0].Input), string(records[0].Result))
	// Output: 1 echo success {"message":"hello"} "hello"
}
