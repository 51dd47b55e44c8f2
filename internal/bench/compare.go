package bench

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// compareRuns times the plain tools on the same tree, each made durable
// with sync as the sort makes every file durable: `cp -r` and `rsync -a`.
// A tool that is not installed gets a row that says so.
func compareRuns(cfg Config, work, src string, log io.Writer) []RunRow {
	cpDst, rsDst := filepath.Join(work, "cp-dst"), filepath.Join(work, "rsync-dst")
	os.RemoveAll(cpDst)
	os.RemoveAll(rsDst)
	defer os.RemoveAll(cpDst)
	prepareCache(cfg, src, log)
	rows := []RunRow{cpRun(cfg, src, cpDst)}
	prepareCache(cfg, src, log)
	rows = append(rows, external("rsync -a SRC/ DST/ && sync", cfg.Count, "rsync", "-a", src+"/", rsDst+"/"))
	return rows
}

// cpRun times cp -r like for like: GNU cp (coreutils 9 and later) clones
// by default where the filesystem can, so for --mode copy it is told not
// to, and for --mode reflink it is left to clone.
func cpRun(cfg Config, src, dst string) RunRow {
	if cfg.Mode == "reflink" {
		return external("cp -r SRC DST && sync (clones where it can)", cfg.Count, "cp", "-r", src, dst)
	}
	if exec.Command("cp", "--reflink=never", "--version").Run() == nil {
		return external("cp -r --reflink=never SRC DST && sync", cfg.Count, "cp", "-r", "--reflink=never", src, dst)
	}
	return external("cp -r SRC DST && sync", cfg.Count, "cp", "-r", src, dst)
}

// rsyncRerun times rsync deciding that the copy it made is up to date
// (its size and mtime quick check), the reference for the sort's re-run.
func rsyncRerun(cfg Config, work, src string, log io.Writer) RunRow {
	rsDst := filepath.Join(work, "rsync-dst")
	defer os.RemoveAll(rsDst)
	if _, err := os.Stat(rsDst); err != nil {
		return RunRow{Name: "rsync -a re-run", Transferred: -1, Note: "no first rsync copy to re-run into"}
	}
	prepareCache(cfg, src, log)
	return external("rsync -a re-run", cfg.Count, "rsync", "-a", src+"/", rsDst+"/")
}

// external runs a command and then sync(1), timing both; the bytes read
// are the command's own (its rusage).
func external(name string, files int, argv ...string) RunRow {
	row := RunRow{Name: name, Files: files, Transferred: -1}
	if _, err := exec.LookPath(argv[0]); err != nil {
		row.Note = fmt.Sprintf("%s is not installed: not measured", argv[0])
		return row
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	if err == nil {
		err = exec.Command("sync").Run()
	}
	row.Took = time.Since(start)
	if cmd.ProcessState != nil {
		row.IO = childIO(cmd)
	}
	if err != nil {
		row.Note = fmt.Sprintf("failed: %v", err)
	}
	return row
}
