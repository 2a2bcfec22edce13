package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/postgres"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
)

// BenchmarkCallRecording is the explorer's /call path with each history
// store, against none (history.Discard), in one run: what recording costs
// a call. PostgreSQL runs when TOOLGEN_TEST_POSTGRES names a database
// (.ci/postgres). See BENCHMARKS.md.
func BenchmarkCallRecording(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) history.Store
	}{
		{"none", func(*testing.B) history.Store { return history.Discard }},
		{"memory", func(*testing.B) history.Store { return history.NewMemory(history.Retention{}) }},
		{"sqlite", func(b *testing.B) history.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "h.db"), history.Retention{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	if dsn := os.Getenv("TOOLGEN_TEST_POSTGRES"); dsn != "" {
		stores = append(stores, struct {
			name string
			open func(b *testing.B) history.Store
		}{"postgres", func(b *testing.B) history.Store {
			sep := "?"
			if strings.Contains(dsn, "?") {
				sep = "&"
			}
			s, err := postgres.Open(context.Background(), dsn+sep+"search_path=bench_"+strconv.FormatInt(time.Now().UnixNano(), 36), history.Retention{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}})
	}
	for _, st := range stores {
		b.Run("store="+st.name, func(b *testing.B) {
			store := st.open(b)
			defer store.Close()
			s := NewServer(ToolList{forecastTool()}, &Options{AllowExecute: true, History: store})
			benchHandler(b, houseOf(s), "/tools/forecast/call")
		})
	}
}

// history.Discard keeps nothing and refuses no call.
func TestDiscardHistory(t *testing.T) {
	s := NewServer(ToolList{forecastTool()}, &Options{AllowExecute: true, History: history.Discard, Logger: discard()})
	if r := do(t, s, "POST", "/tools/forecast/call", forecastBody); r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	do(t, s, "GET", "/v1/invocations", "").is(t, 200, `{"invocations":[],"count":0,"total":0}`)
	do(t, s, "GET", "/v1/invocations?limit=501", "").is(t, 422, `{"detail":"limit 501 is not between 1 and 500"}`)
}
