package gen

import (
	"runtime"
	"sync"
)

// forEach calls do(i) for every i in [0, n), on as many goroutines as
// there are CPUs (GOMAXPROCS), and returns when all calls have returned.
// Each i is done once, by one goroutine, so do may write the i-th element
// of a slice without locking.
func forEach(n int, do func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
