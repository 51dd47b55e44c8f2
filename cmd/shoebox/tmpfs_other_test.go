//go:build !linux

package main

import "testing"

// mountTmpfs: tmpfs is Linux's; elsewhere the chaos test runs on the temp
// dir's disk, without the cross-device move.
func mountTmpfs(t *testing.T, name string) string {
	t.Logf("no tmpfs on this system: %s is on the temp dir's disk, without the cross-device move", name)
	return ""
}
