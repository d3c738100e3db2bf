// Package inorder runs work on several goroutines and hands the results
// back on the caller's goroutine in the order of their indexes, as a loop
// would: the tree's loader parses a directory's files in parallel and
// admits them one by one, so that its documents and diagnostics are those
// of a sequential load.
package inorder

// Run calls work(i) for each i in [0, n) on up to workers goroutines and
// take(i, v) with its result on the caller's goroutine, in increasing i.
// The goroutines are started once for the whole run and each takes the
// next index as soon as it is free, at most window indexes ahead of the one
// handed to take next, so the results held waiting are bounded by window.
//
// Once take returns false no further index is started; the ones already
// started are still handed to take, in order. Run returns the number of
// indexes started: those from it to n were never worked on.
//
// A panic in work is raised again on the caller's goroutine, where its
// recover sees it (on a worker's goroutine it would end the process past
// any recover); the indexes after it are not handed to take.
func Run[T any](n, workers, window int, work func(int) T, take func(int, T) bool) (started int) {
	workers, window = max(1, min(workers, n)), max(1, window)
	jobs := make(chan int, window)
	done := make(chan result[T], window)
	for range workers {
		go serve(work, jobs, done)
	}
	defer close(jobs)
	for ; started < min(window, n); started++ {
		jobs <- started
	}
	held := make([]result[T], window) // index i waits in held[i%window]
	ready := make([]bool, window)
	more := true
	for next := 0; next < started; {
		r := <-done
		if r.panicked != nil {
			panic(r.panicked)
		}
		held[r.i%window], ready[r.i%window] = r, true
		for next < started && ready[next%window] {
			v := held[next%window].v
			held[next%window], ready[next%window] = result[T]{}, false
			if !take(next, v) {
				more = false
			}
			next++
			if more && started < n {
				jobs <- started
				started++
			}
		}
	}
	return started
}

// result is work's value for index i, or the panic that stopped it.
type result[T any] struct {
	i        int
	v        T
	panicked any
}

// serve runs work on the indexes that come in on jobs until it closes or
// work panics; the panic is sent back on done.
func serve[T any](work func(int) T, jobs <-chan int, done chan<- result[T]) {
	i := -1
	defer func() {
		if p := recover(); p != nil {
			done <- result[T]{i: i, panicked: p}
		}
	}()
	for i = range jobs {
		done <- result[T]{i: i, v: work(i)}
	}
}
