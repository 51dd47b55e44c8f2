//go:build unix

package fsx

// The fallbacks of the no-replace rename, used where the system's call or
// hard links are missing, are tested like the real thing.
func init() {
	noReplaceRenames["link+unlink"] = renameByLink
	noReplaceRenames["check+rename"] = renameIfAbsent
}
