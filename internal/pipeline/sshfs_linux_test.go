package pipeline

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/shoebox-photos/shoebox/internal/fsx/fsxtest"
	"github.com/shoebox-photos/shoebox/internal/storage"
)

// The place rule on a real sshfs mount, not a simulated history: sources
// and library on one mount (as in the bench's sshfs rows), sorted, the
// mount taken down and made again, which numbers every file afresh, and
// sorted again. The re-run must recognise every file unread and transfer
// nothing, and a source changed on the server since must still be seen.
// sshfs talks to a local sftp-server over pipes (-o passive): no sshd, no
// network, a mount in well under a second. Skipped where sshfs, an
// sftp-server or FUSE mounts are not available.
func TestRealSSHFSRerunRecognisesRenumberedFiles(t *testing.T) {
	server := sftpServer(t)
	export, mnt := exportAndMountPoint(t)
	const n, size = 8, 256 << 10
	cardOf(t, export, n, size)
	unmount := mountSSHFS(t, server, export, mnt)
	src, lib := filepath.Join(mnt, "card"), filepath.Join(mnt, "lib")
	if sum, _ := sortTree(t, []string{src}, lib); sum.Transferred != n {
		t.Fatalf("first run on sshfs: %+v", sum)
	}
	probe := filepath.Join(src, "DCIM/IMG_000.JPG")
	before := inodeOf(t, probe)

	unmount()
	mountSSHFS(t, server, export, mnt)
	// Look the library up first, so the card's files cannot come back
	// under the numbers they had by the same order of lookups.
	if err := filepath.WalkDir(lib, func(string, fs.DirEntry, error) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if after := inodeOf(t, probe); after == before {
		t.Fatalf("%s kept inode %d across a remount: this test proves nothing here", probe, before)
	}
	grown := filepath.Join(export, "card/DCIM/IMG_005.JPG") // changed on the server's side
	b, err := os.ReadFile(grown)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(grown, append(b, 1), 0o644); err != nil {
		t.Fatal(err)
	}

	read := fsxtest.ProcIO(t, "rchar")
	sum, rec := sortTree(t, []string{src}, lib)
	read = fsxtest.ProcIO(t, "rchar") - read
	if sum.Recalled != n-1 || sum.Identical != n-1 || sum.Transferred != 1 {
		t.Errorf("re-run after a remount %+v: want %d recognised unread, the grown one landed beside its copy", sum, n-1)
	}
	if p := filepath.Join(src, "DCIM/IMG_005.JPG"); rec.reportedWith(p, "recognised by the import history") {
		t.Errorf("%s was recognised by the history though it grew on the server", p)
	}
	// What the re-run read through the mount: the grown file (copied),
	// its header and the library's own state, no other photo.
	if limit := int64(size) * 3 / 2; read > limit {
		t.Errorf("the re-run read %d bytes through sshfs, over the one grown photo's %d", read, size)
	}
	t.Logf("re-run after a remount read %d bytes for %d photos of %d bytes", read, n, size)
}

// The library's hash cache on a real sshfs mount: `shoebox index` run
// again after a remount, which numbers every file afresh, reads no file
// it hashed before; a file rewritten on the server since is hashed again.
func TestRealSSHFSIndexKeepsHashesAcrossARemount(t *testing.T) {
	server := sftpServer(t)
	export, mnt := exportAndMountPoint(t)
	const n = 6
	_, files := cardOf(t, filepath.Join(export, "lib"), n, 64<<10)
	unmount := mountSSHFS(t, server, export, mnt)
	lib := filepath.Join(mnt, "lib")
	if st, err := Index(context.Background(), lib, 2, nil); err != nil || st.Hashed != n {
		t.Fatalf("first index on sshfs: %+v, %v", st, err)
	}
	probe := filepath.Join(lib, "card/DCIM/IMG_000.JPG")
	before := inodeOf(t, probe)
	unmount()
	mountSSHFS(t, server, export, mnt)
	// Look the state folder up first, so the photos cannot come back
	// under the numbers they had by the same order of lookups.
	if err := filepath.WalkDir(StateDir(lib), func(string, fs.DirEntry, error) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if after := inodeOf(t, probe); after == before {
		t.Fatalf("%s kept inode %d across a remount: this test proves nothing here", probe, before)
	}
	grown := filepath.Join(export, "lib/card/DCIM/IMG_002.JPG") // rewritten on the server's side
	if err := os.WriteFile(grown, append(files["DCIM/IMG_002.JPG"], 1), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Index(context.Background(), lib, 2, nil)
	if err != nil || st.Hashed != 1 || st.Reused != n-1 {
		t.Errorf("index after a remount: %+v, %v: want the grown file hashed, the other %d reused unread", st, err, n-1)
	}
}

// sftpServer is the path of OpenSSH's sftp-server, or skips the test.
func sftpServer(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("sshfs"); err != nil {
		t.Skip("sshfs is not installed (apt-get install sshfs): the real-sshfs test is skipped")
	}
	if _, err := exec.LookPath("fusermount"); err != nil {
		if _, err := exec.LookPath("fusermount3"); err != nil {
			t.Skip("no fusermount: the real-sshfs test is skipped")
		}
	}
	for _, p := range []string{"/usr/lib/openssh/sftp-server", "/usr/libexec/openssh/sftp-server", "/usr/lib/ssh/sftp-server", "/usr/libexec/sftp-server", "/usr/lib/sftp-server"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("no OpenSSH sftp-server found (apt-get install openssh-sftp-server): the real-sshfs test is skipped")
	return ""
}

// mountSSHFS mounts export at mnt with sshfs over a local sftp-server
// and returns what unmounts it (also run at cleanup). It skips the test
// when the mount cannot be made (no /dev/fuse, not allowed).
func mountSSHFS(t *testing.T, server, export, mnt string) func() {
	t.Helper()
	toServer, fromClient, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toClient, fromServer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(server)
	srv.Stdin, srv.Stdout = toServer, fromServer
	cli := exec.Command("sshfs", "-f", "-o", "passive", "shoebox-test:"+export, mnt)
	cli.Stdin, cli.Stdout = toClient, fromClient
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cli.Start(); err != nil {
		srv.Process.Kill()
		t.Fatal(err)
	}
	for _, f := range []*os.File{toServer, fromClient, toClient, fromServer} {
		f.Close()
	}
	exited := make(chan error, 1)
	go func() { exited <- cli.Wait() }()
	done := false
	unmount := func() {
		if done {
			return
		}
		done = true
		if exec.Command("fusermount", "-u", mnt).Run() != nil && exec.Command("fusermount3", "-u", mnt).Run() != nil {
			syscall.Unmount(mnt, syscall.MNT_DETACH)
		}
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cli.Process.Kill()
			<-exited
		}
		srv.Process.Kill()
		srv.Wait()
	}
	t.Cleanup(unmount)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if in, err := storage.Probe(mnt); err == nil && in.FSType == "fuse.sshfs" {
			return unmount
		}
		select {
		case err := <-exited:
			exited <- err
			t.Skipf("sshfs could not mount (no FUSE here, or not allowed): %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshfs did not mount %s within 10 s", mnt)
		}
	}
}

func inodeOf(t *testing.T, p string) uint64 {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

// exportAndMountPoint makes the folder the sftp-server serves and the
// folder sshfs mounts it on.
func exportAndMountPoint(t *testing.T) (export, mnt string) {
	t.Helper()
	root := t.TempDir()
	export, mnt = filepath.Join(root, "export"), filepath.Join(root, "mnt")
	for _, d := range []string{export, mnt} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return export, mnt
}
