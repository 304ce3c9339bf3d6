package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The tools in this file send notifications to the client while they run.

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      int             `json:"progress"`
	Total         int             `json:"total"`
	Message       string          `json:"message"`
}

// slowTool sleeps delayMs, steps times, and reports progress after each
// step if the request carried a progress token. When ctx ends (the client
// cancelled, or the connection is closing) it stops and returns ctx's
// error; the connection then sends no response.
func slowTool(ctx context.Context, c *call) (*toolResult, error) {
	a := struct {
		Steps   *int `json:"steps"`
		DelayMs *int `json:"delayMs"`
	}{}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	steps, delay := 5, 100
	if a.Steps != nil {
		steps = *a.Steps
	}
	if a.DelayMs != nil {
		delay = *a.DelayMs
	}
	switch {
	case steps < 0 || steps > 10000:
		return nil, invalidParams("tool %q: argument %q must be between 0 and 10000", c.name, "steps")
	case delay < 0 || delay > 60000:
		return nil, invalidParams("tool %q: argument %q must be between 0 and 60000", c.name, "delayMs")
	}

	timer := time.NewTimer(time.Duration(delay) * time.Millisecond)
	defer timer.Stop()
	for i := 1; i <= steps; i++ {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
		}
		if declared(c.progressToken) {
			c.ss.notifyClient(ctx, "notifications/progress", progressParams{
				ProgressToken: c.progressToken,
				Progress:      i,
				Total:         steps,
				Message:       fmt.Sprintf("step %d of %d", i, steps),
			})
		}
		timer.Reset(time.Duration(delay) * time.Millisecond)
	}
	return textResult("done after %d steps", steps), nil
}

func logTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		Level   string  `json:"level"`
		Message *string `json:"message"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if a.Message == nil {
		return nil, c.missing("message")
	}
	if a.Level == "" {
		a.Level = "info"
	}
	i := levelIndex(a.Level)
	if i < 0 {
		return nil, invalidParams("tool %q: argument %q must be a logging level, not %q", c.name, "level", a.Level)
	}
	c.ss.mu.Lock()
	threshold := c.ss.level
	c.ss.mu.Unlock()
	if i < threshold {
		return textResult("not sent: %s is below the session's level, %s", a.Level, logLevels[threshold]), nil
	}
	c.ss.notifyClient(ctx, "notifications/message", map[string]string{
		"level":  a.Level,
		"logger": "demo",
		"data":   *a.Message,
	})
	return textResult("sent"), nil
}

func changeTool(ctx context.Context, c *call) (*toolResult, error) {
	c.ss.mu.Lock()
	c.ss.dynamicTool = !c.ss.dynamicTool
	added := c.ss.dynamicTool
	c.ss.mu.Unlock()
	c.ss.notifyClient(ctx, "notifications/tools/list_changed", nil)
	if added {
		return textResult("added tool %q", dynamicTool.def.Name), nil
	}
	return textResult("removed tool %q", dynamicTool.def.Name), nil
}

func touchTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		URI *string `json:"uri"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if a.URI == nil {
		return nil, c.missing("uri")
	}
	c.ss.mu.Lock()
	subscribed := c.ss.subscriptions[*a.URI]
	c.ss.mu.Unlock()
	if !subscribed {
		return textResult("not subscribed to %s", *a.URI), nil
	}
	c.ss.notifyClient(ctx, "notifications/resources/updated", map[string]string{"uri": *a.URI})
	return textResult("notified the subscriber of %s", *a.URI), nil
}
