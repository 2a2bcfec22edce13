package runtime

import (
	"context"
	"net/http"
)

// AuthHook authenticates a call. It returns the context the call runs in,
// usually r.Context() carrying the caller's identity, or an error. The
// server logs the error at WARN and answers a generic 401
// {"error":"Unauthorized"}: the reason never reaches the client.
//
// On the explorer protocol the hook guards only POST /tools/{name}/call;
// discovery, validation and the page stay public.
type AuthHook func(r *http.Request) (context.Context, error)
