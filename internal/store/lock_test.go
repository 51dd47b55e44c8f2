package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
)

func TestLockExclusiveInProcess(t *testing.T) {
	dir := t.TempDir()
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(dir)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Lock: %v, want ErrLocked", err)
	}
	if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder (%s)", err, want)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatalf("second unlock: %v", err)
	}
	again, err := Lock(dir)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	again()
}

func TestLockCreatesDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", ".shoebox")
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(dir, "lock")); err != nil {
		t.Fatal(err)
	}
}

const lockChildEnv = "SHOEBOX_STORE_LOCK_CHILD"

// TestLockHelperProcess is the child of TestLockExclusiveAcrossProcesses:
// it takes the lock, says so, and holds it until its stdin closes.
func TestLockHelperProcess(t *testing.T) {
	dir := os.Getenv(lockChildEnv)
	if dir == "" {
		t.Skip("helper process for TestLockExclusiveAcrossProcesses")
	}
	if _, err := Lock(dir); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}

func TestLockExclusiveAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	child.Env = append(os.Environ(), lockChildEnv+"="+dir)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		stdin.Close()
		child.Wait()
		t.Fatalf("child did not take the lock: %q", line)
	}

	_, err = Lock(dir)
	if !errors.Is(err, ErrLocked) {
		t.Errorf("Lock while the child holds it: %v, want ErrLocked", err)
	} else if want := fmt.Sprintf("pid %d", child.Process.Pid); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the child (%s)", err, want)
	}

	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatalf("Lock after the child exited: %v", err)
	}
	unlock()
}

// A state folder or lock that is a symbolic link, or a big file at the
// lock's name, is refused: following it would let shoebox truncate or
// remove files that are not its own.
func TestLockRefusesWhatIsNotOurs(t *testing.T) {
	outside := t.TempDir()
	photo := filepath.Join(outside, "photo.jpg")
	content := []byte(strings.Repeat("jpeg bytes ", 100))
	if err := os.WriteFile(photo, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "run"), 0o755); err != nil {
		t.Fatal(err)
	}

	bigLock := t.TempDir()
	if err := os.WriteFile(filepath.Join(bigLock, "lock"), content, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(bigLock); !errors.Is(err, ErrNotOurs) {
		t.Errorf("a photo at the lock's name: %v, want ErrNotOurs", err)
	}
	if got, _ := os.ReadFile(filepath.Join(bigLock, "lock")); string(got) != string(content) {
		t.Error("the file at the lock's name was changed")
	}

	linkedState := filepath.Join(t.TempDir(), ".shoebox")
	fsxtest.Symlink(t, outside, linkedState) // or skip where links cannot be made
	if _, err := Lock(linkedState); !errors.Is(err, ErrNotOurs) {
		t.Errorf("state folder that is a link: %v, want ErrNotOurs", err)
	}

	linkedLock := t.TempDir()
	fsxtest.Symlink(t, photo, filepath.Join(linkedLock, "lock"))
	if _, err := Lock(linkedLock); !errors.Is(err, ErrNotOurs) {
		t.Errorf("lock that is a link: %v, want ErrNotOurs", err)
	}

	if got, _ := os.ReadFile(photo); string(got) != string(content) {
		t.Error("the photo behind the link was changed")
	}
	if _, err := os.Stat(filepath.Join(outside, "run")); err != nil {
		t.Errorf("the folder behind the linked state folder was touched: %v", err)
	}
}

// Held sees a lock another open file holds, and creates nothing where
// there is no lock.
func TestHeld(t *testing.T) {
	dir := t.TempDir()
	if Held(dir) {
		t.Fatal("Held with no lock file")
	}
	if _, err := os.Stat(filepath.Join(dir, "lock")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Held made a lock file: %v", err)
	}
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !Held(dir) {
		t.Error("Held does not see the lock")
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if Held(dir) {
		t.Error("Held after unlock")
	}
	again, err := Lock(dir)
	if err != nil {
		t.Fatalf("Lock after Held: %v", err)
	}
	again()
}
