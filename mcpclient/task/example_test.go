package task_test

import (
	"context"
	"fmt"
	"log"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
	"github.com/plainmcp/plainmcp/transport"
)

// startDemo runs the bundled demo server in memory and connects to it,
// with tasks enabled. A real program would use transport.StartStdio
// instead of a Pipe.
func startDemo() (*mcpclient.Session, func()) {
	clientEnd, serverEnd := transport.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		demoserver.New(nil).Serve(ctx, serverEnd)
		close(served)
	}()
	s, err := mcpclient.Connect(context.Background(), clientEnd, &mcpclient.Options{Tasks: &task.Options{}})
	if err != nil {
		log.Fatal(err)
	}
	return s, func() { s.Close(); stop(); <-served }
}

// A tool that runs as a task is still one call: with Options.Tasks,
// CallTool polls the task to its result, and WithStatus shows each state
// it passes through.
func ExampleWithStatus() {
	s, done := startDemo()
	defer done()
	ctx := task.WithStatus(context.Background(), func(t task.Task) {
		fmt.Println(t.ID, t.Status, t.StatusMessage)
	})
	res, err := s.CallTool(ctx, "research", map[string]any{"topic": "pipes", "steps": 1, "delayMs": 0})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// task-1 working step 1 of 1
	// task-1 completed done
	// report on pipes (broad reading) after 1 steps
}

// A host that returns to the user while a task runs starts it, looks at
// it, and collects its result (or cancels it) later.
func ExampleStart() {
	s, done := startDemo()
	defer done()
	ctx := context.Background()
	t, _, err := task.Start(ctx, s, "research", map[string]any{"topic": "tasks", "steps": 2, "delayMs": 0})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("started", t.ID)
	res, err := task.Await(ctx, s, t.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// started task-1
	// report on tasks (broad reading) after 2 steps
}
