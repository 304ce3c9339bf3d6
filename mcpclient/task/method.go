package task

// The methods of tasks, both generations, named once.
const (
	methodToolsCall   = "tools/call"
	methodTasksGet    = "tasks/get"
	methodTasksResult = "tasks/result"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
	methodTasksList   = "tasks/list"
	noteTaskStatus    = "notifications/tasks/status"
)
