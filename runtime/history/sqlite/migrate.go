package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	// and the "sqlite" database/sql driver
)

// migrations are the schema's versions: migrations[i] takes a file from
// user_version i to i+1. Add to the end; never edit a released step.
var migrations = []string{
	// 1: the table and an index for each filter. seq is the rowid:
	// SQLite gives a new row a seq above every row present, which is all
	// the tie-break between records of the same millisecond needs
	// (AUTOINCREMENT would also keep seqs of deleted rows from coming
	// back, at the cost of a write to sqlite_sequence on every insert).
	// Each index ends in the rowid implicitly, so (x, created_at) is
	// ordered by (x, created_at, seq): a filtered, newest-first page is
	// read straight from its index, with no sort.
	`CREATE TABLE invocations (
		seq            INTEGER PRIMARY KEY,
		id             TEXT NOT NULL UNIQUE,
		tool           TEXT NOT NULL,
		surface        TEXT NOT NULL,
		input          TEXT,
		result         TEXT,
		error          TEXT,
		status         TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
		duration_ms    REAL,
		created_at     INTEGER NOT NULL, -- Unix milliseconds
		completed_at   INTEGER,          -- Unix milliseconds
		correlation_id TEXT,
		caller         TEXT
	);
	CREATE INDEX invocations_created ON invocations (created_at);
	CREATE INDEX invocations_tool ON invocations (tool, created_at);
	CREATE INDEX invocations_status ON invocations (status, created_at);
	CREATE INDEX invocations_surface ON invocations (surface, created_at);
	CREATE INDEX invocations_correlation ON invocations (correlation_id, created_at) WHERE correlation_id IS NOT NULL;`,
	// 2: reads scoped to a caller (history.Filter.Caller), in page order;
	// and the one row Ping writes to know the file can be written.
	`CREATE INDEX invocations_caller ON invocations (caller, created_at) WHERE caller IS NOT NULL;
	CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);`,
	// 3: when a pending record stops waiting (Unix milliseconds), and an
	// index of the pending ones by it, for the sweep that marks them
	// interrupted.
	`ALTER TABLE invocations ADD COLUMN deadline INTEGER;
	CREATE INDEX invocations_deadline ON invocations (deadline) WHERE status = 'pending';`,
	// 4: how a call that needed approval was decided (history.Approval as
	// JSON), and the human requests (history.Humans) with their answers.
	// A request's seq is its rowid, as an invocation's is: the tie-break
	// of the newest-first order among requests of the same millisecond.
	// Its options are a JSON array, NULL when any answer goes. Only
	// pending, responded and cancelled are stored: a pending request past
	// expires_at reads as expired, worked out at each read. A response
	// goes with its request (the writer turns foreign keys on).
	`ALTER TABLE invocations ADD COLUMN approval TEXT;
	CREATE TABLE human_requests (
		seq             INTEGER PRIMARY KEY,
		id              TEXT NOT NULL UNIQUE,
		request_type    TEXT NOT NULL,
		prompt          TEXT NOT NULL,
		options         TEXT,
		context         TEXT NOT NULL,
		timeout_seconds INTEGER NOT NULL,
		status          TEXT NOT NULL CHECK (status IN ('pending', 'responded', 'cancelled')),
		created_at      INTEGER NOT NULL, -- Unix milliseconds
		expires_at      INTEGER NOT NULL, -- Unix milliseconds
		correlation_id  TEXT,
		caller          TEXT,
		tool            TEXT NOT NULL
	);
	CREATE INDEX human_requests_created ON human_requests (created_at);
	CREATE INDEX human_requests_status ON human_requests (status, created_at);
	CREATE INDEX human_requests_type ON human_requests (request_type, created_at);
	CREATE INDEX human_requests_caller ON human_requests (caller, created_at) WHERE caller IS NOT NULL;
	CREATE TABLE human_responses (
		id                TEXT PRIMARY KEY,
		request_id        TEXT NOT NULL UNIQUE REFERENCES human_requests (id) ON DELETE CASCADE,
		response          TEXT NOT NULL,
		responded_by      TEXT,
		response_metadata TEXT NOT NULL,
		created_at        INTEGER NOT NULL -- Unix milliseconds
	);`,
}

// migrate brings the file's schema to len(steps), in one transaction that
// holds the write lock, so that two processes opening a new file at once
// apply each step once. The version is the file's user_version.
func migrate(ctx context.Context, db *sql.DB, steps []string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(steps) {
		return fmt.Errorf("schema version %d is newer than this program's %d: open it with a newer toolgen", v, len(steps))
	}
	if v == len(steps) {
		return nil
	}
	for i := v; i < len(steps); i++ {
		if _, err := tx.ExecContext(ctx, steps[i]); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", i+1, err)
		}
	}
	// PRAGMA takes no parameters; the value is an int.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(steps))); err != nil {
		return err
	}
	return tx.Commit()
}
