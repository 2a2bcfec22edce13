// Package httpkit is the serving path every HTTP surface of toolgen's
// runtime shares, in the shape connect-go gives its protocols: one core,
// and per protocol a small adapter that decodes its wire request into a
// call and encodes the outcome. What every surface does alike is done
// here, once:
//
//   - ids: X-Request-ID and X-Correlation-ID on every response ([WithIDs]);
//   - the browser guard against cross-origin and DNS-rebinding requests
//     ([Guard]);
//   - the method check, the auth hook, the body limit ([Kit.Handle]);
//   - the mapping of every refusal to the surface's own JSON error
//     ([Surface.WriteError]), so that no Go text reaches a client.
//
// It is a leaf: it knows HTTP and JSON, not the runtime's tools. The
// runtime core hands it what it needs (the auth hook's wrapper, the body
// limit, the logger) as plain fields of [Kit].
package httpkit
