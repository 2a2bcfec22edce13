package runtime

import (
	"context"
	"os"
	"slices"
)

// Secrets a tool declares (Tool.Secrets, the //toolgen:tool secrets=
// directive, secrets: in tools.yaml) and reads with [Secret]. A value comes
// from the call itself when its protocol carries secrets (OXP's
// context.secrets), else from Options.Secrets (default: the environment).
// Values are never logged or recorded: only the pipeline's check of what is
// missing names them, by id.

// SecretSource looks a secret up by id.
type SecretSource func(ctx context.Context, id string) (string, bool)

// EnvSecrets is the default [SecretSource]: the environment variable named
// by the id.
func EnvSecrets(_ context.Context, id string) (string, bool) { return os.LookupEnv(id) }

// secretScope is what [Secret] reads: the ids the tool declared, the
// call's own secrets, and the server's source.
type secretScope struct {
	declared []string
	call     map[string]string
	source   SecretSource
}

type secretsKey struct{}

// callSecretsKey holds the secrets a call carries (WithCallSecrets).
type callSecretsKey struct{}

// WithCallSecrets gives ctx the secrets a call carries itself, by id: a
// surface whose protocol has them (OXP's context.secrets) calls it on the
// context it passes to [Server.Invoke], and the tool's [Secret] reads them
// before Options.Secrets. They are never logged or recorded.
func WithCallSecrets(ctx context.Context, secrets map[string]string) context.Context {
	if len(secrets) == 0 {
		return ctx
	}
	return context.WithValue(ctx, callSecretsKey{}, secrets)
}

func (sc *secretScope) lookup(ctx context.Context, id string) (string, bool) {
	if !slices.Contains(sc.declared, id) {
		return "", false
	}
	if v, ok := sc.call[id]; ok {
		return v, true
	}
	return sc.source(ctx, id)
}

// Secret returns the value of a secret the running tool declared, or false
// when it has none (or did not declare id: a tool reads only what it
// declares, so that its requirements are honest).
func Secret(ctx context.Context, id string) (string, bool) {
	sc, ok := ctx.Value(secretsKey{}).(*secretScope)
	if !ok {
		return "", false
	}
	return sc.lookup(ctx, id)
}

// withSecrets gives ctx the scope [Secret] reads for t, with the secrets
// the call carries (WithCallSecrets), or returns the id of the first
// secret t declares that the call cannot have.
func (s *Server) withSecrets(ctx context.Context, t *Tool) (context.Context, string) {
	if len(t.Secrets) == 0 {
		return ctx, ""
	}
	call, _ := ctx.Value(callSecretsKey{}).(map[string]string)
	sc := &secretScope{declared: t.Secrets, call: call, source: s.opts.Secrets}
	if sc.source == nil {
		sc.source = EnvSecrets
	}
	for _, id := range t.Secrets {
		if _, ok := sc.lookup(ctx, id); !ok {
			return ctx, id
		}
	}
	return context.WithValue(ctx, secretsKey{}, sc), ""
}
