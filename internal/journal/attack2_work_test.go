package journal

import "testing"

// Attack: a value of a flag that takes one (--backup, --unknown-dir, -t)
// which looks like -v, -n or -q is dropped as if it were that flag, so two
// command lines that do different work are taken for one: here a backup
// folder named "-v" with sources a and b, against a backup folder a with
// the source b only.
func TestAttack2SameWorkFlagValueLikeVerbose(t *testing.T) {
	for _, pair := range [][2][]string{
		{{"sort", "--backup", "-v", "a", "b", "lib"}, {"sort", "--backup", "a", "b", "lib"}},
		{{"sort", "--unknown-dir", "-q", "a", "b", "lib"}, {"sort", "--unknown-dir", "a", "b", "lib"}},
		{{"sort", "-t", "-n", "a", "b", "lib"}, {"sort", "-t", "a", "b", "lib"}},
	} {
		if SameWork(pair[0], pair[1]) {
			t.Errorf("%q taken for the same work as %q (work %q)", pair[0], pair[1], workOf(pair[0]))
		}
	}
}
