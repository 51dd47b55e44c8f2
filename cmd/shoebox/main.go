// Command shoebox sorts photos and videos into a library by capture date.
// Everything but the process boundary lives in internal/cli.
package main

import (
	"os"

	"github.com/shoebox-photos/shoebox/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
