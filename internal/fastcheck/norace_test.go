//go:build !race

package fastcheck

const raceEnabled = false
