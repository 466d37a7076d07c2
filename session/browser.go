package session

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"strings"
)

// Openable says why u would not be opened (nil if it would): only an
// http or https URL with a host is.
func Openable(u string) error {
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return fmt.Errorf("not opening %q: only http and https URLs are opened", u)
	}
	return nil
}

// OpenURL opens u in the person's browser: $BROWSER first (a command line;
// a "%s" in it is replaced by the URL, else the URL is its last argument,
// and a ':'-separated list is tried in order), then xdg-open (or open on
// macOS). Only http and https URLs are opened: a server's URL must not start
// a local program. The caller also prints the URL, so a person without a
// browser can follow it; OpenURL waits for the opener to exit (bounded by
// ctx), which a headless $BROWSER script uses to finish a redirect flow.
func OpenURL(ctx context.Context, u string, getenv func(string) string) error {
	if err := Openable(u); err != nil {
		return err
	}
	var tried []string
	if b := getenv("BROWSER"); b != "" {
		for _, cmdline := range strings.Split(b, ":") {
			fields := strings.Fields(cmdline)
			if len(fields) == 0 {
				continue
			}
			args := fields[1:]
			replaced := false
			for i, a := range args {
				if strings.Contains(a, "%s") {
					args[i] = strings.ReplaceAll(a, "%s", u)
					replaced = true
				}
			}
			if !replaced {
				args = append(args, u)
			}
			err := exec.CommandContext(ctx, fields[0], args...).Run()
			if err == nil {
				return nil
			}
			tried = append(tried, fields[0]+": "+err.Error())
		}
	}
	opener := "xdg-open"
	if runtime.GOOS == "darwin" {
		opener = "open"
	}
	if _, err := exec.LookPath(opener); err != nil {
		tried = append(tried, opener+": not found")
		return errors.New("no browser to open the URL (" + strings.Join(tried, "; ") + ")")
	}
	if err := exec.CommandContext(ctx, opener, u).Run(); err != nil {
		tried = append(tried, opener+": "+err.Error())
		return errors.New("opening the URL: " + strings.Join(tried, "; "))
	}
	return nil
}
