package runtime

import (
	"context"
	"net/http"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Authenticate runs the auth hook on r: it is the one place the hook runs,
// for every surface. It returns the context to serve r in (r's own when
// there is no hook), or on rejection logs the reason at WARN and returns
// an error that every surface answers as a generic 401 with the hook's
// challenge. The returned context carries the request's state (see
// [RequestFromContext]) whatever context the hook returned.
func (s *Server) Authenticate(r *http.Request) (context.Context, error) {
	ctx := r.Context()
	if s.opts.AuthHook == nil {
		return ctx, nil
	}
	hctx, err := s.opts.AuthHook(r)
	if err != nil {
		s.log.WarnContext(ctx, "request rejected by auth hook", "path", r.URL.Path, "remote", r.RemoteAddr, "err", err)
		return nil, &httpkit.Error{Status: http.StatusUnauthorized, Msg: httpkit.MsgUnauthorized, Header: map[string]string{"WWW-Authenticate": authChallenge(err)}}
	}
	if hctx == nil {
		return ctx, nil
	}
	if st := httpkit.StateFrom(ctx); st != nil && httpkit.StateFrom(hctx) != st {
		hctx = httpkit.NewContext(hctx, st)
	}
	return hctx, nil
}
