package gateway

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(faultEnv); mode != "" {
		runFault(mode, os.Getenv(markEnv), os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
