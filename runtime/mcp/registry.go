package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// registry is what the SDK's registry holds: each tool registered, by
// the fingerprint of its descriptor, and the prompts, so that a change can
// be announced by registering one again.
type registry struct {
	mu      sync.Mutex
	tools   map[string]uint64
	last    *sdk.Tool // the tool registered last, registered again to announce a change
	prompts []*sdk.Prompt
	handler []sdk.PromptHandler
	// resources and templates are what the SDK was given, for the
	// native path (native.go).
	resources []registeredResource
	templates []registeredTemplate
}

// registered reports whether the SDK's registry has a tool of that name.
func (s *server) registered(name string) bool {
	s.sdk()
	reg := &s.registry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	_, ok := reg.tools[name]
	return ok
}

// callUnregistered answers a tools/call for a tool that is not in the
// SDK's registry: a tool of a provider that is not a fixed list, whose
// tools may differ with every request and every caller. Registering them
// as they come would tell every session that the list changed. The SDK
// marks the results of its own tools for the protocol revision; an
// input-required result is marked here.
func (s *server) callUnregistered(ctx context.Context, req *sdk.CallToolRequest) (sdk.Result, error) {
	res, err := s.serveToolCall(ctx, req)
	if err != nil || len(res.InputRequests) == 0 {
		return res, err
	}
	return callResultJSON{res, "input_required"}, nil
}

// markedCall marks res, the answer to req that the SDK's dispatch did not
// give (and so did not mark), "complete" as the SDK marks a result of
// revision 2026-07-28; older revisions have no result types.
func markedCall(req *sdk.CallToolRequest, res *sdk.CallToolResult) sdk.Result {
	if res == nil || protocolOf(req) < protocol20260728 {
		return res
	}
	return callResultJSON{res, "complete"}
}

// registerTools puts every tool of a fixed list in the SDK's registry,
// served by serveToolCall, so that the SDK does for them what it does for
// its own: dispatch tools/call, check Mcp-Param-* headers (x-mcp-header),
// mark results for the protocol revision, carry input-required results.
// tools/list stays toolgen's (see listMCPTools): schemas and hints exactly
// as generated, and only what the caller may see. The tools of a provider
// that is not a fixed list are not registered (see callUnregistered).
func (s *server) registerTools() {
	if !s.fixed {
		return
	}
	tools, _ := s.core.Tools(context.Background()) // a ToolList's, which cannot fail
	tools = slices.Clone(tools)
	slices.SortFunc(tools, func(a, b runtime.Tool) int { return strings.Compare(a.Name, b.Name) })
	for i := range tools {
		s.register(&tools[i])
	}
}

// register puts t in the SDK's registry unless it is there as it is, which
// makes the SDK tell every session that the list changed. It reports
// whether it did.
func (s *server) register(t *runtime.Tool) bool {
	reg := &s.registry
	sum := fingerprint([]runtime.Tool{*t})
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if old, ok := reg.tools[t.Name]; ok && old == sum {
		return false
	}
	mt := &sdk.Tool{Name: t.Name, InputSchema: runtime.EffectiveInputSchema(t)}
	err := func() (err error) {
		// The SDK panics on an input schema that is not an object's.
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("%v", v)
			}
		}()
		s.sdkSrv.AddTool(mt, s.serveToolCall)
		return nil
	}()
	if err != nil {
		s.log.Warn("tool served over MCP outside the SDK's registry, which refuses its input schema", "tool", t.Name, "err", err)
		return false
	}
	if reg.tools == nil {
		reg.tools = map[string]uint64{}
	}
	reg.tools[t.Name] = sum
	reg.last = mt
	return true
}

// setCacheable decides the caching hints (ttlMs, cacheScope) of every
// result that carries them. Results are never cached (ttlMs 0: the
// provider may change at any time); they are private to the caller when a
// hook authenticates the requests, public otherwise.
func (s *server) setCacheable(_ context.Context, _ sdk.Request, c *sdk.Cacheable) {
	if s.opts.AuthHook != nil {
		c.CacheScope = "private"
	}
}

// ToolsChanged tells every session that the tool list changed
// (runtime.Server.NotifyToolsChanged).
func (s *server) ToolsChanged() {
	// The SDK sends notifications/tools/list_changed when its registry
	// changes and has no call to send one otherwise (an
	// sdk.Server.NotifyToolListChanged is missing): a tool is registered
	// again, as it is. A function provider's registry starts empty: one
	// of its tools is registered then (calls to it go through the SDK,
	// to serveToolCall, as the others' go through callUnregistered).
	s.sdk()
	reg := &s.registry
	reg.mu.Lock()
	last := reg.last
	reg.mu.Unlock()
	if last != nil {
		s.sdkSrv.AddTool(last, s.serveToolCall)
	} else if tools, err := s.core.Tools(context.Background()); err == nil && len(tools) > 0 {
		s.register(&tools[0])
	} else {
		s.log.Debug("tool list change not announced: no tool to register", "err", err)
	}
	s.listeners.listChanged(notifyToolsChanged)
	if !s.mopts.DisableRegistry {
		// The registry's list of tools changed with them.
		_ = s.ResourceUpdated(context.Background(), s.registryURI("tools"))
	}
}

// PromptsChanged tells every session that the prompt list changed
// (runtime.Server.NotifyPromptsChanged). Like ToolsChanged, it registers a
// prompt again (the SDK has no Server.NotifyPromptListChanged); a server
// without prompts has no list to change.
func (s *server) PromptsChanged() {
	s.listeners.listChanged(notifyPromptsChanged)
	reg := &s.registry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if n := len(reg.prompts); n > 0 {
		s.sdkSrv.AddPrompt(reg.prompts[n-1], reg.handler[n-1])
	}
}

// ResourceUpdated tells the sessions subscribed to uri that the resource
// changed (runtime.Server.NotifyResourceUpdated).
func (s *server) ResourceUpdated(ctx context.Context, uri string) error {
	s.listeners.resourceUpdated(uri)
	return s.sdkSrv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri})
}

// noticeToolChanges compares the tools a provider that is not a fixed list
// gave for an MCP session with what it gave for the same session before:
// when they changed, that session's client (and any other) is told to list
// them again. Comparing per session keeps a provider whose tools depend on
// the caller from looking like one that keeps changing.
func (s *server) noticeToolChanges(ss *sdk.ServerSession, tools []runtime.Tool) {
	if s.fixed || ss == nil {
		return // the fast path's one session stands for a request's own
	}
	key := weak.Make(ss)
	sum := fingerprint(tools)
	old, seen := s.listed.Swap(key, sum)
	if !seen {
		goruntime.AddCleanup(ss, func(k weak.Pointer[sdk.ServerSession]) { s.listed.Delete(k) }, key)
	} else if old.(uint64) != sum {
		s.core.NotifyToolsChanged() // every handler's sessions, /sse's too
	}
}

// noticeChanges notices, after a request of a session that listed or
// called tools, whether the provider's tools changed for that session
// (noticeToolChanges). The provider is not asked again: a request asks
// it once (runtime.Server.Tools keeps its answer in the request's state,
// which requestContext gives every message).
func (s *server) noticeChanges(ctx context.Context, req sdk.Request) {
	ss, _ := req.GetSession().(*sdk.ServerSession)
	if ss == nil {
		return
	}
	if tools, err := s.core.Tools(ctx); err == nil {
		s.noticeToolChanges(ss, tools)
	}
}

// fingerprint hashes what a client sees of a tool list.
func fingerprint(tools []runtime.Tool) uint64 {
	h := fnv.New64a()
	for i := range tools {
		t := &tools[i]
		for _, part := range [][]byte{[]byte(t.Name), []byte(t.Title), []byte(t.Description), t.InputSchema, t.OutputSchema} {
			h.Write(part)
			h.Write([]byte{0})
		}
		if !t.Annotations.IsZero() {
			a, _ := json.Marshal(t.Annotations)
			h.Write(a)
		}
		h.Write([]byte{1})
	}
	return h.Sum64()
}
