package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// ServeStdio serves MCP on standard input and output until the client
// disconnects or ctx is done. The auth hook does not apply: the client is
// the process that started this one. Log to standard error.
//
// A line that is not a JSON-RPC message is answered with a JSON-RPC
// error, as over HTTP, and the session goes on: the SDK's own stdio
// transport would end the session on it, with its decoder's Go text.
func ServeStdio(ctx context.Context, srv *runtime.Server, opts *Options) error {
	return ServeIO(ctx, srv, opts, os.Stdin, os.Stdout)
}

// ServeIO is ServeStdio on in and out (a pipe, a socket): one JSON-RPC
// message a line, until in ends or ctx is done.
func ServeIO(ctx context.Context, srv *runtime.Server, opts *Options, in io.Reader, out io.Writer) error {
	s := newServer(srv, opts)
	defer s.release()
	w := &lineWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		// Toolgen's code on a goroutine of its own: a panic ends the
		// session, not the process.
		defer func() {
			if v := recover(); v != nil {
				s.logPanic("MCP over stdio", v)
				pw.CloseWithError(errors.New("mcp: reading the input failed"))
			}
		}()
		pw.CloseWithError(s.checkLines(in, pw, w))
	}()
	err := s.sdk().Run(ctx, &sdk.IOTransport{Reader: pr, Writer: w})
	pr.Close()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// checkLines hands the SDK each line of in that is a JSON-RPC message (or
// batch), and answers any other line itself on w: a parse error, or
// invalid params for a request (a notification with bad params is
// dropped, as it may not be answered). A line is bounded by the server's
// body limit, its newline not counted.
func (s *server) checkLines(in io.Reader, sdkIn io.Writer, w *lineWriter) error {
	r := bufio.NewReader(in)
	limit := s.opts.MaxBodyBytes
	for {
		line, tooLong, err := readLine(r, limit)
		switch {
		case tooLong:
			w.refuse(&httpkit.Error{Code: jsonrpc.CodeParseError, Msg: "Parse error: the line is longer than the limit."}, s)
		case len(bytes.TrimSpace(line)) > 0:
			info, e := inspectRPC(line)
			if e == nil {
				if pe := info.paramsError(0); pe != nil {
					if len(info.badID) > 0 {
						w.refuse(pe, s)
					}
					break
				}
				if _, werr := sdkIn.Write(append(line, '\n')); werr != nil {
					return werr
				}
				break
			}
			w.refuse(e, s)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line of r without its newline. Past limit bytes (a
// positive limit) it drops the rest of the line and reports tooLong.
func readLine(r *bufio.Reader, limit int64) (line []byte, tooLong bool, err error) {
	for {
		var chunk []byte
		chunk, err = r.ReadSlice('\n')
		line = append(line, chunk...)
		content := bytes.TrimRight(line, "\r\n")
		if limit > 0 && int64(len(content)) > limit {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return nil, true, err
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return content, false, err
		}
	}
}

// lineWriter is standard output shared by the SDK and checkLines: one
// message (one Write, as the SDK writes them) at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lineWriter) Close() error { return nil }

// refuse answers a line that is not a JSON-RPC message, in the words the
// HTTP transports use, with "line" for "body".
func (l *lineWriter) refuse(err error, s *server) {
	var he *httpkit.Error
	if !errors.As(err, &he) {
		return
	}
	buf := fastBuffers.Get().(*bytes.Buffer)
	defer fastBuffers.Put(buf)
	buf.Reset()
	msg := strings.Replace(he.Msg, "the body", "the line", 1)
	encodeRPC(buf, he.ID, nil, &jsonrpc.Error{Code: he.Code, Message: msg}, s.log)
	buf.WriteByte('\n')
	_, _ = l.Write(buf.Bytes())
}
