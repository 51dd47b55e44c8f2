package main

// killedCode is the exit code fsxtest.RunKilled reports for a command its
// kill ended: on Windows Process.Kill is TerminateProcess with exit code
// 1. shoebox's own exit 1 (an error) looks the same; a chaos run expects
// none, and the checks after the "kill" would catch what it left.
const killedCode = 1
