package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A malformed --shift is the command line's fault: exit 2, a sentence
// naming the rule, and no library created; explain answers the same.
func TestMalformedShiftIsAUsageError(t *testing.T) {
	base := t.TempDir()
	src, lib := filepath.Join(base, "card"), filepath.Join(base, "lib")
	card(t, src, 1, 1<<10)
	for _, rule := range []string{"EOS=+1x", "=+1h", "folder:=+1h", "+1h2d",
		// An attacker's or a slip's: huge, overflowing, empty, unit-less, doubled,
		// spaced, non-ASCII digits, a sign twice.
		"+999999999d", "-99999999d99999999h", "+36601d", "", "EOS=", "+0", "+1h1h", "+1h 30m", "+٣h", "+-1h", "+9223372036854775807s"} {
		r := shoebox("sort", "--shift", rule, src, lib)
		if r.code != ExitUsage || !strings.Contains(r.stderr, rule) {
			t.Errorf("sort --shift %q: want exit 2 naming the rule:\n%s", rule, r)
		}
		if _, err := os.Stat(lib); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("a refused run created %s (%v)", lib, err)
		}
		ents, _ := os.ReadDir(src)
		if r := shoebox("explain", "--shift", rule, filepath.Join(src, ents[0].Name())); r.code != ExitUsage {
			t.Errorf("explain --shift %q: want exit 2:\n%s", rule, r)
		}
	}
}
