// Command bench times `shoebox sort` stage by stage on a generated tree:
//
//	go run ./cmd/bench <count> [work-dir] [--scan-only] [--keep] [--workers N] [--dedup on|off]
package main

import (
	"context"
	"fmt"
	"os"

	"shoebox/internal/bench"
)

func main() {
	cfg, err := bench.ParseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s\nusage: go run ./cmd/bench <count> [work-dir] [--scan-only] [--keep] [--workers N] [--dedup on|off]\n", err)
		os.Exit(2)
	}
	row, err := bench.Run(context.Background(), cfg, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s\n", err)
		os.Exit(1)
	}
	bench.PrintTable(os.Stdout, []bench.Row{row})
	bench.PrintStages(os.Stdout, row)
}
