package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Machine describes where the figures were produced.
type Machine struct {
	Date      string
	Cores     int
	CPU       string
	Go        string
	OS        string
	LoadStart string // 1, 5 and 15 minute load averages when the run began
	LoadEnd   string // and when it ended
	Mode      string // "full" or "quick", with the rounds of each pair
}

// describe reads what it can about this machine; what it cannot read is
// said as such, never guessed.
func describe() Machine {
	m := Machine{
		Date:      time.Now().UTC().Format("2006-01-02"),
		Cores:     runtime.NumCPU(),
		CPU:       cpuModel(),
		OS:        runtime.GOOS + "/" + runtime.GOARCH,
		LoadStart: loadAverage(),
	}
	if out, err := exec.Command("go", "version").Output(); err == nil {
		m.Go = strings.TrimPrefix(strings.TrimSpace(string(out)), "go version ")
	} else {
		m.Go = "unknown (`go version` failed)"
	}
	return m
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// Markdown is the machine paragraph every page carries.
func (m Machine) Markdown() string {
	goVersion := m.Go
	if !strings.Contains(goVersion, m.OS) {
		goVersion += " " + m.OS
	}
	return fmt.Sprintf("Produced by `bench/run` (%s) on %s: %d cores (%s), %s; load average %s at the start, %s at the end (1, 5, 15 minutes; the machine is shared, so absolute times are noisy and the ratios of interleaved runs are the signal).",
		m.Mode, m.Date, m.Cores, m.CPU, goVersion, m.LoadStart, m.LoadEnd)
}
