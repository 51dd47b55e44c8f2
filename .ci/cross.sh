#!/usr/bin/env bash
# Builds and vets shoebox for every release target, without cgo: what ships
# is pure Go (pebble then uses its pure-Go zstd, not DataDog's cgo one).
#   .ci/cross.sh            all eight targets
#   .ci/cross.sh windows/amd64 ...
#   .ci/cross.sh --vet-only [targets]   vet and the cgo check only: for a
#                           caller that has just built those targets
#                           (./test.sh runs .ci/release.sh first, which
#                           compiles the same packages with -trimpath)
# Builds and vets run with -trimpath, as the release builds do: vet then
# reuses their compiles from the build cache instead of compiling every
# package again for each OS (on a fresh machine, minutes per target).
# The cgo check covers all eight targets whichever are built.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
if [ "${1:-}" = --vet-only ]; then
	build=0
	shift
fi
all="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64 freebsd/arm64"
targets=${*:-$all}
# vet once per OS: no file of shoebox depends on the architecture (checked
# here: a file named for an architecture, or a build constraint naming one,
# makes every target vetted again), and vet compiles every package anew
# for each target, which on two cores under load took minutes apiece.
archfiles=$(git ls-files '*.go' | grep -E '_(amd64|arm64|386|arm)(_test)?\.go$' || true)
archtags=$(git grep -lE '^//go:build .*(amd64|arm64|386|arm)' -- '*.go' || true)
vetted=" "
for t in $targets; do
	echo "cross: $t"
	if [ "$build" = 1 ]; then
		GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go build -trimpath ./... # -trimpath: the release build reuses these compiles
	fi
	if [ -n "$archfiles$archtags" ] || [[ "$vetted" != *" ${t%/*} "* ]]; then
		GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go vet -trimpath ./...
		vetted="$vetted${t%/*} "
	fi
done
# What ships links no package with cgo files (pebble's DataDog/zstd and
# internal/manual would, with cgo on): proven for every target by the
# build graph itself.
for t in $all; do
	cgo=$(GOOS=${t%/*} GOARCH=${t#*/} CGO_ENABLED=0 go list -deps -f '{{if .CgoFiles}}{{.ImportPath}}{{end}}' ./cmd/shoebox)
	if [ -n "$cgo" ]; then
		echo "cross: $t: the CGO_ENABLED=0 build still has cgo packages: $cgo" >&2
		exit 1
	fi
done
echo "cross: no cgo package in ./cmd/shoebox's build for: $all"
