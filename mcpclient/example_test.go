package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// startDemo runs the bundled demo server in memory and connects to it. A
// real program would use transport.StartStdio instead of a Pipe.
func startDemo(opts *mcpclient.Options) (*mcpclient.Session, func()) {
	clientEnd, serverEnd := transport.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		demoserver.New(nil).Serve(ctx, serverEnd)
		close(served)
	}()
	s, err := mcpclient.Connect(context.Background(), clientEnd, opts)
	if err != nil {
		log.Fatal(err)
	}
	return s, func() { s.Close(); stop(); <-served }
}

// Connect, list the tools and call one.
func Example() {
	s, done := startDemo(nil)
	defer done()
	ctx := context.Background()

	fmt.Println("connected to", s.ServerInfo().Name, "speaking", s.ProtocolVersion())

	tools, err := mcpclient.Collect(s.Tools(ctx))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first tools:", tools[0].Name, tools[1].Name, tools[2].Name)

	res, err := s.CallTool(ctx, "echo", map[string]any{"text": "hello, MCP"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// connected to plainmcp-demo speaking 2025-11-25
	// first tools: echo add slow
	// hello, MCP
}

// A tool can return structured content beside its text; a tool that fails
// returns a result with IsError, not a Go error.
func ExampleSession_CallTool() {
	s, done := startDemo(nil)
	defer done()
	ctx := context.Background()

	res, _ := s.CallTool(ctx, "add", map[string]float64{"a": 2, "b": 40})
	fmt.Println(res.Text(), string(res.StructuredContent))

	res, err := s.CallTool(ctx, "fail", nil)
	fmt.Println(err, res.IsError)

	_, err = s.CallTool(ctx, "no-such-tool", nil)
	fmt.Println(errors.Is(err, jsonrpc.ErrInvalidParams))
	// Output:
	// 42 {"sum":42}
	// <nil> true
	// true
}

// The server asks the host's model for a completion; the handler answers.
// Setting the handler is what declares the sampling capability.
func ExampleOptions_sampling() {
	s, done := startDemo(&mcpclient.Options{
		Sampling: func(ctx context.Context, req *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
			question := req.Messages[len(req.Messages)-1].Content[0].Text
			return &mcpclient.CreateMessageResult{
				Role:    "assistant",
				Model:   "stand-in",
				Content: mcpclient.ContentList{{Type: "text", Text: strings.ToUpper(question)}},
			}, nil
		},
	})
	defer done()

	res, err := s.CallTool(context.Background(), "sample", map[string]string{"prompt": "are you there?"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// model said: ARE YOU THERE?
}

// WithProgress asks the server for progress updates and receives them on
// the calling goroutine, all of them before the call returns.
func ExampleWithProgress() {
	s, done := startDemo(nil)
	defer done()

	ctx := mcpclient.WithProgress(context.Background(), func(p mcpclient.Progress) {
		fmt.Printf("%v/%v %s\n", p.Progress, p.Total, p.Message)
	})
	res, err := s.CallTool(ctx, "slow", map[string]int{"steps": 3, "delayMs": 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// 1/3 step 1 of 3
	// 2/3 step 2 of 3
	// 3/3 step 3 of 3
	// done after 3 steps
}

// Each list is an iterator over all its pages, each fetched as the loop
// reaches it; Collect gathers one into a slice.
func ExampleSession_Tools() {
	s, done := startDemo(nil)
	defer done()
	ctx := context.Background()

	tools, _ := mcpclient.Collect(s.Tools(ctx)) // every page
	fmt.Println("all:", len(tools), "tools")

	n := 0
	for tool, err := range s.Tools(ctx) { // every page, fetched as needed
		if err != nil {
			log.Fatal(err)
		}
		if tool.Name == "fail" {
			fmt.Println("found", tool.Name, "after", n, "others")
			break
		}
		n++
	}
	// Output:
	// all: 13 tools
	// found fail after 7 others
}

// Resources are read by URI; templates describe families of them.
func ExampleSession_ReadResource() {
	s, done := startDemo(nil)
	defer done()
	ctx := context.Background()

	templates, _ := mcpclient.Collect(s.ResourceTemplates(ctx))
	fmt.Println(templates[0].URITemplate)

	res, err := s.ReadResource(ctx, "demo://greetings/Ada")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Contents[0].MimeType, res.Contents[0].Text)

	_, err = s.ReadResource(ctx, "demo://nothing/here")
	fmt.Println(errors.Is(err, &jsonrpc.Error{Code: mcpclient.CodeResourceNotFound}))
	// Output:
	// demo://greetings/{name}
	// text/plain Hello, Ada!
	// true
}
