package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Callers. A typed client (toolgen -client writes one, tools_client_gen.go,
// with NewClient(Caller)) calls a tool server through a [Caller], which
// says nothing of where the server is: [InProcess] runs the tools of a
// *Server in this process (for tests), [MCPCaller] calls them over an MCP
// client session (go-sdk's client, any transport), and [RESTCaller] over
// the explorer's REST protocol. The three answer alike: the tool's result,
// or a typed error.

// Caller calls a tool by name with its arguments, a JSON object (empty
// or null means {}), and returns its result.
//
// A result that is not an error comes back as it is, its
// StructuredContent, when there is one, a json.RawMessage (as the server
// sent it, so that a structured result that is not an object is wrapped
// as {"result": value}). A failure comes back as an error, the result
// nil:
//   - a [*ToolError] when the tool failed (an isError result): its
//     Message is the result's text;
//   - a [*ValidationError] when the arguments were refused, with an
//     issue for each way in which they are wrong;
//   - an error wrapping [ErrToolNotFound] when the server has no such
//     tool;
//   - any other error as the transport gave it (a connection refused, a
//     [*StatusError] for an HTTP refusal, an MCP protocol error).
type Caller interface {
	Call(ctx context.Context, tool string, args json.RawMessage) (*Result, error)
}

// StatusError is an HTTP response that refused a call before it reached
// the tool (401 without a valid token, 403 without a scope or with
// execution disabled): the status and the server's message.
type StatusError struct {
	StatusCode int
	Message    string
}

// Error gives the status and the server's message.
func (e *StatusError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	return fmt.Sprintf("HTTP %d: %s", e.StatusCode, msg)
}

// InProcess returns a Caller that runs the tools of s in this process,
// through [Server.Invoke] (the pipeline every surface uses: validation,
// defaults, timeouts, middleware), with no network and no auth hook: ctx
// is what the tool receives. It is meant for tests, and for a program that
// embeds its tools.
//
// The errors are the pipeline's own: the [*ToolError] a tool returned
// (with its DeveloperMessage and retry advice), a [*ToolError] saying what
// went wrong for any other failure (an error, a panic, a timeout), the
// [*ValidationError] of refused arguments, a [*ScopeError], and for a
// tool that is not there an error wrapping [ErrToolNotFound].
func InProcess(s *Server) Caller { return inProcess{s} }

type inProcess struct{ s *Server }

func (c inProcess) Call(ctx context.Context, tool string, args json.RawMessage) (*Result, error) {
	if string(bytes.TrimSpace(args)) == "null" {
		args = emptyObject
	}
	out := c.s.Invoke(ctx, &Call{Tool: tool, Arguments: args})
	switch out.Status {
	case StatusOK:
		return rawStructured(out.Result)
	case StatusFailed, StatusTimeout:
		var te *ToolError
		if errors.As(out.Err, &te) {
			return nil, te
		}
		return nil, &ToolError{Message: textOf(out.Result), CanRetry: out.Status == StatusTimeout}
	}
	if out.Err != nil {
		return nil, out.Err
	}
	return nil, &ToolError{Message: textOf(out.Result)}
}

// rawStructured returns r with its structured content as JSON, a copy when
// it changes (the pipeline's result may be shared with the handler).
func rawStructured(r *Result) (*Result, error) {
	if r == nil {
		return &Result{Content: []Content{}}, nil
	}
	if r.StructuredContent == nil {
		return r, nil
	}
	if _, ok := r.StructuredContent.(json.RawMessage); ok {
		return r, nil
	}
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		return nil, fmt.Errorf("encode structured content: %w", err)
	}
	cp := *r
	cp.StructuredContent = json.RawMessage(b)
	return &cp, nil
}

// MCPCaller returns a Caller that calls tools over an MCP client session
// (go-sdk's client, connected over any transport: Streamable HTTP, stdio,
// in memory), with tools/call.
//
// An isError result is a [*ToolError] whose Message is its text, or a
// [*ValidationError] when its text is a toolgen server's report of
// refused arguments ("invalid arguments:" and one line an issue); a
// protocol error "invalid params" is a [*ValidationError] of one issue
// with its message (an unknown tool's wraps [ErrToolNotFound] instead).
// Other protocol and transport errors come back as the session gave them.
func MCPCaller(cs *mcp.ClientSession) Caller { return mcpCaller{cs} }

type mcpCaller struct{ cs *mcp.ClientSession }

func (c mcpCaller) Call(ctx context.Context, tool string, args json.RawMessage) (*Result, error) {
	args, err := callArgs(args)
	if err != nil {
		return nil, err
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams {
			if strings.HasPrefix(je.Message, "unknown tool") {
				return nil, fmt.Errorf("%w: %s (%w)", ErrToolNotFound, tool, err)
			}
			return nil, &ValidationError{Issues: []ValidationIssue{{Path: "", Message: je.Message, Keyword: "schema"}}}
		}
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("read the result of %s: %w", tool, err)
	}
	return wireResult(b, tool)
}

// wireResult reads a CallToolResult as MCP and the explorer send it, and
// returns the typed error of an isError one.
func wireResult(body []byte, tool string) (*Result, error) {
	var w struct {
		Content           []Content       `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Meta              struct {
			TraceID string `json:"_trace_id"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("read the result of %s: %w", tool, err)
	}
	r := &Result{Content: w.Content, IsError: w.IsError, TraceID: w.Meta.TraceID}
	if r.Content == nil {
		r.Content = []Content{}
	}
	if len(w.StructuredContent) > 0 && string(w.StructuredContent) != "null" {
		r.StructuredContent = w.StructuredContent
	}
	if !r.IsError {
		return r, nil
	}
	text := textOf(r)
	if ve := parseValidationError(text); ve != nil {
		return nil, ve
	}
	return nil, &ToolError{Message: text}
}

// parseValidationError reads back the text of a refusal of arguments, as
// [ValidationError.Error] writes it; nil when text is not one.
func parseValidationError(text string) *ValidationError {
	rest, ok := strings.CutPrefix(text, "invalid arguments:")
	if !ok {
		return nil
	}
	ve := &ValidationError{}
	for _, line := range strings.Split(rest, "\n- ")[1:] {
		open := strings.LastIndex(line, " (")
		if open < 0 || !strings.HasSuffix(line, ")") {
			return nil
		}
		is := ValidationIssue{Keyword: line[open+2 : len(line)-1]}
		path, msg, ok := strings.Cut(line[:open], ": ")
		if !ok {
			return nil
		}
		if path != "(root)" {
			is.Path = path
		}
		is.Message = msg
		ve.Issues = append(ve.Issues, is)
	}
	if len(ve.Issues) == 0 {
		return nil
	}
	ve.Malformed = len(ve.Issues) == 1 && ve.Issues[0].Keyword == "format" && ve.Issues[0].Path == ""
	return ve
}

// callArgs checks that arguments to send are JSON, as the server would:
// they cannot go over MCP otherwise, and the explorer would take them for
// {}. Empty arguments are {}, and so is null (a nil map or pointer
// marshalled).
func callArgs(args json.RawMessage) (json.RawMessage, error) {
	if a := bytes.TrimSpace(args); len(a) == 0 || string(a) == "null" {
		return emptyObject, nil
	}
	if !json.Valid(args) {
		return nil, &ValidationError{Malformed: true, Issues: []ValidationIssue{{Path: "", Message: "the arguments are not JSON", Keyword: "format"}}}
	}
	return args, nil
}

// textOf is the text of a result's text blocks, one a line.
func textOf(r *Result) string {
	if r == nil {
		return ""
	}
	var parts []string
	for _, c := range r.Content {
		if c.Type == ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// RESTCaller returns a Caller that calls tools over the explorer's REST
// protocol: POST {baseURL}/tools/{name}/call with the arguments as the
// body (the server must allow execution, Options.AllowExecute). c is the
// HTTP client to use; nil means [http.DefaultClient]. For a server behind
// an auth hook, give a client that sends the token: [BearerClient].
//
// A 400 answer with an isError result is a [*ValidationError] (its
// issues read from the result's text), any other isError result a
// [*ToolError] (with the retry advice of a 429 or 503 answer's
// Retry-After); 404 wraps [ErrToolNotFound]; any other refusal is a
// [*StatusError].
func RESTCaller(baseURL string, c *http.Client) Caller {
	if c == nil {
		c = http.DefaultClient
	}
	return restCaller{base: strings.TrimRight(baseURL, "/"), c: c}
}

type restCaller struct {
	base string
	c    *http.Client
}

func (c restCaller) Call(ctx context.Context, tool string, args json.RawMessage) (*Result, error) {
	args, err := callArgs(args)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/tools/"+url.PathEscape(tool)+"/call", bytes.NewReader(args))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("read the result of %s: %w", tool, err)
	}
	var probe struct {
		Content json.RawMessage `json:"content"`
		Error   *string         `json:"error"`
	}
	_ = json.Unmarshal(body, &probe)
	if probe.Content == nil { // not a result: a refusal, {"error": "..."}
		msg := strings.TrimSpace(string(body))
		if probe.Error != nil {
			msg = *probe.Error
		}
		switch resp.StatusCode {
		case http.StatusNotFound:
			return nil, fmt.Errorf("%w: %s (%s)", ErrToolNotFound, tool, msg)
		case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusConflict:
			return nil, &ToolError{Message: msg, CanRetry: resp.StatusCode != http.StatusConflict, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
		}
		return nil, &StatusError{StatusCode: resp.StatusCode, Message: msg}
	}
	r, err := wireResult(body, tool)
	var te *ToolError
	if errors.As(err, &te) && resp.StatusCode == http.StatusGatewayTimeout {
		te.CanRetry = true
	}
	return r, err
}

// retryAfter reads a Retry-After header in seconds; zero when there is
// none.
func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

// BearerClient returns an HTTP client that sends "Authorization: Bearer
// token" with every request, over c's transport (nil c:
// [http.DefaultClient]'s). Give it to [RESTCaller] for a server behind
// [BearerTokens], or to go-sdk's StreamableClientTransport as its
// HTTPClient.
func BearerClient(token string, c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cp := *c
	base := cp.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = bearerTransport{token: token, base: base}
	return &cp
}

type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (t bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return t.base.RoundTrip(r)
}

// DecodeResult decodes a tool's structured result into out, a pointer:
// the result's structured content, or for a result without any its text
// as JSON (what a client that reads only text sees). With wrapped, the
// value is that of the structured content's "result" member, as servers
// wrap a structured result that is not an object ({"result": value}). A
// typed client (toolgen -client) calls it; so can a program that calls a
// [Caller] itself.
func DecodeResult(r *Result, wrapped bool, out any) error {
	if r == nil {
		return errors.New("no result to decode")
	}
	var data []byte
	switch sc := r.StructuredContent.(type) {
	case nil:
		data = []byte(textOf(r))
		if len(r.Content) == 0 {
			data = []byte("null")
		}
		wrapped = false // the text is the value itself
	case json.RawMessage:
		data = sc
	default:
		b, err := json.Marshal(sc)
		if err != nil {
			return fmt.Errorf("decode result: %w", err)
		}
		data = b
	}
	if wrapped {
		var w struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return fmt.Errorf("decode result: %w", err)
		}
		data = w.Result
		if data == nil {
			data = []byte("null")
		}
	}
	err := json.Unmarshal(data, out)
	if err != nil && r.StructuredContent == nil && !json.Valid(data) {
		// The text of a value that is a JSON string is the string itself.
		quoted, _ := json.Marshal(string(data))
		if json.Unmarshal(quoted, out) == nil {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("decode result: %w", err)
	}
	return nil
}

// ResultText returns the text of a result's text blocks, one a line: the
// value of a tool whose result is text.
func ResultText(r *Result) string { return textOf(r) }
