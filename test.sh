#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: ./test.sh
# It installs what the tests need and is missing — Go modules come through
# the module proxy; Debian's chromium for the test that renders the HTML
# report (that test skips, saying so, where it cannot be installed),
# staticcheck, and wine64 with the MinGW compiler for the Windows run —
# vets the code, runs staticcheck and the changelog check, runs every
# test with the race detector, builds and vets one release target per OS,
# then runs the suite for Windows under Wine (.ci/wine/). What each stage
# does, its switches and how long it takes: docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
go version
# Each stage's wall time, for the figures in docs/testing.md.
began=$SECONDS
stage() { echo "test.sh: $1 done at $((SECONDS - began)) s"; }
# chromium renders the HTML report in one test; when it cannot be installed
# (offline, another apt holding its lock) that test skips, and this says so.
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) ||
	echo "test.sh: chromium could not be installed: TestReportInBrowser and TestReportLayoutAtDesktopAndPhoneWidths will skip (the report is still checked as HTML)" >&2
go vet ./...
stage vet
# staticcheck (pinned: 2026.2.2 knows Go 1.26), through the module proxy;
# any finding fails the run. No check is disabled (no staticcheck.conf).
GOBIN="$(go env GOPATH)/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
"$(go env GOPATH)/bin/staticcheck" ./...
stage staticcheck
# The release script's CHANGELOG.md check, and that the Unreleased entry exists.
.ci/changelog_test.sh
# A program built with -race sleeps a second as it exits (GORACE's
# atexit_sleep_ms): the tests start hundreds of such programs (the CLI
# scripts, the kill and chaos tests), which made this stage four times
# its work. Races are reported as they are found all the same.
GORACE=${GORACE:-atexit_sleep_ms=0} go test -race -count=1 -timeout 20m ./... "$@"
stage "go test -race"
# The release archives of one target per OS build (into a scratch folder)
# with their checksums, without cgo: both architectures are among them
# (arm64 for macOS), and no file of shoebox depends on the architecture
# (.ci/cross.sh checks). Each OS's code (tests and the bench included) is
# then vetted on those compiles, and the cgo check made for all eight
# targets; `go install …@VERSION` works from a module proxy and stamps
# VERSION. A release builds all eight (.ci/release.sh); so does
# SHOEBOX_CROSS_ALL=1 ./test.sh. On a fresh machine every target is a
# compile of everything from scratch: eight took 15 minutes here.
targets="linux/amd64 windows/amd64 darwin/arm64 freebsd/amd64"
if [ "${SHOEBOX_CROSS_ALL:-0}" = 1 ]; then
	targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64 freebsd/arm64"
fi
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
SHOEBOX_TARGETS=$targets .ci/release.sh ci "$scratch" >/dev/null
# shellcheck disable=SC2086
.ci/cross.sh --vet-only $targets
.ci/goinstall.sh
stage "cross builds, release archives, go install"
# The whole suite again for Windows, under Wine (installed when missing;
# skipped, saying so, where it cannot be), every package, failures fatal:
# 469 s of the 776 s a warm run took on this 2-core machine (docs/testing.md).
# The command's kill and chaos tests run shortened under Wine, and tests
# slow there that check nothing platform-specific skip;
# SHOEBOX_WINE_FULL=1 runs them all. What skips there, and why:
# docs/platforms.md. The timeout is per test binary (internal/cli's took
# over 10 minutes under load 40).
timeout=15m
if [ "${SHOEBOX_WINE_FULL:-0}" = 1 ]; then timeout=30m; fi
SHOEBOX_WINE_STRICT=1 .ci/wine/test.sh -timeout "$timeout" "$@" ./...
stage "the Windows suite under Wine"
