package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// Rate limits a fleet shares: the Store is a history.RateLimiter, so a
// tool's ratelimit= holds across every replica on the database rather
// than per process. A bucket is one row and one number, its theoretical
// arrival time (the generic cell rate algorithm, GCRA): a call at now is
// let through when max(tat, now) + per/n is no later than now + per, and
// moves tat there. One statement decides and records it, under the row's
// lock, so that two replicas never both take the last call. The clock is
// the caller's (the server's), never the database's, so that tests move
// it by hand.

var _ history.RateLimiter = (*Store)(nil)

// takeRate is GCRA in one statement: $1 the bucket, $2 now, $3 the
// emission interval (per/n), $4 per, all in microseconds. The first
// column is the new tat when the call goes through, NULL when it does
// not; the second, the tat before the statement (NULL for a new bucket).
const takeRate = `WITH up AS (
	INSERT INTO toolgen_rate_limits AS b (key, tat) VALUES ($1, $2::bigint + $3::bigint)
	ON CONFLICT (key) DO UPDATE SET tat = GREATEST(b.tat, $2::bigint) + $3::bigint
		WHERE GREATEST(b.tat, $2::bigint) + $3::bigint - $2::bigint <= $4::bigint
	RETURNING tat)
SELECT (SELECT tat FROM up), (SELECT tat FROM toolgen_rate_limits WHERE key = $1)`

// Take takes one call from the bucket key (n calls per per) at now.
func (s *Store) Take(ctx context.Context, key string, n int, per time.Duration, now time.Time) (bool, time.Duration, error) {
	if n <= 0 || per <= 0 {
		return true, 0, nil
	}
	perUS := per.Microseconds()
	interval := max(perUS/int64(n), 1)
	nowUS := now.UnixMicro()
	var taken, before *int64
	if err := s.pool.QueryRow(ctx, takeRate, key, nowUS, interval, perUS).Scan(&taken, &before); err != nil {
		return false, 0, fmt.Errorf("history/postgres: rate limit: %w", err)
	}
	if taken != nil {
		return true, 0, nil
	}
	// Refused. The statement's snapshot may predate the row that refused
	// it (another replica's, committed while this one waited for its
	// lock): read it again, in a snapshot of its own, for the wait.
	var after *int64
	if err := s.pool.QueryRow(ctx, `SELECT tat FROM toolgen_rate_limits WHERE key = $1`, key).Scan(&after); err == nil && after != nil {
		before = after
	}
	tat := nowUS
	if before != nil && *before > tat {
		tat = *before
	}
	wait := time.Duration(tat+interval-perUS-nowUS) * time.Microsecond
	// Up to the next millisecond, as the runtime's own limiter says it.
	wait = (wait + time.Millisecond - 1).Truncate(time.Millisecond)
	return false, max(wait, time.Millisecond), nil
}

// retainRates drops the buckets that have been full again for a day (tat
// in the past), which say nothing a missing row does not. (A day, not
// now: a server's clock may run behind the database host's.) It runs
// every hour whatever the store's Retention (see OpenConfig).
func (s *Store) retainRates(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM toolgen_rate_limits WHERE tat < $1`, time.Now().Add(-24*time.Hour).UnixMicro()); err != nil {
		return fmt.Errorf("toolgen_rate_limits: %w", err)
	}
	return nil
}
