package task

import (
	"encoding/json"
)

// notifications/tasks/status (2025-11-25): a server may tell the requestor
// that a task's status changed, and need not. The driver of a task polls
// at the server's interval either way; when a notice comes first, it
// takes the new status at once, so a task that ended or waits for input
// is followed without waiting out the rest of the interval. A notice for
// a task nobody is driving only reaches Options.OnNotification, as every
// notification the session does not consume does.

// watchTask returns the channel on which notices for the task id arrive
// while its driver runs, and the function that stops them. The channel
// holds the latest notice only: a driver that is busy misses none but the
// ones a newer notice replaced.
func (ts *sessionTasks) watchTask(id string) (<-chan Task, func()) {
	ch := make(chan Task, 1)
	ts.mu.Lock()
	if ts.watching == nil {
		ts.watching = map[string]chan Task{}
	}
	ts.watching[id] = ch
	ts.mu.Unlock()
	return ch, func() {
		ts.mu.Lock()
		if ts.watching[id] == ch {
			delete(ts.watching, id)
		}
		ts.mu.Unlock()
	}
}

// StatusNotice hands the status in a notifications/tasks/status to the
// driver of its task, if one runs. A notice that does not parse as a task
// is dropped: polling still finds the status.
func (ts *sessionTasks) StatusNotice(params json.RawMessage) {
	var w taskWire
	if json.Unmarshal(params, &w) != nil {
		return
	}
	d, err := parseTask(noteTaskStatus, &w)
	if err != nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ch := ts.watching[d.task.ID]
	if ch == nil {
		return
	}
	select { // replace a notice not yet taken
	case <-ch:
	default:
	}
	ch <- d.task // never blocks: senders hold ts.mu, and the slot is empty
}
