// Package wire speaks the two protocols the benchmarks measure, as raw
// HTTP: the explorer's REST call (POST /tools/forecast/call) and MCP's
// Streamable HTTP (JSON-RPC: initialize, notifications/initialized, then
// tools/call). The in-process benchmarks and the load generator use the
// same requests and the same check of every answer, so a server that
// answers wrongly cannot look fast.
//
// It is written against a [RoundTrip] rather than an http.Client so that
// the in-process benchmarks can call a handler's ServeHTTP directly and
// count no client or network cost.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
)

// Args are the arguments of every call, and Want the structured result
// every server must answer them with.
const (
	Args = `{"city":"Paris","days":3,"units":"celsius"}`
	Want = `{"city":"Paris","days":3,"high":21.5,"summary":"sunny in celsius"}`
)

// ProtocolVersion is the MCP revision the client asks for: the last one
// with sessions, which every MCP server here speaks.
const ProtocolVersion = "2025-11-25"

// Protocol is what a server speaks.
type Protocol string

const (
	REST Protocol = "rest"
	MCP  Protocol = "mcp"
	// MCP2026 is MCP at revision 2026-07-28: no session, each call
	// stands alone with the revision's headers (Mcp-Protocol-Version,
	// Mcp-Method, Mcp-Name) and _meta (protocol version, client
	// capabilities). It is measured with MCP, in MCP's tables.
	MCP2026 Protocol = "mcp2026"
)

// ProtocolVersion2026 is the revision MCP2026 speaks.
const ProtocolVersion2026 = "2026-07-28"

// Family is the protocol whose tables p's figures go in: MCP for MCP2026.
func (p Protocol) Family() Protocol {
	if p == MCP2026 {
		return MCP
	}
	return p
}

// Path is where each protocol is served.
func (p Protocol) Path() string {
	if p == REST {
		return "/tools/forecast/call"
	}
	return "/mcp"
}

// A RoundTrip sends one request and returns the answer's status, header
// and body. The body may be reused by the next call: read it before then.
type RoundTrip func(*http.Request) (status int, header http.Header, body []byte, err error)

// Handler is a RoundTrip into h.ServeHTTP with an httptest.ResponseRecorder.
func Handler(h http.Handler) RoundTrip {
	return func(r *http.Request) (int, http.Header, []byte, error) {
		// What the server sets on a request it read, and a client must not.
		r.RequestURI = r.URL.RequestURI()
		r.RemoteAddr = "127.0.0.1:40000"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Header(), w.Body.Bytes(), nil
	}
}

// Client is a RoundTrip over c. Each call reads the whole body.
func Client(c *http.Client) RoundTrip {
	var buf bytes.Buffer
	return func(r *http.Request) (int, http.Header, []byte, error) {
		res, err := c.Do(r)
		if err != nil {
			return 0, nil, nil, err
		}
		defer res.Body.Close()
		buf.Reset()
		if _, err := buf.ReadFrom(res.Body); err != nil {
			return 0, nil, nil, err
		}
		return res.StatusCode, res.Header, buf.Bytes(), nil
	}
}

// Caller makes calls of the forecast tool to one server, over one MCP
// session for MCP. It is not safe for concurrent use: give each
// connection its own.
type Caller struct {
	rt       RoundTrip
	proto    Protocol
	url      *url.URL
	header   http.Header // sent with every call
	id       int         // the next JSON-RPC id
	expected []byte      // what the answer must contain, see Call
}

// NewCaller returns a Caller of the server at base (for example
// "http://127.0.0.1:8080") speaking proto through rt. For MCP it starts
// a session first: initialize and notifications/initialized. A stateless
// server gives no session id, and the calls then carry none.
func NewCaller(rt RoundTrip, base string, proto Protocol) (*Caller, error) {
	u, err := url.Parse(base + proto.Path())
	if err != nil {
		return nil, err
	}
	c := &Caller{rt: rt, proto: proto, url: u, header: http.Header{"Content-Type": {"application/json"}}, id: 1}
	c.expected = []byte(`"structuredContent":` + Want)
	switch proto {
	case MCP:
		c.header.Set("Accept", "application/json, text/event-stream")
		if err := c.initialize(); err != nil {
			return nil, fmt.Errorf("initializing the MCP session: %w", err)
		}
	case MCP2026:
		c.header.Set("Accept", "application/json, text/event-stream")
		c.header.Set("Mcp-Protocol-Version", ProtocolVersion2026)
		c.header.Set("Mcp-Method", "tools/call")
		c.header.Set("Mcp-Name", "forecast")
	}
	return c, nil
}

func (c *Caller) initialize() error {
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + ProtocolVersion +
		`","capabilities":{},"clientInfo":{"name":"toolgen-bench","version":"1"}}}`
	status, h, body, err := c.rt(c.request([]byte(init)))
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("initialize: status %d: %.300s", status, body)
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := decodeRPC(h, body, &res); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if res.ProtocolVersion != ProtocolVersion {
		return fmt.Errorf("initialize: the server chose protocol %q, want %q", res.ProtocolVersion, ProtocolVersion)
	}
	if id := h.Get("Mcp-Session-Id"); id != "" {
		c.header.Set("Mcp-Session-Id", id)
	}
	c.header.Set("Mcp-Protocol-Version", ProtocolVersion)
	status, _, body, err = c.rt(c.request([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)))
	if err != nil {
		return err
	}
	if status != http.StatusAccepted && status != http.StatusOK {
		return fmt.Errorf("notifications/initialized: status %d: %.300s", status, body)
	}
	return nil
}

// request builds a POST of body: a shallow request with its own header
// map (a handler may add to it), cheap enough not to blur what the
// in-process benchmarks measure, and the same for every server.
func (c *Caller) request(body []byte) *http.Request {
	return &http.Request{
		Method:        http.MethodPost,
		URL:           c.url,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        c.header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Host:          c.url.Host,
	}
}

// Call calls the tool once and checks the answer cheaply: status 200, not
// an error result, and the expected structured result in the body (every
// server here encodes it from the same Go struct, so its bytes are the
// same). [Check] parses an answer fully; the tests use it.
func (c *Caller) Call() error {
	status, _, body, err := c.call()
	if err != nil {
		return err
	}
	if status != http.StatusOK || !bytes.Contains(body, c.expected) || bytes.Contains(body, []byte(`"isError":true`)) {
		return fmt.Errorf("status %d: %.500s", status, body)
	}
	return nil
}

// CallChecked calls the tool once and checks the answer with [Check].
func (c *Caller) CallChecked() error {
	status, h, body, err := c.call()
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("status %d: %.500s", status, body)
	}
	return Check(c.proto, h, body)
}

func (c *Caller) call() (int, http.Header, []byte, error) { return c.Send(Args) }

// Send calls the tool with args, which need not be valid, and returns the
// answer unchecked.
func (c *Caller) Send(args string) (status int, header http.Header, body []byte, err error) {
	if c.proto == REST {
		return c.rt(c.request([]byte(args)))
	}
	// A new body each time: a transport may still read the last one when
	// its answer is back.
	const before = `{"jsonrpc":"2.0","id":`
	after := `,"method":"tools/call","params":{"name":"forecast","arguments":`
	if c.proto == MCP2026 {
		after = `,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + ProtocolVersion2026 +
			`","io.modelcontextprotocol/clientCapabilities":{}},"name":"forecast","arguments":`
	}
	msg := make([]byte, 0, len(before)+20+len(after)+len(args)+2)
	msg = append(msg, before...)
	msg = strconv.AppendInt(msg, int64(c.id), 10)
	msg = append(msg, after...)
	msg = append(msg, args...)
	msg = append(msg, `}}`...)
	c.id++
	return c.rt(c.request(msg))
}

// SendRPC sends one request of method whose params are _meta (with the
// revision's members at MCP2026, and extra members meta, raw JSON, "" for
// none) and the members params (raw JSON, "" for none); at MCP2026 it
// names method and name in the Mcp-Method and Mcp-Name headers. It
// returns the answer unchecked. (Call is the hot path of tools/call;
// this is for the other methods the benchmarks measure.)
func (c *Caller) SendRPC(method, name, meta, params string) (status int, header http.Header, body []byte, err error) {
	var b []byte
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, int64(c.id), 10)
	c.id++
	b = append(b, `,"method":"`...)
	b = append(b, method...)
	b = append(b, `","params":{`...)
	switch {
	case c.proto == MCP2026:
		b = append(b, `"_meta":{"io.modelcontextprotocol/protocolVersion":"`+ProtocolVersion2026+`","io.modelcontextprotocol/clientCapabilities":{}`...)
		if meta != "" {
			b = append(b, ',')
			b = append(b, meta...)
		}
		b = append(b, '}')
	case meta != "":
		b = append(b, `"_meta":{`...)
		b = append(b, meta...)
		b = append(b, '}')
	}
	if params != "" {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, params...)
	}
	b = append(b, `}}`...)
	r := c.request(b)
	if c.proto == MCP2026 {
		r.Header.Set("Mcp-Method", method)
		if name != "" {
			r.Header.Set("Mcp-Name", name)
		} else {
			r.Header.Del("Mcp-Name")
		}
	}
	return c.rt(r)
}

// toolResult is the part of a tool result (REST's answer, MCP's
// result) that is checked.
type toolResult struct {
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// Check parses an answer to a call and reports whether it is the right
// result: not an error, the structured content equal to Want as JSON, and
// one text content holding the same JSON (what MCP asks of a tool with
// structured content, for older clients).
func Check(proto Protocol, h http.Header, body []byte) error {
	var res toolResult
	var err error
	if proto == REST {
		err = json.Unmarshal(body, &res)
	} else {
		err = decodeRPC(h, body, &res)
	}
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("an error result: %s", body)
	}
	if !sameJSON(res.StructuredContent, []byte(Want)) {
		return fmt.Errorf("structured content %s, want %s", res.StructuredContent, Want)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" || !sameJSON([]byte(res.Content[0].Text), []byte(Want)) {
		return fmt.Errorf("content %+v, want one text of %s", res.Content, Want)
	}
	return nil
}

// decodeRPC decodes a JSON-RPC response's result into v, from a JSON body
// or the first message of an SSE stream.
func decodeRPC(h http.Header, body []byte, v any) error {
	if ct := h.Get("Content-Type"); len(ct) >= 17 && ct[:17] == "text/event-stream" {
		data, ok := sseData(body)
		if !ok {
			return fmt.Errorf("no data in the event stream: %.300s", body)
		}
		body = data
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		return fmt.Errorf("%w: %.300s", err, body)
	}
	if msg.Error != nil {
		return fmt.Errorf("JSON-RPC error %d: %s", msg.Error.Code, msg.Error.Message)
	}
	if msg.Result == nil {
		return errors.New("a JSON-RPC response without a result")
	}
	return json.Unmarshal(msg.Result, v)
}

// sseData returns the data of the first event in an SSE stream.
func sseData(stream []byte) ([]byte, bool) {
	for line := range bytes.Lines(stream) {
		if d, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:")); ok {
			return bytes.TrimSpace(d), true
		}
	}
	return nil, false
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
