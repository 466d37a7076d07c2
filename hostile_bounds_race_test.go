//go:build race

package main

// rssScale widens the memory bounds of the hostile suite under the race
// detector, whose shadow memory multiplies a process's footprint.
const rssScale = 4

// raceDetector says the race detector is on.
const raceDetector = true
