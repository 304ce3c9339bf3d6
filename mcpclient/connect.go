package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// Connect starts a session over stream and returns it once the server's era
// and version are known: it probes with server/discover and, unless the
// answer is a modern one, runs the handshake (initialize, then
// notifications/initialized) instead. Options.Era or Options.ProtocolVersion
// skip the probe. ctx bounds all of this; the Session then lives until
// Close, whatever happens to ctx. The Session owns the stream; if Connect
// fails, the stream is closed.
func Connect(ctx context.Context, stream jsonrpc.Stream, opts *Options) (*Session, error) {
	s := &Session{connReady: make(chan struct{}), noticeSlots: make(chan struct{}, maxNoticesInFlight)}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Tasks != nil {
		s.tasks = s.opts.Tasks.Attach(s)
	}
	if s.tasks == nil {
		// A runner that attached nothing (a nil *task.Options) is no
		// runner: the session declares no tasks, as without one.
		s.opts.Tasks = nil
	}
	s.log = logging.OrDiscard(s.opts.Logger)
	if s.opts.ClientInfo.Name == "" {
		s.opts.ClientInfo = Implementation{Name: "plainmcp", Version: moduleVersion}
	}
	era, err := s.opts.plannedEra()
	if err != nil {
		stream.Close()
		return nil, err
	}
	s.stream = stream // the transport itself: SetProtocol goes to it
	_, s.shapesRequests = stream.(transport.ProtocolSetter)
	if s.opts.WrapStream != nil {
		stream = s.opts.WrapStream(stream)
	}
	s.conn = jsonrpc.NewConn(stream, &jsonrpc.Options{
		Handler:        s.handleRequest,
		OnNotification: s.handleNotification,
		Intercept:      s.intercept,
		OnAbandon:      s.abandoned,
		Logger:         s.opts.Logger,
		// Sampling, elicitation and roots: a server has little reason to
		// ask many at once, and a flood must not cost a goroutine each.
		MaxPeerRequests: maxServerRequests,
	})
	close(s.connReady)
	if err := s.open(ctx, era); err != nil {
		s.conn.Close()
		return nil, err
	}
	return s, nil
}

// plannedEra checks the pins: which era to speak, or 0 to detect it.
func (o *Options) plannedEra() (Era, error) {
	v := o.ProtocolVersion
	switch {
	case v != "" && !slices.Contains(supportedVersions, v):
		return 0, fmt.Errorf("%w: cannot pin %q; plainmcp speaks %s", ErrUnsupportedVersion, v, strings.Join(supportedVersions, ", "))
	case v != "" && o.Era != 0 && eraOf(v) != o.Era:
		return 0, fmt.Errorf("mcpclient: version %s is not of the %s era", v, o.Era)
	case v != "":
		return eraOf(v), nil
	}
	return o.Era, nil
}

// open settles the era: the pinned one, or what the server answers to
// server/discover. Anything that is not a modern answer — an error that is
// not one of the modern protocol errors, a result without supported
// versions, silence past DiscoverTimeout — means a handshake-era server.
//
// The wire is chosen here, before any request goes out, and stays.
func (s *Session) open(ctx context.Context, era Era) error {
	if era == EraHandshake {
		s.wire = handshakeWire{s}
		return s.initialize(ctx, s.handshakeVersion())
	}
	version := s.opts.ProtocolVersion
	if version == "" {
		version = LatestVersion
	}
	s.wire = statelessWire{s}
	err := s.discover(ctx, version)
	if err == nil || era == EraStateless || !errors.Is(err, errNotModern) {
		return err
	}
	s.log.Debug("mcpclient: not a modern server; falling back to initialize", "reason", err)
	s.setProtocol(transport.Protocol{}) // back to the handshake-era wire
	s.wire = handshakeWire{s}
	return s.initialize(ctx, s.handshakeVersion())
}

func (s *Session) handshakeVersion() string {
	if v := s.opts.ProtocolVersion; v != "" {
		return v
	}
	return latestHandshakeVersion
}

// errNotModern is wrapped when server/discover got an answer a modern
// server would not give.
var errNotModern = errors.New("not a modern MCP server")

type discoverResult struct {
	SupportedVersions []string            `json:"supportedVersions"`
	Capabilities      *ServerCapabilities `json:"capabilities"`
	ServerInfo        *Implementation     `json:"serverInfo"`
	Instructions      string              `json:"instructions"`
	Meta              struct {
		ServerInfo *Implementation `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// discover asks a server what it speaks (server/discover, 2026-07-28) and,
// if it is a modern server, opens a stateless session.
func (s *Session) discover(ctx context.Context, version string) error {
	s.setStateless(version)
	dctx, cancel := context.WithTimeout(ctx, s.opts.discoverTimeout())
	defer cancel()
	var raw json.RawMessage
	err := s.call(dctx, methodDiscover, nil, &raw)
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
	case errtype.As(err, &rpcErr) && isModernError(rpcErr.Code):
		return fmt.Errorf("mcpclient: server/discover: %w", err)
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		s.discoverUnanswered.Store(true)
		return fmt.Errorf("%w: no answer to server/discover within %v", errNotModern, s.opts.discoverTimeout())
	case errtype.As(err, &rpcErr), errors.Is(err, transport.ErrRefused), errors.Is(err, ErrMalformedResult),
		errors.Is(err, rpcwire.ErrBadResponse), errors.Is(err, jsonrpc.ErrResponseLost):
		// Any answer but a modern one: a refusal, an answer that cannot
		// be used, an event stream that ended without one.
		return fmt.Errorf("%w: server/discover: %v", errNotModern, err)
	default: // the connection failed: the error already names the request
		return fmt.Errorf("mcpclient: connecting: %w", err)
	}
	var res discoverResult
	if json.Unmarshal(raw, &res) != nil || len(res.SupportedVersions) == 0 || res.Capabilities == nil {
		return fmt.Errorf("%w: server/discover answered %s", errNotModern, safe.Line(string(raw), 80))
	}
	if !slices.Contains(res.SupportedVersions, s.ProtocolVersion()) {
		v := pickVersion(res.SupportedVersions, statelessVersions)
		if v == "" {
			if slices.ContainsFunc(res.SupportedVersions, func(v string) bool { return slices.Contains(handshakeVersions, v) }) {
				return fmt.Errorf("%w: it supports only %s", errNotModern, quoteVersions(res.SupportedVersions))
			}
			return fmt.Errorf("%w: the server speaks %s; plainmcp speaks %s", ErrUnsupportedVersion, quoteVersions(res.SupportedVersions), strings.Join(supportedVersions, ", "))
		}
		s.setStateless(v)
	}
	info := res.Meta.ServerInfo
	if info == nil {
		info = res.ServerInfo
	}
	s.stateMu.Lock()
	if info != nil {
		s.serverInfo = *info
	}
	s.capabilities, s.instructions = *res.Capabilities, res.Instructions
	s.stateMu.Unlock()
	s.sessionGen.Add(1)
	s.relisten() // if a callback wants change notifications
	return nil
}

// quoteVersions is the versions a server offered, as an error quotes
// them: the first few, each on one line, escaped (a version string may
// hold terminal sequences) and cut short.
func quoteVersions(vs []string) string {
	const most = 8
	q := make([]string, 0, min(len(vs), most)+1)
	for _, v := range vs[:min(len(vs), most)] {
		q = append(q, safe.Line(v, 40))
	}
	if len(vs) > most {
		q = append(q, fmt.Sprintf("and %d more", len(vs)-most))
	}
	return "[" + strings.Join(q, " ") + "]"
}

// setStateless switches the session, and its transport, to the stateless
// wire at version.
func (s *Session) setStateless(version string) {
	s.stateMu.Lock()
	s.era, s.version = EraStateless, version
	s.stateMu.Unlock()
	s.encodeMeta()
	s.setProtocol(transport.Protocol{Version: version, Stateless: true})
}

// setProtocol tells the transport what was agreed, if it wants to know.
func (s *Session) setProtocol(p transport.Protocol) {
	if ps, ok := s.stream.(transport.ProtocolSetter); ok {
		ps.SetProtocol(p)
	}
}

// isModernError reports whether code is one only a modern server sends.
func isModernError(code jsonrpc.Code) bool {
	switch code {
	case codeUnsupportedVersion, codeHeaderMismatch, codeMissingCapability:
		return true
	}
	return false
}

// pickVersion returns the newest of ours that offered contains.
func pickVersion(offered, ours []string) string {
	for i := len(ours) - 1; i >= 0; i-- {
		if slices.Contains(offered, ours[i]) {
			return ours[i]
		}
	}
	return ""
}

type initializeParams struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ClientInfo      Implementation `json:"clientInfo"`
}

type initializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
}

// initialize runs the handshake-era lifecycle: initialize, version check,
// notifications/initialized.
func (s *Session) initialize(ctx context.Context, want string) error {
	s.stateMu.Lock()
	s.era, s.want = EraHandshake, want
	s.stateMu.Unlock()
	var res initializeResult
	params := initializeParams{ProtocolVersion: want, Capabilities: s.opts.capabilities(EraHandshake), ClientInfo: s.opts.ClientInfo}
	if err := s.call(ctx, methodInitialize, params, &res); err != nil {
		return fmt.Errorf("mcpclient: initializing: %w", err)
	}
	got := res.ProtocolVersion
	acceptable := slices.Contains(handshakeVersions, got)
	if s.opts.ProtocolVersion != "" {
		acceptable = got == want
	}
	if !acceptable {
		return fmt.Errorf("%w: asked for %s, server answered %q (plainmcp speaks %s)",
			ErrUnsupportedVersion, want, got, strings.Join(supportedVersions, ", "))
	}
	s.sessionGen.Add(1)
	s.stateMu.Lock()
	s.version = got
	s.serverInfo, s.capabilities, s.instructions = res.ServerInfo, res.Capabilities, res.Instructions
	s.stateMu.Unlock()
	// An HTTP transport sends the version on every later request and, in
	// this era, opens its stream for server-initiated messages.
	s.setProtocol(transport.Protocol{Version: got, Quiet: s.opts.quiet(res.Capabilities)})
	if err := s.conn.Notify(ctx, noteInitialized, nil); err != nil {
		return fmt.Errorf("mcpclient: initializing: %w", err)
	}
	return nil
}

// reinitialize runs the handshake again after the server ended an HTTP
// session, once however many calls noticed it at the same time: gen is the
// handshake generation the caller's failed call belonged to.
func (s *Session) reinitialize(ctx context.Context, gen int64) error {
	s.reinitMu.Lock()
	defer s.reinitMu.Unlock()
	s.stateMu.Lock()
	want := s.want
	s.stateMu.Unlock()
	if s.sessionGen.Load() != gen {
		return nil // someone else already did it
	}
	s.log.Info("mcpclient: the server ended the session; initializing a new one")
	return s.initialize(ctx, want)
}

// maxServerRequests bounds the server's requests handled at once.
const maxServerRequests = 32

// defaultDiscoverTimeout bounds the server/discover probe.
const defaultDiscoverTimeout = 5 * time.Second
