//go:build unix

package journal

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const crashChildEnv = "SHOEBOX_JOURNAL_CRASH_CHILD"

// TestCrashHelperProcess is the child of TestSIGKILLMidStream: it appends
// without end, reporting after each Sync how many entries are durable.
func TestCrashHelperProcess(t *testing.T) {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		t.Skip("helper process for TestSIGKILLMidStream")
	}
	w, err := Create(dir, testHeader("crash"))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	for n := 1; ; n++ {
		e := testEntry(n - 1)
		if err := w.Append(e); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		if n%50 == 0 {
			if err := w.Sync(); err != nil {
				fmt.Println("error:", err)
				os.Exit(1)
			}
			fmt.Println("synced", n)
		}
	}
}

func TestSIGKILLMidStream(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestCrashHelperProcess$")
	child.Env = append(os.Environ(), crashChildEnv+"="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	synced := 0
	for synced < 400 && lines.Scan() {
		n, err := strconv.Atoi(strings.TrimPrefix(lines.Text(), "synced "))
		if err != nil {
			child.Process.Kill()
			child.Wait()
			t.Fatalf("child said %q", lines.Text())
		}
		synced = n
	}
	// Killed while it keeps appending: the tail is whatever was in flight.
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()

	count := 0
	sum, err := Read(dir+"/crash.journal", func(e Entry) error {
		count++
		if want := testEntry(count - 1); e != want {
			return fmt.Errorf("entry %d = %+v, want %+v", count, e, want)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Read after SIGKILL: %v", err)
	}
	if sum.Closed || sum.Entries < synced {
		t.Fatalf("summary %+v: want not closed and at least the %d synced entries", sum, synced)
	}
	t.Logf("%d entries synced before the kill, %d read back, torn=%v", synced, sum.Entries, sum.Torn)
}
