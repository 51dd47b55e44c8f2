package spell

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	for _, c := range []struct {
		word, want string
		dist       int
	}{{"nmae", "name", 2}, {"yaer", "year", 2}, {"month", "month", 0}, {"zzzzzz", "name", 6}} {
		got, d := Closest(c.word, []string{"name", "year", "month"})
		if got != c.want || d != c.dist {
			t.Errorf("Closest(%q) = %q, %d; want %q, %d", c.word, got, d, c.want, c.dist)
		}
	}
	if got, d := Closest("x", nil); got != "" || d != -1 {
		t.Errorf("no candidates: %q, %d", got, d)
	}
}

func TestDistanceIsBoundedOnHugeInput(t *testing.T) {
	if d := Distance(strings.Repeat("a", 1<<20), "name"); d > maxLen {
		t.Errorf("distance %d over the cap", d)
	}
}
