package inorder

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunHandsBackInOrder: whatever order the work finishes in, take sees
// every index once, in increasing order, with its own result.
func TestRunHandsBackInOrder(t *testing.T) {
	for _, c := range []struct{ n, workers, window int }{{0, 2, 8}, {1, 2, 8}, {50, 2, 8}, {50, 4, 1}, {7, 16, 3}, {100, 1, 1}} {
		t.Run(fmt.Sprintf("n=%d,workers=%d,window=%d", c.n, c.workers, c.window), func(t *testing.T) {
			var got []int
			started := Run(c.n, c.workers, c.window,
				func(i int) int {
					if i%3 == 0 {
						time.Sleep(time.Millisecond) // finish out of order
					}
					return i * i
				},
				func(i, v int) bool {
					if v != i*i {
						t.Errorf("index %d got %d", i, v)
					}
					got = append(got, i)
					return true
				})
			if started != c.n {
				t.Errorf("started %d of %d", started, c.n)
			}
			if want := seq(c.n); !slices.Equal(got, want) {
				t.Errorf("take saw %v, want %v", got, want)
			}
		})
	}
}

// TestRunWindow: no index is started more than window ahead of the one
// handed to take next.
func TestRunWindow(t *testing.T) {
	const window = 4
	var taken atomic.Int64
	Run(200, 3, window,
		func(i int) int {
			if ahead := int64(i) - taken.Load(); ahead >= window {
				t.Errorf("index %d started %d ahead of the next to take", i, ahead)
			}
			return i
		},
		func(i, _ int) bool { taken.Store(int64(i) + 1); return true })
}

// TestRunStops: once take says no more, nothing else is started; what was
// started is still handed back in order, and Run says where it stopped.
func TestRunStops(t *testing.T) {
	var worked atomic.Int64
	var got []int
	started := Run(100, 2, 8,
		func(i int) int { worked.Add(1); return i },
		func(i, _ int) bool { got = append(got, i); return i < 10 })
	if started < 11 || started > 10+8+1 {
		t.Errorf("started %d: want the 11 taken and at most a window more", started)
	}
	if int(worked.Load()) != started {
		t.Errorf("worked on %d, said %d", worked.Load(), started)
	}
	if want := seq(started); !slices.Equal(got, want) {
		t.Errorf("take saw %v, want %v", got, want)
	}
}

// TestRunRaisesPanicOnCaller: a panic in work reaches the caller's
// recover (on the worker's goroutine it would end the test binary).
func TestRunRaisesPanicOnCaller(t *testing.T) {
	defer func() {
		if p := recover(); p != "index 5" {
			t.Errorf("recovered %v, want the work's panic", p)
		}
	}()
	Run(20, 2, 4,
		func(i int) int {
			if i == 5 {
				panic(fmt.Sprintf("index %d", i))
			}
			return i
		},
		func(i, _ int) bool {
			if i >= 5 {
				t.Errorf("index %d handed back past the panic", i)
			}
			return true
		})
	t.Error("Run returned past a panic")
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
