package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// buildVersion is what the binary knows of itself from the Go build info:
// the main module's version (a tag, or the pseudo-version Go derives from
// the VCS; "" for a plain development build), the VCS revision, its time,
// and whether the work tree had changes.
type buildVersion struct {
	Version   string
	Revision  string
	Time      string
	Modified  bool
	GoVersion string
}

// buildVersion reads c.buildInfo (runtime/debug.ReadBuildInfo unless a test
// sets it).
func (c *cli) buildVersion() buildVersion {
	read := c.buildInfo
	if read == nil {
		read = debug.ReadBuildInfo
	}
	info, ok := read()
	if !ok || info == nil {
		return buildVersion{}
	}
	v := buildVersion{GoVersion: info.GoVersion}
	if ver := info.Main.Version; ver != "" && ver != "(devel)" {
		v.Version = ver
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// clientVersion is the version mcpterm gives servers as clientInfo.version:
// the module version, else "dev" with the short revision ("dev+1a2b3c4d5e6f",
// "+dirty" when modified), else "dev".
func (c *cli) clientVersion() string {
	v := c.buildVersion()
	if v.Version != "" {
		return v.Version
	}
	out := "dev"
	if v.Revision != "" {
		out += "+" + short(v.Revision)
		if v.Modified {
			out += ".dirty"
		}
	}
	return out
}

// versionLine is what --version prints.
func (c *cli) versionLine() string {
	v := c.buildVersion()
	var b strings.Builder
	b.WriteString("mcpterm ")
	if v.Version != "" {
		b.WriteString(v.Version)
	} else {
		b.WriteString("dev")
	}
	var parts []string
	if v.Revision != "" {
		parts = append(parts, "revision "+short(v.Revision))
		if v.Modified {
			parts = append(parts, "modified")
		}
	}
	if v.Time != "" {
		parts = append(parts, v.Time)
	}
	if v.GoVersion != "" {
		parts = append(parts, v.GoVersion)
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	return b.String()
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
