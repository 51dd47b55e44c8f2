package fsxtest

import (
	"os"
	"testing"
)

// SkipSlowUnderWine skips, under Wine and unless SHOEBOX_WINE_FULL=1, a
// test that takes tens of seconds there and checks nothing that depends
// on the platform (the log, undo's bookkeeping, parsers over the shared
// corpus): it runs on Linux in every ./test.sh, and Wine's minutes go to
// what Windows does differently. docs/platforms.md lists every such test.
func SkipSlowUnderWine(t testing.TB, what string) {
	t.Helper()
	if WineQuick() {
		t.Skipf("%s: the same on every platform and slow under Wine; it runs on Linux (SHOEBOX_WINE_FULL=1 runs it here)", what)
	}
}

// WineQuick reports whether a long test should run shortened: under Wine,
// unless SHOEBOX_WINE_FULL=1.
func WineQuick() bool { return UnderWine() && os.Getenv("SHOEBOX_WINE_FULL") != "1" }
