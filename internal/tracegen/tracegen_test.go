package tracegen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// TestTranscripts: every line of both transcripts is one JSON object, the
// line counts follow the turns, and a failing writer's error is returned.
func TestTranscripts(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(w *bytes.Buffer, turns int) error
		lines func(turns int) int
	}{
		{"stream-json", func(w *bytes.Buffer, n int) error { return StreamJSON(w, n, 10) }, func(n int) int { return 2*n + 3 }},
		{"event-stream", func(w *bytes.Buffer, n int) error { return EventStream(w, n, 10) }, func(n int) int { return 5*n + (n+8)/9 + 3 }},
	} {
		for _, turns := range []int{0, 1, 10} {
			var b bytes.Buffer
			if err := c.write(&b, turns); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(&b)
			sc.Buffer(nil, 1<<20)
			n := 0
			for sc.Scan() {
				var v map[string]any
				if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
					t.Fatalf("%s, %d turns, line %d: %v: %s", c.name, turns, n+1, err, sc.Bytes())
				}
				n++
			}
			if want := c.lines(turns); n != want {
				t.Errorf("%s, %d turns: %d lines, want %d", c.name, turns, n, want)
			}
		}
	}
	for _, write := range []func(w failing) error{
		func(w failing) error { return StreamJSON(w, 3, 10) },
		func(w failing) error { return EventStream(w, 3, 10) },
	} {
		if err := write(failing{}); !errors.Is(err, errFull) {
			t.Errorf("a failing writer gave %v, want %v", err, errFull)
		}
	}
}

var errFull = errors.New("disk full")

// failing is a writer that always fails.
type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errFull }
