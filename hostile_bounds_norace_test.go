//go:build !race

package main

// rssScale is 1 without the race detector (see hostile_bounds_race_test.go).
const rssScale = 1

// raceDetector says the race detector is on.
const raceDetector = false
