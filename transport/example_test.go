package transport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/plainmcp/plainmcp/transport"
)

// A server that prints a banner and blank lines around its frames is read
// without trouble: only frames come out, and the rest is counted.
func ExampleLineStream() {
	stdout := strings.NewReader("demo-server v0.1 listening on stdio\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n" +
		"\n" +
		"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}")
	var stdin bytes.Buffer
	s := transport.NewLineStream(stdout, &stdin, nil)
	defer s.Close()

	s.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	fmt.Printf("sent %q\n", stdin.String())
	for {
		frame, err := s.Read()
		if err == io.EOF {
			break
		}
		fmt.Printf("read %s\n", frame)
	}
	fmt.Printf("%+v\n", s.Stats())
	// Output:
	// sent "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
	// read {"jsonrpc":"2.0","id":1,"result":{}}
	// read {"jsonrpc":"2.0","method":"notifications/message"}
	// {Frames:2 Skipped:2 Oversized:0}
}

// Pipe connects a client and a server in memory; Trace shows what passes.
func ExamplePipe() {
	client, server := transport.Pipe()
	traced := transport.Trace(client, os.Stdout, "client")
	ctx := context.Background()

	traced.Write(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	request, _ := server.Read()
	fmt.Printf("server got %s\n", request)
	server.Write(ctx, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	traced.Read()

	server.Close()
	_, err := traced.Read()
	fmt.Println(err == io.EOF)
	traced.Close()
	// Output:
	// client -> {"jsonrpc":"2.0","id":1,"method":"ping"}
	// server got {"jsonrpc":"2.0","id":1,"method":"ping"}
	// client <- {"jsonrpc":"2.0","id":1,"result":{}}
	// true
}

// When a stdio server dies, the error says how and quotes its stderr.
func ExampleStartStdio() {
	s, err := transport.StartStdio(transport.StdioConfig{
		Command: "my-mcp-server",
		Args:    []string{"--stdio"},
		Env:     []string{"API_KEY=" + os.Getenv("MY_SERVER_API_KEY")},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	if err := s.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)); err != nil {
		log.Fatal(err)
	}
	frame, err := s.Read()
	var exit *transport.ExitError
	if errors.As(err, &exit) {
		log.Fatalf("server exited with status %d; its stderr ends:\n%s", exit.Code, exit.Stderr)
	}
	fmt.Printf("%s\n", frame)
}
