package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/pipeline"
)

// The summary reads as rsync's --stats does: counts with thousands
// separators, the bytes transferred, the time taken and the rate.
func TestSummaryGroupsThousandsAndGivesBytesTimeAndRate(t *testing.T) {
	sum := pipeline.Summary{Scanned: 1_234_567, Media: 1_200_000, Transferred: 1_199_000, Identical: 1000,
		Bytes: 3_000_000_000, PerYear: map[int]int64{2021: 1_199_000}}
	var b bytes.Buffer
	printSummary(&b, sum, "lib", 100*time.Second)
	out := b.String()
	for _, want := range []string{
		"lib: 1,200,000 of 1,234,567 files scanned are photos or videos",
		"transferred             1,199,000",
		"already in library          1,000",
		"by year: 2021: 1,199,000",
		"3.0 GB in 1m40s, 30.0 MB/s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	sum.DryRun = true
	printSummary(&b, sum, "lib", time.Second)
	if !strings.Contains(b.String(), "would transfer 3.0 GB") || strings.Contains(b.String(), "/s") {
		t.Errorf("dry-run summary should give the bytes it would transfer, no rate:\n%s", b.String())
	}
}
