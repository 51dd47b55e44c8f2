package main

import (
	"os"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

// underWineQuick is true under Wine unless SHOEBOX_WINE_FULL=1: there a
// child process takes about a second to start, so the kill loops (dozens
// of runs of the command each) take many minutes; ./test.sh runs a few
// iterations of each, SHOEBOX_WINE_FULL=1 all of them.
func underWineQuick() bool {
	return fsxtest.UnderWine() && os.Getenv("SHOEBOX_WINE_FULL") != "1"
}
