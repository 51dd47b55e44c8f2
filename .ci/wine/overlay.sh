#!/usr/bin/env bash
# Prints the path of a `go build -overlay` file that works around a Wine 8
# gap for test runs only (never for what ships): Wine answers
# NtSetInformationFile(FileDispositionInformationEx) with
# STATUS_NOT_IMPLEMENTED, where Windows before 10 1607 answers
# STATUS_INVALID_INFO_CLASS, so Go's os.RemoveAll (and every t.TempDir
# cleanup) fails with "Invalid function" instead of taking its fallback.
# The overlay is the toolchain's own at_windows.go with that status added
# to the fallback case; it is regenerated whenever the toolchain changes.
set -euo pipefail
src=$(go env GOROOT)/src/internal/syscall/windows/at_windows.go
dir=${SHOEBOX_WINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/shoebox-wine}/overlay-$(go env GOVERSION)
mkdir -p "$dir"
if [ ! -f "$dir/overlay.json" ]; then
	sed 's|^\tcase STATUS_INVALID_INFO_CLASS, // the operating system|\tcase NTStatus(0xC0000002), STATUS_INVALID_INFO_CLASS, // Wine: STATUS_NOT_IMPLEMENTED; the operating system|' "$src" >"$dir/at_windows.go"
	grep -q 0xC0000002 "$dir/at_windows.go" || { echo "overlay.sh: $src changed, cannot patch it" >&2; exit 1; }
	printf '{"Replace":{"%s":"%s"}}\n' "$src" "$dir/at_windows.go" >"$dir/overlay.json"
fi
echo "$dir/overlay.json"
