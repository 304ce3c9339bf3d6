package mcpclient_test

import (
	"context"
	"fmt"
	"log"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A tool that runs as a task is still one call: with Options.Tasks,
// CallTool polls the task to its result, and WithTaskStatus shows each
// state it passes through.
func ExampleWithTaskStatus() {
	s, done := startDemo(&mcpclient.Options{Tasks: &mcpclient.TaskOptions{}})
	defer done()
	ctx := mcpclient.WithTaskStatus(context.Background(), func(t mcpclient.Task) {
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
func ExampleSession_StartTool() {
	s, done := startDemo(&mcpclient.Options{Tasks: &mcpclient.TaskOptions{}})
	defer done()
	ctx := context.Background()
	task, _, err := s.StartTool(ctx, "research", map[string]any{"topic": "tasks", "steps": 2, "delayMs": 0})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("started", task.ID)
	res, err := s.AwaitTask(ctx, task.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text())
	// Output:
	// started task-1
	// report on tasks (broad reading) after 2 steps
}
