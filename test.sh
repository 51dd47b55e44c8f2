#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: ./test.sh
# It installs what the tests need and is missing — Go modules come through
# the module proxy; Debian's chromium for the test that renders the HTML
# report (that test skips, saying so, where it cannot be installed), and
# wine64 with the MinGW compiler for the Windows run — vets the code, runs
# every test with the race detector, builds and vets all eight release
# targets, then runs the suite for Windows under Wine (.ci/wine/).
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
go version
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) || true # report browser test; skips when offline
go vet ./...
go test -race -count=1 -timeout 20m ./... "$@"
# Every release target builds and vets without cgo, the release archives
# of all eight build (into a scratch folder) with their checksums, and
# `go install …@VERSION` works from a module proxy and stamps VERSION.
# (Measured: the six targets beyond linux and windows amd64 add about 20 s
# of CPU after cross.sh, the install about 15 s.)
.ci/cross.sh
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
.ci/release.sh ci "$scratch" >/dev/null
.ci/goinstall.sh
# The suite again for Windows, under Wine (installed when missing; skipped,
# saying so, where it cannot be).
# By default the packages that pass under Wine today (the filesystem seam,
# the name rules, the storage probe, config, hashing, filters, fixtures,
# the planner, records, time shifts, spelling, transfer, report, store,
# scan; about 70 s of tests under Wine before transfer (46-66 s), report
# (5-6 s), store (7-22 s) and scan (77 s) were added, measured; then the
# CLI and its scripts and the command's kill and chaos tests, shortened
# under Wine: 637 s and 372 s there, measured with other builds loading
# this 2-core machine), and a failure there fails this script. Journal,
# meta, undo and pipeline pass under Wine too but are left out for time
# (undo 44-81 s, pipeline 242-367 s on 2026-12-03; journal and meta
# minutes under load): docs/platforms.md. SHOEBOX_WINE_FULL=1 runs every
# package, not fatal, and the tests shortened under Wine in full. The
# timeout is per test binary (internal/cli's took over 10 minutes under
# load).
if [ "${SHOEBOX_WINE_FULL:-0}" = 1 ]; then
	.ci/wine/test.sh -timeout 30m "$@"
else
	SHOEBOX_WINE_STRICT=1 .ci/wine/test.sh -timeout 15m "$@" ./internal/fsx/... ./internal/layout ./internal/storage ./internal/transfer ./internal/report ./internal/store ./internal/scan \
		./internal/config ./internal/digest ./internal/filter ./internal/fixture ./internal/plan ./internal/record ./internal/shift ./internal/spell \
		./internal/cli ./internal/quote ./cmd/shoebox
fi
