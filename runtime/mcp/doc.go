// Package mcp serves a runtime.Server's tools, prompts and resources over
// the Model Context Protocol, as a surface of its own: a program that
// mounts it alone links no other surface.
//
//	srv := runtime.NewServer(Tools(), nil)
//	http.Handle("/mcp", mcp.NewHandler(srv, nil))
//
// [NewHandler] is Streamable HTTP, one endpoint for every client whatever
// revision it speaks: a request of revision 2026-07-28 is answered by
// toolgen's own code (input-required rounds with a sealed requestState,
// server/discover, tasks), an older client gets a session of the
// official go-sdk whose streams can be resumed. [NewSSEHandler] is the
// HTTP+SSE transport of 2024-11-05, [ServeStdio] the same server on
// standard input and output, [Connect] on any go-sdk transport, and
// [NewOAuthMetadataHandler] the protected resource metadata of a server
// with runtime.Options.OAuth. runtime/serve mounts them all at their
// default paths ([DefaultPath], [DefaultSSEPath]).
//
// Every tools/call goes through the core's one pipeline
// (runtime.Server.Invoke) like a call on any other surface, and is
// recorded in its history. A tool reaches the client with the core's
// helpers (runtime.Log, Progress, Sample, Elicit), which name no go-sdk
// type; this package adds what only MCP has: [Ask] (several requests at
// once), [Roots], [StartTask], and the go-sdk's own values
// ([SessionFromContext], [MCPRequestFromContext],
// [ClientCapabilitiesFromContext]).
//
// Each constructor builds a server of its own (the go-sdk's server,
// sessions, tasks) and registers it with the core, which tells it of
// changes (runtime.Server.NotifyToolsChanged): build a handler once, not
// per request. docs/mcp.md is the guide.
package mcp
