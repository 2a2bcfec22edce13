package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine is where and when the report was measured.
type machine struct {
	CPU, Kernel, Go string
	CPUs            int
	Date            time.Time
	// LoadBefore and LoadAfter are /proc/loadavg's 1, 5 and 15 minute
	// averages: other work on the machine shows in them.
	LoadBefore, LoadAfter string
}

func machineNow() machine {
	m := machine{CPU: cpuModel(), CPUs: runtime.NumCPU(), Date: time.Now().UTC()}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = runtime.GOOS + " " + strings.TrimSpace(string(b))
	} else {
		m.Kernel = runtime.GOOS
	}
	m.Kernel += "/" + runtime.GOARCH
	// The go command's version, which built the binaries measured.
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		m.Go = strings.TrimSpace(string(out))
	} else {
		m.Go = runtime.Version()
	}
	return m
}

// cpuModel is the first "model name" in /proc/cpuinfo.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
