package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// Attack: a {counter} sort killed part way (kill -9, workers landing side
// by side, so the numbers taken have gaps) and then run again with the
// same command numbers as one run never killed: it reads the numbers the
// killed run gave from the journal, for runs whose recorded command line
// is the same. A dry run of that command says "-n" as well, so its command
// line differs and it does not see the killed run: it predicts every
// remaining file after the highest number in the folder, while the resume
// puts them into the gaps. The dry run after a kill must predict the
// resume exactly.

const envAttackCounterChild = "SHOEBOX_ATTACK_COUNTER_CHILD"

var attackCounterArgs = []string{"sort", "-q", "-t", "{year}/{counter:4}{ext:lower}", "--workers", "4"}

func TestAttackCounterKillChild(t *testing.T) {
	dirs := os.Getenv(envAttackCounterChild)
	if dirs == "" {
		t.Skip("only runs as the child of TestAttackCounterDryRunAfterKillPredictsTheResume")
	}
	card, lib, _ := strings.Cut(dirs, string(os.PathListSeparator))
	os.Exit(Main(append(append([]string{}, attackCounterArgs...), card, lib)))
}

func TestAttackCounterDryRunAfterKillPredictsTheResume(t *testing.T) {
	if fsxtest.UnderWine() {
		t.Skip("kills a child process: under Wine a killed child is sometimes never reported ended (docs/platforms.md); it runs on Linux")
	}
	root := t.TempDir()
	card := filepath.Join(root, "card")
	if err := os.MkdirAll(card, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 200
	pad := bytes.Repeat([]byte{0}, 400_000)
	for i := 0; i < n; i++ {
		b := fixture.JPEG(fixture.EXIF{When: time.Date(2021, 1, 1, 0, i, 0, 0, time.UTC), Comment: fmt.Sprint("shot", i)})
		if err := os.WriteFile(filepath.Join(card, fmt.Sprintf("IMG_%04d.JPG", (i*7919)%n)), append(b, pad...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lib string
	for try := 0; ; try++ {
		if try == 15 {
			t.Skip("no kill left the library with a gap in its numbers")
		}
		lib = filepath.Join(root, fmt.Sprint("lib", try))
		if landed := killCounterSort(t, card, lib); hasGap(landed) {
			t.Logf("killed with %d files landed: %v", len(landed), landed)
			break
		}
	}
	dry := shoebox(append(append([]string{}, attackCounterArgs[:1]...), append([]string{"-n"}, append(attackCounterArgs[2:], card, lib)...)...)...)
	if dry.code != 0 {
		t.Fatalf("dry run: %s", dry)
	}
	planned := map[string]string{}
	re := regexp.MustCompile(`^planned\s+(\S+) (?:→|->) (\S+)`)
	sc := bufio.NewScanner(strings.NewReader(dry.stdout))
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			planned[m[1]] = m[2]
		}
	}
	if len(planned) == 0 {
		t.Fatalf("the dry run planned nothing:\n%s", dry.stdout)
	}
	if r := shoebox(append(append([]string{}, attackCounterArgs...), card, lib)...); r.code != 0 {
		t.Fatalf("resume: %s", r)
	}
	wrong := 0
	for src, dst := range planned {
		a, _ := os.ReadFile(src)
		b, err := os.ReadFile(dst)
		if err != nil || !bytes.Equal(a, b) {
			if wrong++; wrong <= 5 {
				t.Errorf("the dry run said %s → %s; the resume put something else there", filepath.Base(src), dst)
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d predictions of the dry run after the kill are wrong", wrong, len(planned))
	}
}

// killCounterSort runs the counter sort in a child and kills it (SIGKILL)
// once a few files have landed; it returns the counters landed.
func killCounterSort(t *testing.T, card, lib string) []int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackCounterKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envAttackCounterChild+"="+card+string(os.PathListSeparator)+lib)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && len(landedCounters(lib)) < 8 {
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	return landedCounters(lib)
}

func landedCounters(lib string) []int {
	des, _ := os.ReadDir(filepath.Join(lib, "2021"))
	var ns []int
	for _, de := range des {
		if m := regexp.MustCompile(`^(\d{4})\.jpg$`).FindStringSubmatch(de.Name()); m != nil {
			n, _ := strconv.Atoi(m[1])
			ns = append(ns, n)
		}
	}
	sort.Ints(ns)
	return ns
}

func hasGap(ns []int) bool {
	return len(ns) > 0 && ns[len(ns)-1] != len(ns) && len(ns) < 200
}
