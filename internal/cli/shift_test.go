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
	for _, rule := range []string{"EOS=+1x", "=+1h", "folder:=+1h", "+1h2d"} {
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
