package oxp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/oxp"
)

// mount is s's OXP surface where serve.NewHandler mounts it, at /oxp.
func mount(s *runtime.Server, opts *oxp.Options) http.Handler {
	return http.StripPrefix("/oxp", oxp.NewHandler(s, opts))
}

// slowTimeout is the timeout of the slow tool, which outlasts it.
const slowTimeout = 50 * time.Millisecond

// The tools the tests call, by what they do.
var (
	plain = func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("result here"), nil
	}
	softFail = func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.ErrorResult("no such city"), nil
	}
	panics = func(context.Context, json.RawMessage) (*runtime.Result, error) { panic("boom") }
	// slow ignores ctx on purpose, and outlasts any test's wait for a
	// timeout answer by far: a test that waited for it would show.
	slow = func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		time.Sleep(time.Minute)
		return runtime.TextResult("late"), nil
	}
)

func signJWT(t *testing.T, method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
