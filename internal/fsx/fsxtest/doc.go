// Package fsxtest holds what tests that measure the disk share: evicting a
// file from the page cache so the next read is cold, and the kernel's
// per-process I/O counters. Only tests import it; it ships in no binary.
package fsxtest
