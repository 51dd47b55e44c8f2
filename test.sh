#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: ./test.sh
# It installs what the tests need and is missing — Go modules come through
# the module proxy; Debian's chromium for the test that renders the HTML
# report (that test skips, saying so, where it cannot be installed) — vets
# the code, then runs every test with the race detector.
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
go version
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) || true # report browser test; skips when offline
go vet ./...
go test -race -count=1 -timeout 20m ./... "$@"
