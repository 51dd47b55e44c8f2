#!/usr/bin/env bash
# Builds and vets shoebox for every release target, without cgo: what ships
# is pure Go (pebble then uses its pure-Go zstd, not DataDog's cgo one).
#   .ci/cross.sh            all eight targets
#   .ci/cross.sh windows/amd64 ...
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${*:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64 freebsd/arm64}
for t in $targets; do
	echo "cross: $t"
	GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go build -trimpath ./... # -trimpath: the release build reuses these compiles
	GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go vet ./...
done
# The shipped binary links no cgo package (DataDog/zstd would need a C compiler).
if CGO_ENABLED=0 go list -deps ./cmd/shoebox | grep -q 'DataDog/zstd'; then
	echo "cross: the CGO_ENABLED=0 build still links DataDog/zstd" >&2
	exit 1
fi
