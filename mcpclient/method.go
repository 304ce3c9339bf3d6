package mcpclient

// The MCP methods and notifications the session sends or handles, named
// once: a typo in a method name is a compile error, not a request the
// server refuses with method-not-found.
const (
	methodInitialize            = "initialize"
	methodDiscover              = "server/discover"
	methodPing                  = "ping"
	methodToolsList             = "tools/list"
	methodToolsCall             = "tools/call"
	methodPromptsList           = "prompts/list"
	methodPromptsGet            = "prompts/get"
	methodResourcesList         = "resources/list"
	methodResourceTemplatesList = "resources/templates/list"
	methodResourcesRead         = "resources/read"
	methodResourcesSubscribe    = "resources/subscribe"
	methodResourcesUnsubscribe  = "resources/unsubscribe"
	methodComplete              = "completion/complete"
	methodSetLevel              = "logging/setLevel"

	// The server's requests to the client.
	methodSampling    = "sampling/createMessage"
	methodElicitation = "elicitation/create"
	methodRootsList   = "roots/list"

	// Notifications, both ways.
	noteInitialized         = "notifications/initialized"
	noteCancelled           = "notifications/cancelled"
	noteProgress            = "notifications/progress"
	noteMessage             = "notifications/message"
	noteToolsChanged        = "notifications/tools/list_changed"
	notePromptsChanged      = "notifications/prompts/list_changed"
	noteResourcesChanged    = "notifications/resources/list_changed"
	noteResourceUpdated     = "notifications/resources/updated"
	noteRootsChanged        = "notifications/roots/list_changed"
	noteSubscriptionsAcked  = "notifications/subscriptions/acknowledged"
	noteTaskStatus          = "notifications/tasks/status"
	noteElicitationComplete = "notifications/elicitation/complete"
)
