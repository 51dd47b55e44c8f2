#!/usr/bin/env bash
# Builds the release archives for every target, with SHA-256 checksums:
#   .ci/release.sh v1.2.3 [outdir]      (default outdir: dist/)
# Each archive holds the shoebox binary (pure Go: CGO_ENABLED=0), README.md,
# LICENSE, CHANGELOG.md, docs/
# and the man page shoebox.1 (rendered from the help texts by
# `shoebox help man`). `shoebox version` prints
# the given version. Windows archives are .zip, the others .tar.gz.
# A version with no entry in CHANGELOG.md is refused (.ci/changelog.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: .ci/release.sh VERSION [OUTDIR]}
.ci/changelog.sh "$version" >/dev/null # its entry in CHANGELOG.md, or stop here
out=$(mkdir -p "${2:-dist}" && cd "${2:-dist}" && pwd)
targets=${SHOEBOX_TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64 freebsd/amd64 freebsd/arm64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go run -ldflags "-X github.com/shoebox-photos/shoebox/internal/cli.Version=$version" ./cmd/shoebox help man >"$work/shoebox.1"
for t in $targets; do
	os=${t%/*} arch=${t#*/}
	name=shoebox-$version-$os-$arch
	exe=shoebox
	[ "$os" = windows ] && exe=shoebox.exe
	mkdir -p "$work/$name"
	GOOS=$os GOARCH=$arch CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X github.com/shoebox-photos/shoebox/internal/cli.Version=$version" \
		-o "$work/$name/$exe" ./cmd/shoebox
	cp -r README.md LICENSE CHANGELOG.md docs "$work/$name/"
	cp "$work/shoebox.1" "$work/$name/"
	rm -f "$out/$name.zip" "$out/$name.tar.gz"
	if [ "$os" = windows ]; then
		if command -v zip >/dev/null; then
			(cd "$work" && zip -qr "$out/$name.zip" "$name")
		else
			(cd "$work" && python3 -m zipfile -c "$out/$name.zip" "$name")
		fi
	else
		tar -C "$work" -czf "$out/$name.tar.gz" "$name"
	fi
	echo "release: $name"
done
(cd "$out" && sha256sum shoebox-"$version"-* >SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
echo "release: $out/SHA256SUMS"
