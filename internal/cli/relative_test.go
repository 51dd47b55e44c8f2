package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fixture"
)

// Relative dates count back from Env's clock, here fixed at 2026-03-30
// 09:15 on a local clock at UTC+2: yesterday is the 29th, 7d is the 23rd
// at 09:15, 2w the 16th at 09:15, all on the wall clock that capture dates
// are compared on.
func TestRelativeDatesUseTheClock(t *testing.T) {
	now := time.Date(2026, 3, 30, 9, 15, 0, 0, time.FixedZone("CEST", 2*3600))
	card := t.TempDir()
	shots := map[string]time.Time{
		"yesterday.jpg":    time.Date(2026, 3, 29, 10, 0, 0, 0, time.UTC),
		"justinside.jpg":   time.Date(2026, 3, 23, 9, 15, 0, 0, time.UTC),
		"justoutside.jpg":  time.Date(2026, 3, 23, 9, 14, 0, 0, time.UTC),
		"twoweeksago.jpg":  time.Date(2026, 3, 16, 9, 14, 0, 0, time.UTC),
		"today-early.jpg":  time.Date(2026, 3, 30, 0, 0, 0, 0, time.UTC),
		"today-future.jpg": time.Date(2026, 3, 30, 23, 0, 0, 0, time.UTC),
	}
	for name, when := range shots {
		if err := os.WriteFile(filepath.Join(card, name), fixture.JPEG(fixture.EXIF{When: when, Comment: name}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		flags []string
		want  []string
	}{
		{[]string{"--since", "yesterday", "--until", "yesterday"}, []string{"yesterday.jpg"}},
		{[]string{"--since", "today"}, []string{"today-early.jpg", "today-future.jpg"}},
		{[]string{"--since", "7d", "--until", "today"}, []string{"justinside.jpg", "today-early.jpg", "today-future.jpg", "yesterday.jpg"}},
		{[]string{"--until", "2w"}, []string{"twoweeksago.jpg"}},
		{[]string{"--since", "3w", "--until", "1w"}, []string{"justoutside.jpg", "twoweeksago.jpg"}},
		{[]string{"--since", "33h"}, []string{"today-early.jpg", "today-future.jpg", "yesterday.jpg"}},
	} {
		lib := t.TempDir()
		var out, errOut bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), Now: func() time.Time { return now }}
		args := append(append([]string{"sort", "-q", "-t", "{name}{ext}"}, c.flags...), card, lib)
		if code := Run(context.Background(), env, args); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", c.flags, code, errOut.String())
		}
		var got []string
		entries, _ := os.ReadDir(lib)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				got = append(got, e.Name())
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%v imported %v, want %v", c.flags, got, c.want)
		}
	}
}
