package cli

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// deniedText is what an open refused by another program's lock says (the
// system's own words: "The process cannot access the file because it is
// being used by another process", "Sharing violation" under Wine).
var deniedText = strings.TrimSuffix(errSharingViolation.Error(), ".")

// lockFile makes a source photo unreadable the way it is on Windows:
// another program holds it open without sharing it (a mode bit cannot:
// Windows has no read permission bit).
func lockFile(t *testing.T, p string) { hold(t, p, 0) }

// lockFolder makes a source folder unlistable: held open unshared.
func lockFolder(t *testing.T, p string) { hold(t, p, syscall.FILE_FLAG_BACKUP_SEMANTICS) }

// lockDestFolder cannot make a folder unwritable: that takes an access
// control list, which Wine does not enforce, so the case runs on Unix
// only and the folder stays writable here.
func lockDestFolder(*testing.T, string) bool { return false }

func hold(t *testing.T, p string, flags uint32) {
	t.Helper()
	name, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := syscall.CreateFile(name, syscall.GENERIC_READ, 0, nil, syscall.OPEN_EXISTING, flags, 0)
	if err != nil {
		t.Fatalf("hold %s open: %v", p, err)
	}
	t.Cleanup(func() { syscall.CloseHandle(h) })
}

// reportMode is what Windows reports for any writable file.
const reportMode os.FileMode = 0o666

// errSharingViolation is ERROR_SHARING_VIOLATION, which package syscall
// does not name.
const errSharingViolation = syscall.Errno(32)
