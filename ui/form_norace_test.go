//go:build !race

package ui

// formSweepStep: without the race detector, TestFormEverySize draws every
// size.
const formSweepStep = 1
