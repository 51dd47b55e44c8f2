//go:build unix

package main

// killedCode is the exit code fsxtest.RunKilled reports for a command its
// kill ended: SIGKILL is a signal, so no exit code (-1).
const killedCode = -1
