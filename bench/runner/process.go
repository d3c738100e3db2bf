package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Proc is one whole process to measure: a command line, its stdin, the
// exit code it must end with, and the environment it adds.
type Proc struct {
	Args  []string // Args[0] is the program
	Stdin []byte
	Exit  int
	Env   []string // added to the runner's environment
	Dir   string   // working directory; the runner's when empty
}

// Sample is one run of a Proc: wall time from start to exit and the peak
// resident set size the kernel recorded for the child.
type Sample struct {
	Wall    time.Duration
	CPU     time.Duration // user + system time of the child
	PeakRSS int64         // bytes
}

// run starts p through the measurer (bench/runner/measure), waits for it
// and returns what the measurer saw. A run that exits with another code
// than p.Exit is an error carrying its stderr: a benchmark never times a
// failure.
func (p Proc) run(measurer string) (Sample, error) {
	target, err := filepath.Abs(p.Args[0])
	if err != nil {
		return Sample{}, err
	}
	report, reportW, err := os.Pipe()
	if err != nil {
		return Sample{}, err
	}
	defer report.Close()
	cmd := exec.Command(measurer, append([]string{target}, p.Args[1:]...)...)
	cmd.Stdin = bytes.NewReader(p.Stdin)
	cmd.Stdout = nil // discarded: os/exec opens the null device
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4 << 10}
	cmd.Env = append(os.Environ(), p.Env...)
	cmd.Dir = p.Dir
	cmd.ExtraFiles = []*os.File{reportW} // fd 3 in the measurer
	err = cmd.Start()
	reportW.Close()
	if err != nil {
		return Sample{}, err
	}
	line, readErr := io.ReadAll(io.LimitReader(report, 256))
	if err := cmd.Wait(); err != nil {
		return Sample{}, fmt.Errorf("measuring %v: %v\n%s", p.Args, err, stderr.String())
	}
	if readErr != nil {
		return Sample{}, readErr
	}
	var wall, cpu, rss int64
	var code int
	if _, err := fmt.Sscanf(string(line), "%d %d %d %d", &wall, &cpu, &rss, &code); err != nil {
		return Sample{}, fmt.Errorf("measuring %v: report %q: %v", p.Args, line, err)
	}
	if code != p.Exit {
		return Sample{}, fmt.Errorf("%v exited %d, want %d:\n%s", p.Args, code, p.Exit, stderr.String())
	}
	return Sample{Wall: time.Duration(wall), CPU: time.Duration(cpu), PeakRSS: rss}, nil
}

// limitedBuffer keeps the first max bytes written to it and drops the rest,
// so a chatty process cannot fill the runner's memory.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// rounds runs each proc once per round, in turn (A B C, A B C, …), after one
// untimed warm-up run of each, and returns the samples per proc. Running
// the contestants interleaved makes them share whatever load the machine
// has at each moment, so their ratios within a round are fair even when
// absolute times are not.
func rounds(measurer string, n int, procs ...Proc) ([][]Sample, error) {
	for _, p := range procs {
		if _, err := p.run(measurer); err != nil {
			return nil, err
		}
	}
	out := make([][]Sample, len(procs))
	for range n {
		for i, p := range procs {
			s, err := p.run(measurer)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], s)
		}
	}
	return out, nil
}

// walls returns the wall times of samples in seconds.
func walls(samples []Sample) []float64 {
	out := make([]float64, len(samples))
	for i, s := range samples {
		out[i] = s.Wall.Seconds()
	}
	return out
}

// cpus returns the CPU times of samples in seconds.
func cpus(samples []Sample) []float64 {
	out := make([]float64, len(samples))
	for i, s := range samples {
		out[i] = s.CPU.Seconds()
	}
	return out
}

// peaks returns the peak RSS of samples in bytes.
func peaks(samples []Sample) []float64 {
	out := make([]float64, len(samples))
	for i, s := range samples {
		out[i] = float64(s.PeakRSS)
	}
	return out
}

// build compiles the package pkg of the module into dir, with env added to
// go build's environment, and returns the binary's path.
func build(dir, pkg string, env []string, flags ...string) (string, error) {
	out := filepath.Join(dir, filepath.Base(pkg))
	args := append([]string{"build", "-o", out}, flags...)
	cmd := exec.Command("go", append(args, pkg)...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out, nil
}
