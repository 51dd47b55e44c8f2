#!/usr/bin/env bash
# go test -exec wrapper: runs a Windows test binary under Wine.
#   GOOS=windows go test -exec "$PWD/.ci/wine/exec.sh" ./...
# Expects the environment from setup.sh (WINEPREFIX, WINEDEBUG).
set -eu
bin=$1
shift
case $bin in *.exe) ;; *) ln -f "$bin" "$bin.exe" 2>/dev/null || cp "$bin" "$bin.exe"; bin=$bin.exe ;; esac
exec "$(command -v wine64 || echo /usr/lib/wine/wine64)" "$bin" "$@"
