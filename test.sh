#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: ./test.sh
# It installs what the tests need and is missing (nothing beyond Go for the
# core suite), vets the code, then runs every test with the race detector.
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
go version
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) || true # report browser test; skips when offline
go vet ./...
go test -race -count=1 -timeout 20m ./... "$@"
