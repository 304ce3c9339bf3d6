// Package bridge connects a host's model to MCP: it answers the servers'
// sampling requests (sampling/createMessage, see
// https://modelcontextprotocol.io/specification/2025-11-25/client/sampling)
// with a real model, over plain net/http, and no provider SDK.
//
// A [Model] takes an MCP sampling request and returns the model's next
// message. [OpenAI] speaks the Chat Completions API (and every server that
// copies its wire), [Anthropic] the Messages API; plug either into a
// session with [Sampling]:
//
//	model := &bridge.OpenAI{APIKey: os.Getenv("OPENAI_API_KEY"), Model: "gpt-4o-mini"}
//	opts := &mcpclient.Options{Sampling: bridge.Sampling(model), SamplingTools: true}
//	session, err := mcpclient.Connect(ctx, stream, opts)
//
// # Conversions
//
// A sampling request is an MCP conversation: user and assistant turns of
// content items. An adapter turns it into its provider's request and the
// provider's answer back into an MCP result:
//
//   - systemPrompt, maxTokens, temperature and stopSequences map to the
//     provider's fields; modelPreferences.hints choose a model from the
//     adapter's Models map (the first hint found wins), else its Model.
//   - tool_use items are the provider's tool calls, tool_result items its
//     tool messages; tools are passed with their input schema unchanged,
//     and toolChoice auto, required and none map to the provider's form.
//   - Images go where the provider takes them. Audio, binary resources and
//     anything else the provider cannot take become a short text
//     placeholder, so the model knows something was there.
//   - The provider's finish reason becomes the stopReason: endTurn,
//     maxTokens, stopSequence or toolUse.
//
// # Tools and the agent loop
//
// [Run] lets a model use every tool of a [toolreg.Registry]: it asks the
// question with the registry's tools (named mcp__server__tool, schemas
// unchanged), runs the tools the model calls (one turn's calls at once,
// each through the registry's approver and hooks), hands the results
// back, capped in size, and stops when the model answers without a tool
// call or at the turn limit:
//
//	tr, err := bridge.Run(ctx, model, reg, "What changed in the repo today?", nil)
//	fmt.Println(tr.Answer)
//
// [OpenAITools] and [AnthropicTools] give the same tool definitions in
// each provider's own form, for hosts that run their own loop; [ToolResult]
// turns a registry result into the tool_result an adapter sends.
//
// # Streaming
//
// Under a context from [WithStream], the adapters ask for a streamed
// answer (server-sent events) and hand its text over piece by piece as it
// arrives; the answer they return is the same as without streaming.
// [RunOptions].OnText does this for every turn of [Run].
//
// # Errors
//
// A sampling request must end in an answer or a JSON-RPC error, never in a
// dead session. Every provider failure comes back as a *[jsonrpc.Error]
// whose Data names the provider and the HTTP status: a refused key, a rate
// limit, a 5xx, a timeout, a body that does not parse. 429s, 5xx and
// network errors are retried a bounded number of times, waiting as long as
// Retry-After says if that fits [HTTPOptions].MaxRetryWait and the
// context. API keys never appear in errors: a refused key's message is not
// quoted, and any other provider message has the key cut out.
package bridge
