//go:build race

package fastcheck

// raceEnabled: under the race detector sync.Pool drops items at random,
// so regexp, which keeps its matchers in one, allocates now and then.
const raceEnabled = true
