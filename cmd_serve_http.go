package main

import (
	"flag"
	"fmt"
	"math"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/session/gateway"
)

// serveHTTPFlags are serve's flags for --listen: who may connect and what
// one peer may make the gateway hold.
type serveHTTPFlags struct {
	tokenEnv       string
	insecureNoAuth bool
	allowOrigin    listFlag
	maxBody        sizeFlag
	maxSessions    int
	readTimeout    time.Duration
	idleTimeout    time.Duration
	sessionIdle    time.Duration
}

// httpFlagNames are the flags that mean nothing without --listen.
var httpFlagNames = []string{"token-env", "insecure-no-auth", "allow-origin", "max-body", "max-sessions", "read-timeout", "idle-timeout", "session-idle"}

func (f *serveHTTPFlags) register(fs *flag.FlagSet) {
	f.maxBody = gateway.DefaultMaxBody
	fs.StringVar(&f.tokenEnv, "token-env", "", "with --listen: clients must send Authorization: Bearer TOKEN, TOKEN being the value of the environment variable `VAR` (needed off loopback)")
	fs.BoolVar(&f.insecureNoAuth, "insecure-no-auth", false, "with --listen on a non-loopback address: serve without a token (anyone who can reach it can call the tools)")
	fs.Var(&f.allowOrigin, "allow-origin", "with --listen: also accept browser requests from this `ORIGIN` (scheme://host[:port]; repeatable)")
	fs.Var(&f.maxBody, "max-body", "with --listen: refuse request bodies over `SIZE` (bytes, or with K, M, G: powers of 1024)")
	fs.IntVar(&f.maxSessions, "max-sessions", gateway.DefaultMaxSessions, "with --listen: refuse new sessions beyond `N` open at once")
	fs.DurationVar(&f.readTimeout, "read-timeout", gateway.DefaultBodyTimeout, "with --listen: drop a connection that takes longer than `DURATION` to send a request's body (headers: at most 10s)")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", gateway.DefaultIdleTimeout, "with --listen: close a kept-alive connection idle for `DURATION`")
	fs.DurationVar(&f.sessionIdle, "session-idle", gateway.DefaultSessionIdle, "with --listen: end a session unused for `DURATION` (0: never)")
}

// listenPlan is where and how serve listens.
type listenPlan struct {
	addr     string // for net.Listen
	loopback bool   // addr names a loopback host
	opts     gateway.HTTPOptions
	warning  string // for stderr before serving, "" if none
}

// planListen checks the --listen flags. A bare port (8080 or :8080) binds
// 127.0.0.1: listening on every interface must be asked for by name
// (0.0.0.0:8080), and off loopback a bearer token is required unless
// --insecure-no-auth says otherwise.
func (c *cli) planListen(fs *flag.FlagSet, listen string, f *serveHTTPFlags) (listenPlan, error) {
	var p listenPlan
	if listen == "" {
		var set []string
		fs.Visit(func(fl *flag.Flag) {
			for _, n := range httpFlagNames {
				if fl.Name == n {
					set = append(set, "--"+n)
				}
			}
		})
		if len(set) > 0 {
			return p, usagef("%s: only with --listen (stdio has one client, the process that started serve)", strings.Join(set, ", "))
		}
		return p, nil
	}
	host, port, err := splitListen(listen)
	if err != nil {
		return p, usagef("--listen %s: %v", quoteArg(listen), err)
	}
	p.addr = net.JoinHostPort(host, port)
	p.loopback = isLoopbackHost(host)
	if f.tokenEnv != "" && f.insecureNoAuth {
		return p, usagef("--token-env and --insecure-no-auth: choose one")
	}
	if f.tokenEnv != "" {
		tok := strings.TrimSpace(c.getenv(f.tokenEnv))
		switch {
		case tok == "":
			return p, usagef("--token-env %s: the variable is not set or empty", f.tokenEnv)
		case len(tok) < gateway.MinTokenLength:
			return p, usagef("--token-env %s: the token has %d characters; use at least %d (e.g. openssl rand -hex 32)", f.tokenEnv, len(tok), gateway.MinTokenLength)
		}
		p.opts.Token = tok
	}
	p.opts.InsecureNoAuth = f.insecureNoAuth
	if !p.loopback && p.opts.Token == "" {
		if !f.insecureNoAuth {
			return p, usagef("--listen %s is not a loopback address, so anyone who can reach it could call the tools: give --token-env VAR (clients send Authorization: Bearer TOKEN) or --insecure-no-auth", p.addr)
		}
		p.warning = fmt.Sprintf("WARNING: --insecure-no-auth: %s asks for no token; anyone who can reach it can call every tool this gateway exposes", p.addr)
	}
	for _, o := range f.allowOrigin {
		norm, err := gateway.ParseOrigin(o)
		if err != nil {
			return p, usagef("--allow-origin: %v", err)
		}
		p.opts.AllowOrigins = append(p.opts.AllowOrigins, norm)
	}
	if f.maxSessions <= 0 {
		return p, usagef("--max-sessions %d: want at least 1", f.maxSessions)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--read-timeout", f.readTimeout}, {"--idle-timeout", f.idleTimeout}} {
		if d.v <= 0 {
			return p, usagef("%s %v: want a positive duration", d.name, d.v)
		}
	}
	if f.sessionIdle < 0 {
		return p, usagef("--session-idle %v: want a positive duration, or 0 for never", f.sessionIdle)
	}
	p.opts.MaxBody = int64(f.maxBody)
	p.opts.MaxSessions = f.maxSessions
	p.opts.BodyTimeout = f.readTimeout
	p.opts.HeaderTimeout = min(f.readTimeout, gateway.DefaultHeaderTimeout)
	p.opts.IdleTimeout = f.idleTimeout
	p.opts.SessionIdle = f.sessionIdle
	if f.sessionIdle == 0 {
		p.opts.SessionIdle = -1
	}
	return p, nil
}

// splitListen reads --listen: PORT, :PORT or HOST:PORT; no host is
// 127.0.0.1.
func splitListen(s string) (host, port string, err error) {
	if _, err := strconv.Atoi(s); err == nil {
		host, port = "", s
	} else if host, port, err = net.SplitHostPort(s); err != nil {
		return "", "", fmt.Errorf("want PORT, :PORT or HOST:PORT (e.g. 127.0.0.1:8080)")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", "", fmt.Errorf("bad port %q", port)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return host, port, nil
}

// isLoopbackHost says whether host surely means this machine only:
// localhost or a loopback address. Any other name may resolve anywhere.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// httpSummary is the note that says who may connect.
func (p listenPlan) httpSummary() string {
	who := "loopback only"
	if !p.loopback {
		who = "every peer that can reach it"
	}
	auth := "no token"
	if p.opts.Token != "" {
		auth = "bearer token required"
	}
	return fmt.Sprintf("access: %s, %s; bodies up to %s, at most %d sessions", who, auth, sizeFlag(p.opts.MaxBody), p.opts.MaxSessions)
}

// sizeFlag is a byte count written as bytes or with a K, M or G suffix
// (powers of 1024; KB, KiB and the like are read the same).
type sizeFlag int64

func (s sizeFlag) String() string {
	n := int64(s)
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"G", 30}, {"M", 20}, {"K", 10}} {
		if n > 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (s *sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

// parseSize reads a positive byte count: digits, then optionally K, M or G
// (powers of 1024), optionally followed by B or iB, in any case.
func parseSize(v string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	digits, unit := s[:i], s[i:]
	if digits == "" {
		return 0, fmt.Errorf("size %q: want a number of bytes, e.g. 4M or 1048576", v)
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: too large", v)
	}
	shift := uint(0)
	switch strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I") {
	case "":
		if unit != "" && unit != "B" {
			return 0, fmt.Errorf("size %q: unknown unit %q (want K, M or G)", v, unit)
		}
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (want K, M or G)", v, unit)
	}
	if n <= 0 {
		return 0, fmt.Errorf("size %q: want more than 0 bytes", v)
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("size %q: too large", v)
	}
	return n << shift, nil
}
