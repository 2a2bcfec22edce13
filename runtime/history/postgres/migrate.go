package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrationLock is the key of the advisory lock that migrations hold (for
// every schema in the database: they are rare and quick).
const migrationLock = 0x746f6f6c67656e // "toolgen"

// firstSchema is the schema that tables are created in for a search_path
// (the first entry, unquoted), or "" for the server's default.
func firstSchema(searchPath string) string {
	first, _, _ := strings.Cut(searchPath, ",")
	first = strings.TrimSpace(first)
	if len(first) >= 2 && first[0] == '"' && first[len(first)-1] == '"' {
		return strings.ReplaceAll(first[1:len(first)-1], `""`, `"`)
	}
	if first == "$user" {
		return ""
	}
	// Unquoted identifiers fold to lower case, as the server does.
	return strings.ToLower(first)
}

// migrations are the schema's versions: migrations[i] takes the schema
// from version i to i+1. Add to the end; never edit a released step.
var migrations = []string{
	// 1: the table and an index for each filter, each in the order pages
	// are read (newest first, the last started first among records of
	// the same millisecond), so that a filtered page is read from its
	// index without a sort. JSON is text, not jsonb: jsonb would reorder
	// keys, drop duplicates and reject \u0000, and the store keeps it byte
	// for byte. seq is an identity column (a bigserial in the SQL
	// standard's spelling): the order records were first written in.
	`CREATE TABLE toolgen_invocations (
		seq            bigint GENERATED ALWAYS AS IDENTITY,
		id             text PRIMARY KEY,
		tool           text NOT NULL,
		surface        text NOT NULL,
		input          text,
		result         text,
		error          text,
		status         text NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
		duration_ms    double precision,
		created_at     timestamptz NOT NULL,
		completed_at   timestamptz,
		correlation_id text,
		caller         text
	);
	CREATE INDEX toolgen_invocations_created ON toolgen_invocations (created_at DESC, seq DESC);
	CREATE INDEX toolgen_invocations_tool ON toolgen_invocations (tool, created_at DESC, seq DESC);
	CREATE INDEX toolgen_invocations_status ON toolgen_invocations (status, created_at DESC, seq DESC);
	CREATE INDEX toolgen_invocations_surface ON toolgen_invocations (surface, created_at DESC, seq DESC);
	CREATE INDEX toolgen_invocations_correlation ON toolgen_invocations (correlation_id, created_at DESC, seq DESC)
		WHERE correlation_id IS NOT NULL;`,
	// 2: reads scoped to a caller (history.Filter.Caller), in page order.
	`CREATE INDEX toolgen_invocations_caller ON toolgen_invocations (caller, created_at DESC, seq DESC)
		WHERE caller IS NOT NULL;`,
	// 3: when a pending record stops waiting, and an index of the pending
	// ones by it, for the sweep that marks them interrupted.
	`ALTER TABLE toolgen_invocations ADD COLUMN deadline timestamptz;
	CREATE INDEX toolgen_invocations_deadline ON toolgen_invocations (deadline) WHERE status = 'pending';`,
	// 4: how a call that needed approval was decided (history.Approval as
	// JSON text), and the human requests (history.Humans) with their
	// answers. seq orders requests of the same millisecond, as it does
	// invocations, and each filter has an index in page order. options is
	// a JSON array, NULL when any answer goes. Only pending, responded and
	// cancelled are stored: a pending request past expires_at reads as
	// expired, worked out at each read. A response goes with its request.
	`ALTER TABLE toolgen_invocations ADD COLUMN approval text;
	CREATE TABLE toolgen_human_requests (
		seq             bigint GENERATED ALWAYS AS IDENTITY,
		id              text PRIMARY KEY,
		request_type    text NOT NULL,
		prompt          text NOT NULL,
		options         text,
		context         text NOT NULL,
		timeout_seconds bigint NOT NULL,
		status          text NOT NULL CHECK (status IN ('pending', 'responded', 'cancelled')),
		created_at      timestamptz NOT NULL,
		expires_at      timestamptz NOT NULL,
		correlation_id  text,
		caller          text,
		tool            text NOT NULL
	);
	CREATE INDEX toolgen_human_requests_created ON toolgen_human_requests (created_at DESC, seq DESC);
	CREATE INDEX toolgen_human_requests_status ON toolgen_human_requests (status, created_at DESC, seq DESC);
	CREATE INDEX toolgen_human_requests_type ON toolgen_human_requests (request_type, created_at DESC, seq DESC);
	CREATE INDEX toolgen_human_requests_caller ON toolgen_human_requests (caller, created_at DESC, seq DESC)
		WHERE caller IS NOT NULL;
	CREATE TABLE toolgen_human_responses (
		id                text PRIMARY KEY,
		request_id        text NOT NULL UNIQUE REFERENCES toolgen_human_requests (id) ON DELETE CASCADE,
		response          text NOT NULL,
		responded_by      text,
		response_metadata text NOT NULL,
		created_at        timestamptz NOT NULL
	);`,
	// 5: the rate limits a fleet shares (ratelimit.go): a bucket's
	// theoretical arrival time (GCRA), in microseconds since 1970, by
	// tool and caller. Unlogged: no write-ahead log, so no flush to disk
	// per call (a crash empties it, which only gives every caller a full
	// bucket).
	`CREATE UNLOGGED TABLE toolgen_rate_limits (
		key text PRIMARY KEY,
		tat bigint NOT NULL
	);`,
}

// migrate brings the schema to len(steps) in one transaction, under an
// advisory lock: PostgreSQL's DDL is transactional, and the lock makes a
// second process wait, then find the work done (two CREATE ... IF NOT
// EXISTS at once can still fail on a unique index of the catalog).
func migrate(ctx context.Context, pool *pgxpool.Pool, schema string, steps []string) error {
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
		return err
	}
	// Look before creating: CREATE ... IF NOT EXISTS checks the CREATE
	// privilege even when there is nothing to create, and a role that may
	// only read and write the tables must still be able to open them.
	if schema != "" {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize()); err != nil {
				return err
			}
		}
	}
	var table *string
	if err := tx.QueryRow(ctx, `SELECT to_regclass('toolgen_history_schema')::text`).Scan(&table); err != nil {
		return err
	}
	var v int
	if table == nil {
		if _, err := tx.Exec(ctx, `CREATE TABLE toolgen_history_schema (version integer NOT NULL)`); err != nil {
			return err
		}
	} else if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM toolgen_history_schema`).Scan(&v); err != nil {
		return err
	}
	if v > len(steps) {
		return fmt.Errorf("schema version %d is newer than this program's %d: use a newer toolgen", v, len(steps))
	}
	if v == len(steps) {
		return tx.Rollback(ctx)
	}
	for i := v; i < len(steps); i++ {
		if _, err := tx.Exec(ctx, steps[i]); err != nil {
			return fmt.Errorf("migrating to version %d: %w", i+1, err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM toolgen_history_schema`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO toolgen_history_schema (version) VALUES ($1)`, len(steps)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
