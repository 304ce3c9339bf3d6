package demoserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// DefaultPageSize is the number of items in one page of a list when
// Options.PageSize is zero.
const DefaultPageSize = 50

// DefaultName is the serverInfo name the server reports when Options.Name
// is empty.
const DefaultName = "plainmcp-demo"

// Version is the serverInfo version the server reports.
const Version = "0.1.0"

// DefaultLinger is how long Serve goes on answering requests in flight
// after the client ended its side of the stream, when Options.Linger is
// zero.
const DefaultLinger = 2 * time.Second

// Options configures a Server. A nil *Options is valid and means defaults.
type Options struct {
	// Name is the serverInfo name reported by initialize. Empty means
	// DefaultName. Tests that run several servers side by side set it.
	Name string

	// Instructions is sent in the initialize result. Empty omits it.
	Instructions string

	// PageSize is the number of items per page of tools/list,
	// prompts/list, resources/list and resources/templates/list. Zero or
	// less means DefaultPageSize.
	PageSize int

	// ExtraTools adds this many generated tools, named tool-0001,
	// tool-0002, …, after the demo tools, for pagination tests and
	// benchmarks over long tool lists.
	ExtraTools int

	// Skills replaces the skills the server serves (DemoSkills) when not
	// nil; an empty list serves none.
	Skills []Skill

	// Linger bounds how long Serve goes on answering the requests in
	// flight after the client ended its side of the stream (io.EOF from
	// Read), as a stdio client does when it closes the server's stdin right
	// after its last request. Zero means DefaultLinger; a negative value
	// means not at all.
	Linger time.Duration

	// Stateless makes the server speak the stateless era (2026-07-28) as
	// well: it answers server/discover, and a request carrying the
	// era's _meta (io.modelcontextprotocol/protocolVersion) needs no
	// initialize. Off, server/discover is an unknown method and clients
	// fall back to the handshake.
	Stateless bool

	// VisitPage, if set, serves the pages of the visit tool, which is
	// listed (after the others) only then: it returns the URL of a page
	// for the elicitation id that calls visited when it is loaded. Package
	// demoserver/pages serves them on loopback.
	VisitPage func(id string, visited func()) (string, error)

	// Tick, if positive, runs a clock in every session: each tick the
	// resource demo://data/counter (listed only then) counts up and the
	// dynamic tool comes or goes, and the client is told as its era says
	// (see the package doc's Watching).
	Tick time.Duration

	// Logger receives what the server and its connections report: dropped
	// frames, handler panics, and at debug level each request and tool
	// call. Nil is silent.
	Logger *slog.Logger
}

// Server is a small MCP server of the handshake era (protocol versions
// 2024-11-05 to 2025-11-25) that offers demo tools, prompts, resources and
// skills.
// It exists to demonstrate and test MCP clients; see the package
// documentation for what it offers.
//
// A Server is immutable after New. Serve may be called any number of times,
// concurrently, each call serving one client with its own session state.
type Server struct {
	name         string
	instructions string
	pageSize     int
	linger       time.Duration
	stateless    bool
	log          *slog.Logger

	tools     []*tool          // the demo tools, then the generated ones
	toolIndex map[string]*tool // every tool in tools, by name
	skills    *skillSet
	visitPage func(id string, visited func()) (string, error) // Options.VisitPage
	tick      time.Duration                                   // Options.Tick
}

// New returns a Server configured by opts. A nil opts means defaults.
func New(opts *Options) *Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	s := &Server{
		name:         o.Name,
		instructions: o.Instructions,
		pageSize:     o.PageSize,
		linger:       o.Linger,
		stateless:    o.Stateless,
		tick:         o.Tick,
		log:          o.Logger,
	}
	if s.name == "" {
		s.name = DefaultName
	}
	if s.pageSize <= 0 {
		s.pageSize = DefaultPageSize
	}
	if s.linger == 0 {
		s.linger = DefaultLinger
	}
	if s.log == nil {
		s.log = slog.New(discardHandler{})
	}
	if o.Skills == nil {
		o.Skills = DemoSkills()
	}
	s.skills = newSkillSet(o.Skills)
	s.tools = append(demoTools(), generatedTools(o.ExtraTools)...)
	if o.VisitPage != nil {
		s.visitPage = o.VisitPage
		s.tools = append(s.tools, visitTool)
	}
	s.toolIndex = make(map[string]*tool, len(s.tools))
	for _, t := range s.tools {
		s.toolIndex[t.def.Name] = t
	}
	return s
}

// Serve serves one client over stream until the stream ends or ctx ends,
// then closes the connection (and so the stream) and waits for the
// requests it was handling to return. When the client ends the stream
// cleanly (io.EOF), the requests already read are answered first, for at
// most Options.Linger. Serve returns nil when the client ended the stream,
// ctx.Err() when ctx ended first, and the read error otherwise.
//
// Serve may be called concurrently on the same Server with different
// streams; sessions share nothing but the Server's configuration.
func (s *Server) Serve(ctx context.Context, stream jsonrpc.Stream) error {
	ss := newSession(s)
	rs := newSessionStream(stream, ss, s.linger)
	ss.stream = rs
	ss.conn = jsonrpc.NewConn(rs, &jsonrpc.Options{
		Handler:        ss.handle,
		OnNotification: ss.notify,
		OnAbandon:      ss.abandon,
		Logger:         s.log,
	})
	// Let the read loop go only now, so no handler can see ss.conn unset.
	close(rs.start)
	if s.tick > 0 && ss.enter() {
		go ss.tick(s.tick)
	}

	select {
	case <-ss.conn.Done():
	case <-ctx.Done():
	}
	ss.conn.Close() // waits for the read loop, so rs.err is settled
	ss.stop()

	switch {
	case errors.Is(rs.err, io.EOF):
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(rs.err, jsonrpc.ErrClosed):
		return nil
	default:
		return fmt.Errorf("demoserver: reading from client: %w", rs.err)
	}
}

// session is the state of one client connection.
type session struct {
	srv    *Server
	conn   *jsonrpc.Conn  // set before any handler runs, then never changed
	stream *sessionStream // conn's stream; set with conn

	// initRead is set when an initialize request has been read; initDone
	// is closed when the first one has been handled.
	initRead atomic.Bool
	initDone chan struct{}
	initOnce sync.Once

	// handlers counts the requests being handled, so Serve returns only
	// after they have; mu guards adding to it once stopped is set.
	handlers sync.WaitGroup

	mu            sync.Mutex
	stopped       bool
	initialized   bool            // initialize has been answered
	version       string          // the negotiated protocol version
	client        clientCaps      // the capabilities the client declared
	level         int             // index into logLevels: notifications below it are dropped
	subscriptions map[string]bool // resource URIs the client subscribed to
	dynamicTool   bool            // whether the change tool has added the "dynamic" tool

	counter int // the clock's ticks (Options.Tick)

	tasks     taskStore // the tasks this session made
	visits    visits    // the pages of the visit tool
	listeners listeners // the open subscriptions/listen requests
}

func newSession(s *Server) *session {
	return &session{
		srv:           s,
		initDone:      make(chan struct{}),
		level:         defaultLogLevel,
		subscriptions: make(map[string]bool),
	}
}

// enter records that a request is being handled, or reports false once the
// session has stopped.
func (ss *session) enter() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stopped {
		return false
	}
	ss.handlers.Add(1)
	return true
}

// stop waits for the requests being handled. Their contexts have ended by
// now: the connection is closed.
func (ss *session) stop() {
	ss.mu.Lock()
	ss.stopped = true
	ss.mu.Unlock()
	ss.tasks.cancelAll() // their work counts as handlers
	ss.handlers.Wait()
}

// discardHandler is a slog.Handler that drops everything (slog.DiscardHandler
// needs Go 1.24).
type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (d discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discardHandler) WithGroup(string) slog.Handler           { return d }
