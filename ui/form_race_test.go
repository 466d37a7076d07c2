//go:build race

package ui

// formSweepStep is how far apart the sizes TestFormEverySize draws are:
// under the race detector, which makes every frame some ten times dearer,
// one size in three each way (every size runs without it).
const formSweepStep = 3
