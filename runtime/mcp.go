package runtime

import "net/http"

// MCPOptions configures the MCP surface (Streamable HTTP at /mcp).
type MCPOptions struct {
	// Disable turns the surface off.
	Disable bool
}

// mcpHandler serves MCP over Streamable HTTP.
func (s *Server) mcpHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotImplemented, "MCP is not implemented yet.")
	})
}
