package mcp

import (
	"context"
	"maps"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The lists of native.go (prompts, resources, templates) and
// server/discover: what the server serves, from its registries, as the
// go-sdk lists and describes it.

// listPrompts is prompts/list: the prompts by name, a page at a time, as
// the SDK lists its registry.
func (s *server) listPrompts(ctx context.Context, req *sdk.ListPromptsRequest) (sdk.Result, error) {
	key := func(p *sdk.Prompt) string { return p.Name }
	reg := &s.registry
	reg.mu.Lock()
	prompts := lastByKey(reg.prompts, key)
	reg.mu.Unlock()
	page, next, err := sdkPage(prompts, key, s.pageSize(), req.Params.Cursor)
	if err != nil {
		return nil, err
	}
	res := &sdk.ListPromptsResult{Prompts: page, NextCursor: next}
	s.cacheable(ctx, req, &res.Cacheable)
	return res, nil
}

// listResources is resources/list, by URI.
func (s *server) listResources(ctx context.Context, req *sdk.ListResourcesRequest) (sdk.Result, error) {
	key := func(r registeredResource) string { return r.res.URI }
	reg := &s.registry
	reg.mu.Lock()
	byURI := lastByKey(reg.resources, key)
	reg.mu.Unlock()
	page, next, err := sdkPage(byURI, key, s.pageSize(), req.Params.Cursor)
	if err != nil {
		return nil, err
	}
	res := &sdk.ListResourcesResult{Resources: make([]*sdk.Resource, 0, len(page)), NextCursor: next}
	for _, r := range page {
		res.Resources = append(res.Resources, r.res)
	}
	s.cacheable(ctx, req, &res.Cacheable)
	return res, nil
}

// listTemplates is resources/templates/list, by URI template.
func (s *server) listTemplates(ctx context.Context, req *sdk.ListResourceTemplatesRequest) (sdk.Result, error) {
	key := func(t registeredTemplate) string { return t.tmpl.URITemplate }
	page, next, err := sdkPage(s.templatesSorted(), key, s.pageSize(), req.Params.Cursor)
	if err != nil {
		return nil, err
	}
	res := &sdk.ListResourceTemplatesResult{ResourceTemplates: make([]*sdk.ResourceTemplate, 0, len(page)), NextCursor: next}
	for _, t := range page {
		res.ResourceTemplates = append(res.ResourceTemplates, t.tmpl)
	}
	s.cacheable(ctx, req, &res.Cacheable)
	return res, nil
}

// templatesSorted are the templates by URI template, the last given of
// each: the order the SDK matches a URI against them in.
func (s *server) templatesSorted() []registeredTemplate {
	reg := &s.registry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return lastByKey(reg.templates, func(t registeredTemplate) string { return t.tmpl.URITemplate })
}

// lastByKey is the last of each key among items, sorted by key: a
// registry as the SDK lists it, where adding a key again replaces it.
// It is never nil, so that an empty list encodes as [].
func lastByKey[T any](items []T, key func(T) string) []T {
	byKey := make(map[string]T, len(items))
	for _, it := range items {
		byKey[key(it)] = it
	}
	out := make([]T, 0, len(byKey))
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		out = append(out, byKey[k])
	}
	return out
}

// cacheable settles a result's caching hints as the SDK does
// (resolveCacheable): the server's decision, then "public" for a scope
// left unset.
func (s *server) cacheable(ctx context.Context, req sdk.Request, c *sdk.Cacheable) {
	s.setCacheable(ctx, req, c)
	if c.CacheScope == "" {
		c.CacheScope = "public"
	}
}

// discover is server/discover: the revisions the SDK speaks, and the
// capabilities of what the server serves, as the SDK works them out
// (its capabilities: what newServer gave it, with prompts, resources and
// completion when there are any).
func (s *server) discover(ctx context.Context, req sdk.Request) sdk.Result {
	res := &sdk.DiscoverResult{SupportedVersions: sdk.SupportedProtocolVersions(), Capabilities: s.capabilities(), Instructions: s.mopts.Instructions}
	s.cacheable(ctx, req, &res.Cacheable)
	return res
}

// capabilities are the server's capabilities as the SDK works them out:
// what newServer gave it, with prompts, resources and completion when
// there are any.
func (s *server) capabilities() *sdk.ServerCapabilities {
	caps := *s.caps
	reg := &s.registry
	reg.mu.Lock()
	prompts, resources := len(reg.prompts) > 0, len(reg.resources)+len(reg.templates) > 0
	reg.mu.Unlock()
	if prompts && caps.Prompts == nil {
		caps.Prompts = &sdk.PromptCapabilities{ListChanged: true}
	}
	if resources && caps.Resources == nil {
		// newServer gives the SDK a subscribe handler whenever it
		// serves a resource.
		caps.Resources = &sdk.ResourceCapabilities{ListChanged: true, Subscribe: true}
	}
	if s.opts.Complete != nil && caps.Completions == nil {
		caps.Completions = &sdk.CompletionCapabilities{}
	}
	return &caps
}
