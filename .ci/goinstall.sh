#!/usr/bin/env bash
# Proves `go install github.com/shoebox-photos/shoebox/cmd/shoebox@VERSION`
# works for a published version, and that the installed `shoebox version`
# prints VERSION (the module version stamped by the go command, no -ldflags):
#   .ci/goinstall.sh [VERSION]        (default v0.0.0-ci)
# The module's zip (what a module proxy serves for a tag of this commit)
# is built from the committed tree with `git archive` into a file:// proxy;
# dependencies come from the module cache, else the public proxy. Nothing
# is published and the user's module cache keeps no copy of shoebox.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=github.com/shoebox-photos/shoebox
version=${1:-v0.0.0-ci}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
at=$work/proxy/$mod/@v
mkdir -p "$at" "$work/bin"
# The zip holds the committed tree under module@version/, without the
# nested modules (the go command leaves their files out of a module's zip).
nested=$(git ls-files '*/go.mod' | xargs -r -n1 dirname)
git archive --format=zip --prefix="$mod@$version/" -o "$at/$version.zip" HEAD
for d in $nested; do
	zip -q -d "$at/$version.zip" "$mod@$version/$d/*" >/dev/null
done
git show HEAD:go.mod >"$at/$version.mod"
printf '{"Version":"%s","Time":"%s"}\n' "$version" "$(git show -s --format=%cI HEAD)" >"$at/$version.info"
echo "$version" >"$at/list"
# A module cache of its own, so the user's keeps no copy of this test
# version; dependencies come from the user's download cache served as a
# second proxy (no network when the tests already fetched them).
cache=$(go env GOMODCACHE)
GOBIN=$work/bin GOMODCACHE=$work/modcache GOFLAGS="-mod=mod -trimpath" GONOSUMDB=$mod \
	GOPROXY="file://$work/proxy,file://$cache/cache/download,https://proxy.golang.org" \
	GOTOOLCHAIN=local CGO_ENABLED=0 go install "$mod/cmd/shoebox@$version" 2>"$work/install.log" ||
	{ cat "$work/install.log" >&2; exit 1; }
got=$("$work/bin/shoebox" version)
case $got in
*"$version"*) echo "goinstall: go install $mod/cmd/shoebox@$version works; shoebox version: $got" ;;
*)
	echo "goinstall: shoebox version printed \"$got\", want $version" >&2
	exit 1
	;;
esac
