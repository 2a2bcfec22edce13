package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

func (s *server) addPrompt(p *runtime.Prompt) {
	mp := &sdk.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
	for _, a := range p.Arguments {
		mp.Arguments = append(mp.Arguments, &sdk.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
	}
	h := func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		args := req.Params.Arguments
		if args == nil {
			args = map[string]string{}
		}
		if err := p.CheckArgs(args); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		// Bound before the handler runs, which may change args.
		b, _ := json.Marshal(args)
		bind := func() []byte { return b }
		ctx, c, err := s.newCall(ctx, req, "prompt", p.Name, bind, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		res, err := p.Get(ctx, args)
		if ir, ok := c.inputRequired(ctx); ok {
			return &sdk.GetPromptResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
		if err := c.missingCapability(err); err != nil {
			return nil, err
		}
		if err != nil {
			s.log.ErrorContext(ctx, "prompt failed", "prompt", p.Name, "err", err)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		out := &sdk.GetPromptResult{Description: res.Description, Messages: []*sdk.PromptMessage{}}
		for _, m := range res.Messages {
			mc, err := mcpContent(m.Content)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
			}
			out.Messages = append(out.Messages, &sdk.PromptMessage{Role: sdk.Role(m.Role), Content: mc})
		}
		return out, nil
	}
	s.sdkSrv.AddPrompt(mp, h)
	reg := &s.registry
	reg.prompts, reg.handler = append(reg.prompts, mp), append(reg.handler, h)
}

// mcpContent converts a content block to the SDK's type.
func mcpContent(c runtime.Content) (sdk.Content, error) {
	switch c.Type {
	case runtime.ContentText:
		return &sdk.TextContent{Text: c.Text}, nil
	case runtime.ContentImage:
		return &sdk.ImageContent{Data: c.Data, MIMEType: c.MIMEType}, nil
	case runtime.ContentAudio:
		return &sdk.AudioContent{Data: c.Data, MIMEType: c.MIMEType}, nil
	case runtime.ContentResource:
		if c.Resource == nil {
			return nil, errors.New("resource content without a resource")
		}
		r := c.Resource
		return &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob}}, nil
	case runtime.ContentResourceLink:
		return &sdk.ResourceLink{URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description, MIMEType: c.MIMEType, Size: c.Size}, nil
	}
	return nil, fmt.Errorf("unknown content type %q", c.Type)
}
