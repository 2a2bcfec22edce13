package impls

import (
	"testing"
)

// allocBudgets is how many allocations a call of each toolgen impl makes,
// the harness's own included (the request and the recorder), as the
// in-process tables report them (BENCHMARKS.md). A count is exact where a
// time is not: a change that adds one on a hot path fails here, which no
// timing on a shared machine would show (one slipped past every review
// into the 2026-07-28 path and was found only by the report's tables).
// A change that saves one lowers the budget here and in BENCHMARKS.md.
// The session impls are left out: most of their count is the go-sdk's,
// and varies with how its goroutines are scheduled.
var allocBudgets = map[string]float64{
	"rest/toolgen":     40,
	"mcp/toolgen-2026": 73,
}

func TestAllocsPerCall(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own account")
	}
	for _, impl := range All() {
		budget, ok := allocBudgets[impl.ID()]
		if !ok {
			continue
		}
		t.Run(impl.ID(), func(t *testing.T) {
			c := caller(t, impl)
			if err := c.CallChecked(); err != nil {
				t.Fatal(err)
			}
			var err error
			got := testing.AllocsPerRun(200, func() {
				if e := c.Call(); e != nil && err == nil {
					err = e
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			// A pool emptied by a collection mid-run costs one
			// allocation in a run, not one a call: half an allocation of
			// slack keeps that from failing the test, and still catches
			// one more a call.
			if got > budget+0.5 {
				t.Errorf("%.2f allocations a call, want at most %v: a change added one to the hot path", got, budget)
			} else if got < budget-0.5 {
				t.Logf("%.2f allocations a call, under the budget of %v: lower it here and in BENCHMARKS.md", got, budget)
			}
		})
	}
}
