// Command measure runs one command and reports its wall time, CPU time,
// peak resident set size and exit code on file descriptor 3, as
// "wall_ns cpu_ns peak_rss_bytes exit_code\n". bench/run starts every
// measured process through it.
//
// Why a process in between: Linux gives a child started with vfork (as Go
// starts children) the peak RSS of its parent's address space when it
// execs, so a child of the runner, which holds generated inputs, would
// report the runner's peak instead of its own. This program holds nothing
// and imports little (no fmt, no os/exec): its own peak, which its child
// inherits the same way, is about that of an empty Go program, below any
// process measured.
package main

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 || len(os.Args[1]) == 0 || os.Args[1][0] != '/' {
		os.Stderr.WriteString("usage: measure /ABSOLUTE/COMMAND [ARG...] (results on fd 3)\n")
		os.Exit(2)
	}
	start := time.Now()
	pid, err := syscall.ForkExec(os.Args[1], os.Args[1:], &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
	if err != nil {
		os.Stderr.WriteString("measure: " + err.Error() + "\n")
		os.Exit(125)
	}
	var status syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err = syscall.Wait4(pid, &status, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	wall := time.Since(start)
	if err != nil {
		os.Stderr.WriteString("measure: " + err.Error() + "\n")
		os.Exit(125)
	}
	code := status.ExitStatus()
	if status.Signaled() {
		code = 128 + int(status.Signal())
	}
	cpu := ru.Utime.Nano() + ru.Stime.Nano()
	line := strconv.AppendInt(nil, wall.Nanoseconds(), 10)
	line = strconv.AppendInt(append(line, ' '), cpu, 10)
	line = strconv.AppendInt(append(line, ' '), ru.Maxrss*1024, 10) // Linux reports kilobytes
	line = strconv.AppendInt(append(line, ' '), int64(code), 10)
	syscall.Write(3, append(line, '\n'))
}
