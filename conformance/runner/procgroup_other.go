//go:build !unix

package main

import "os/exec"

// ownGroup leaves cmd as it is where there are no Unix process groups.
func ownGroup(cmd *exec.Cmd) {}

// endGroup has nothing to end where there are no Unix process groups.
func endGroup(cmd *exec.Cmd) {}
