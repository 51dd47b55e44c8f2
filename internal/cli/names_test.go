package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// hostileNames are file names that try to take over a terminal or forge a
// line of shoebox's output, each with how shoebox must print it.
var hostileNames = []struct{ name, shown string }{
	{"clear\x1b[2Jscreen.jpg", `clear\x1b[2Jscreen.jpg`},          // ANSI: clear the screen
	{"ret\rplanned        /etc/passwd -> x.jpg", `ret\rplanned`},  // carriage return overprints the line
	{"nl\nplanned        /card/a.jpg -> /lib.jpg", `nl\nplanned`}, // a forged "planned" line
	{"rtl\u202egpj.exe", `rtl\u202egpj.exe`},                      // right-to-left override: reads "exe.jpg"
	{"csi\u009b31m.jpg", `csi\u009b31m.jpg`},                      // C1 CSI
	{"bad\xff\xfe.jpg", `bad\xff\xfe.jpg`},                        // not UTF-8
}

// possibleNames is the hostile names this system lets a file have:
// Windows forbids control characters in a name, and its names are UTF-16,
// so no byte of one can be invalid UTF-8; the bidi override and the C1
// control remain.
func possibleNames() []struct{ name, shown string } {
	if runtime.GOOS != "windows" {
		return hostileNames
	}
	var ok []struct{ name, shown string }
	for _, h := range hostileNames {
		if utf8.ValidString(h.name) && !strings.ContainsFunc(h.name, func(r rune) bool { return r < 0x20 }) {
			ok = append(ok, h)
		}
	}
	return ok
}

// TestHostileNamesAreEscapedInHumanOutput: whatever a file is called,
// sort (dry and real), its failures, log, undo and explain print it as
// one line without a control character, a bidi override or an invalid
// byte — each shown as an escape instead.
func TestHostileNamesAreEscapedInHumanOutput(t *testing.T) {
	base := t.TempDir()
	// The source folder sets the terminal's title (OSC): its name is in
	// every path and in the command line that log shows. (On Windows,
	// where a name holds no control character, it turns the text
	// right to left.)
	card := struct{ name, shown string }{"card\x1b]0;owned\x07", `card\x1b]0;owned\x07 `}
	if runtime.GOOS == "windows" {
		card = struct{ name, shown string }{"card\u202eowned", `card\u202eowned`}
	}
	names := possibleNames()
	src, lib := filepath.Join(base, card.name), filepath.Join(base, "lib")
	for i, h := range names {
		writeFile(t, filepath.Join(src, h.name), fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 1+i, 12, 0, 0, 0, time.UTC), Comment: h.name}), 0o644)
	}
	var all strings.Builder
	for _, args := range [][]string{
		{"sort", "--dry-run", src, lib},
		{"sort", src, lib},
		{"log", lib},
		{"undo", "--dry-run", lib},
		{"undo", lib},
		{"explain", filepath.Join(src, names[0].name), filepath.Join(src, names[len(names)-1].name)},
	} {
		r := shoebox(args...)
		if r.code != ExitOK {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r)
		}
		all.WriteString(r.stdout + r.stderr)
	}
	out := all.String()
	for _, want := range append([]string{card.shown}, shownOf(names)...) {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks the escaped name %s", want)
		}
	}
	checkPrintable(t, out)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "planned ") && strings.Contains(line, "/etc/passwd") && !strings.Contains(line, `\r`) {
			t.Errorf("a forged plan line: %q", line)
		}
	}
	if n := strings.Count("\n"+out, "\nplanned "); n != len(names) {
		t.Errorf("%d lines start with \"planned\", want %d (one per file)", n, len(names))
	}
}

func shownOf(names []struct{ name, shown string }) []string {
	var s []string
	for _, h := range names {
		s = append(s, h.shown)
	}
	return s
}

func checkPrintable(t *testing.T, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("output is not valid UTF-8")
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == '\u202e' {
			t.Errorf("output holds the raw character %U", r)
		}
	}
}

// TestJSONKeepsNonUTF8PathsExact: a path that is not valid UTF-8 comes
// back byte for byte from src_bytes and dst_bytes (dst_bytes names the
// file that really landed); a UTF-8 path gets no such field.
func TestJSONKeepsNonUTF8PathsExact(t *testing.T) {
	base := t.TempDir()
	for _, c := range []struct{ src, lib, name string }{
		{"card\xe9", "lib\xe9", "IMG_\xff\xfe\x80.JPG"},
		{"card", "lib", "IMG_1.JPG"},
	} {
		src, lib := filepath.Join(base, c.src), filepath.Join(base, c.lib)
		want := filepath.Join(src, c.name)
		if runtime.GOOS == "windows" && !utf8.ValidString(want) {
			t.Logf("not on Windows: %q (its names are UTF-16, so no byte of one is invalid UTF-8)", want)
			continue
		}
		writeFile(t, want, fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 12, 0, 0, 0, time.UTC)}), 0o644)
		r := shoebox("sort", "--json", "-q", src, lib)
		if r.code != ExitOK {
			t.Fatalf("sort: %s", r)
		}
		ops := jsonOps(t, r.stdout)
		if len(ops) != 1 {
			t.Fatalf("want 1 op line, got %d:\n%s", len(ops), r.stdout)
		}
		ev := ops[0]
		if utf8.ValidString(want) {
			if ev.SrcBytes != nil || ev.DstBytes != nil || ev.Src != want {
				t.Errorf("a UTF-8 path: src %q, src_bytes %q, dst_bytes %q", ev.Src, ev.SrcBytes, ev.DstBytes)
			}
			continue
		}
		if !bytes.Equal(ev.SrcBytes, []byte(want)) {
			t.Errorf("src_bytes = %q, want %q", ev.SrcBytes, want)
		}
		if !bytes.HasPrefix(ev.DstBytes, []byte(lib+string(filepath.Separator))) {
			t.Errorf("dst_bytes = %q, want a path under %q", ev.DstBytes, lib)
		}
		if _, err := os.Stat(string(ev.DstBytes)); err != nil {
			t.Errorf("dst_bytes does not name the landed file: %v", err)
		}
	}
}

func jsonOps(t *testing.T, stdout string) []jsonEvent {
	t.Helper()
	var ops []jsonEvent
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var ev jsonEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if ev.Type == "op" {
			ops = append(ops, ev)
		}
	}
	return ops
}

func TestShownEscapesWhatMovesTheCursor(t *testing.T) {
	for in, want := range map[string]string{
		"/photos/IMG_1.JPG":    "/photos/IMG_1.JPG",
		`C:\photos\été.jpg`:    `C:\photos\été.jpg`,
		"a\x1b[2Jb":            `a\x1b[2Jb`,
		"a\r\n\tb\x00\x7f":     `a\r\n\tb\x00\x7f`,
		"a\u009bb\u0085":       `a\u009bb\u0085`,
		"x\u202ey\u2066\u200f": `x\u202ey\u2066\u200f`,
		"l\u2028p\u2029":       `l\u2028p\u2029`,
		"bad\xff\xc3":          `bad\xff\xc3`,
		"ok\ufffd":             "ok\ufffd",
	} {
		if got := shown(in); got != want {
			t.Errorf("shown(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestJSONKeepsNonUTF8BackupAndArgsExact: the same for the paths the
// other --json lines carry: an op's backup copy (backup_bytes), log's
// command lines (args_bytes, every word, when one is not UTF-8), and
// check's library and backup (library_bytes, backup_bytes).
func TestJSONKeepsNonUTF8BackupAndArgsExact(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows names are UTF-16: no byte of one is invalid UTF-8")
	}
	base := t.TempDir()
	src, lib, bak := filepath.Join(base, "card"), filepath.Join(base, "lib\xe9"), filepath.Join(base, "bak\xff")
	writeFile(t, filepath.Join(src, "IMG_1.JPG"), fixture.JPEG(fixture.EXIF{When: time.Date(2019, 7, 4, 12, 0, 0, 0, time.UTC)}), 0o644)
	if err := os.Mkdir(bak, 0o755); err != nil {
		t.Fatal(err)
	}
	r := shoebox("sort", "--json", "-q", "--backup", bak, src, lib)
	if r.code != ExitOK {
		t.Fatalf("sort: %s", r)
	}
	ops := jsonOps(t, r.stdout)
	if len(ops) != 1 || !bytes.HasPrefix(ops[0].BackupBytes, []byte(bak+string(filepath.Separator))) {
		t.Fatalf("backup_bytes does not name the backup copy under %q: %+v", bak, ops)
	}
	if _, err := os.Stat(string(ops[0].BackupBytes)); err != nil {
		t.Errorf("backup_bytes does not name the landed backup copy: %v", err)
	}

	r = shoebox("log", "--json", lib)
	var run logRun
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &run); err != nil {
		t.Fatalf("log --json: %v\n%s", err, r.stdout)
	}
	if len(run.ArgsBytes) != len(run.Args) || len(run.Args) == 0 {
		t.Fatalf("args_bytes %q for args %q", run.ArgsBytes, run.Args)
	}
	if got := string(run.ArgsBytes[len(run.ArgsBytes)-1]); got != lib {
		t.Errorf("args_bytes ends with %q, want the library %q", got, lib)
	}

	r = shoebox("check", "--json", "--backup", bak, lib)
	var sum checkSummary
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("check --json: %v\n%s", err, r.stdout)
	}
	if string(sum.LibBytes) != lib || string(sum.BakBytes) != bak {
		t.Errorf("check summary library_bytes %q backup_bytes %q, want %q and %q", sum.LibBytes, sum.BakBytes, lib, bak)
	}
}
