// Command bench times `shoebox sort` stage by stage on a generated tree,
// and with --rerun, --incremental and --compare, whole runs against
// `cp -r` and `rsync -a` on the same tree:
//
//	go run ./cmd/bench <count> [work-dir] [--scan-only] [--keep] [--workers N|auto] [--meta-workers N]
//	    [--dedup on|off] [--real-size] [--cold] [--rerun] [--incremental N] [--compare]
//	    [--mode copy|reflink] [--generate-only] [--label TEXT] [--history on|off|both]
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/shoebox-photos/shoebox/internal/bench"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--print-summary-header" {
		fmt.Println(bench.SummaryHeader) // for storage.sh
		return
	}
	cfg, err := bench.ParseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s\nusage: go run ./cmd/bench %s\n", err, bench.Usage)
		os.Exit(2)
	}
	row, err := bench.Run(context.Background(), cfg, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s\n", err)
		os.Exit(1)
	}
	if cfg.GenerateOnly {
		fmt.Printf("generated %d files (%d bytes)\n", row.Files, row.Bytes)
		return
	}
	bench.PrintSetup(os.Stdout, cfg, row)
	bench.PrintTable(os.Stdout, []bench.Row{row})
	bench.PrintStages(os.Stdout, row)
	if alt := row.NoHistory; alt != nil {
		fmt.Println("\nthe same first sort without the import history (--history both):")
		bench.PrintTable(os.Stdout, []bench.Row{*alt})
		bench.PrintStages(os.Stdout, *alt)
	}
	bench.PrintIO(os.Stdout, row)
	fmt.Println()
	bench.PrintRuns(os.Stdout, row)
	if cfg.Label != "" {
		bench.PrintSummary(os.Stdout, cfg.Label, row)
	}
}
