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
//	model := &bridge.OpenAI{APIKey: secret.New(os.Getenv("OPENAI_API_KEY")), Model: "gpt-4o-mini"}
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
//     A request without maxTokens (0 or less) gets a limit of 1,024
//     tokens from either adapter, never none.
//   - tool_use items are the provider's tool calls, tool_result items its
//     tool messages; tools are passed with their input schema made fit to
//     send (without the top-level keys providers reject: "$schema", "$id",
//     "$comment", "oneOf", "anyOf" and "allOf"; always an object with
//     properties; the registry keeps the server's bytes) and a
//     description even when the server gave none (its title, else its
//     name and server), and toolChoice auto, required and none map to the
//     provider's form.
//   - Images go where the provider takes them. Audio, binary resources and
//     anything else the provider cannot take become a short text
//     placeholder, so the model knows something was there.
//   - The provider's finish reason becomes the stopReason: endTurn,
//     maxTokens, stopSequence or toolUse.
//
// # Tools and the agent loop
//
// [Run] lets a model use the tools of a [toolreg.Registry]: it asks the
// question with the registry's tools (named mcp__server__tool), runs the
// tools the model calls, hands the results back, and stops when the model
// answers without a tool call or at the turn limit. The transcript it
// returns goes back in as [RunOptions].History to continue the
// conversation; [RunOptions].Tools and ToolFilter offer a subset:
//
//	tr, err := bridge.Run(ctx, model, reg, "What changed in the repo today?",
//		&bridge.RunOptions{Approve: askTheUser})
//	fmt.Println(tr.Answer)
//	tr, err = bridge.Run(ctx, model, reg, "And yesterday?",
//		&bridge.RunOptions{Approve: askTheUser, History: tr.Messages})
//
// # Tool search
//
// A host with many servers has more tool definitions than a model should
// read every turn (1,400 real ones take 1.6 MB, about 400k tokens).
// In search mode ([RunOptions].ToolSearch "on", or "auto", the default,
// once the definitions pass 10 % of the model's context window) the
// model gets one host tool, search_tools, which ranks the offered tools
// with the registry's [toolreg.Registry.SearchTools]; the definitions of
// the tools it finds, and of any tool it calls by name, are offered from
// its next request on, appended, so that the tools array only grows at
// its end and a provider's prompt cache keeps working. AlwaysLoaded
// tools are offered from the start. Consent and every bound apply to a
// found tool as to any other. [Transcript].Tools and Deferred say what the
// last turn offered and held back.
//
// # The model is not trusted
//
// A model reads what tools return — a web page, a file, an issue comment —
// and any of it may be written to steer the model. Run therefore treats
// the model's tool calls as requests, not commands:
//
//   - Consent: every call goes to [RunOptions].Approve — the same
//     function a host gives its registry as toolreg.Options.Approve will
//     do — and without one it is refused. Annotations are the server's
//     hints, and the server is not trusted either: only for a server the
//     host trusts ([RunOptions].TrustAnnotations) does a tool it marks
//     read-only (readOnlyHint, and not destructiveHint) run without
//     asking.
//   - Fan-out: at most MaxCallsPerTurn calls of one turn run, at most
//     MaxConcurrentCalls at once, on as many goroutines; Approve is asked
//     one call at a time.
//   - Size: every result is rewritten into text and images the providers
//     take, and the bytes of that are capped ([RunOptions].MaxResultBytes),
//     whatever the shape the server gave it.
//   - A call that is refused, over the bound or to a tool not offered goes
//     back to the model as a failed result that says why.
//   - What a server needs of a person before a call can succeed (pages to
//     visit, -32042; more scope) is the host's to ask, never the model's:
//     a failed call goes to [RunOptions].Retry, if set, before the model
//     hears of it, and is made once more if the host says so.
//
// The adapters keep what they send with the provider: a redirect to
// another origin is an error ([ErrRedirected]), never followed with the
// key or the conversation, and a key never goes over plain http except to
// loopback.
//
// # Streaming
//
// Under a context from [WithStream], the adapters ask for a streamed
// answer (server-sent events) and hand its text over piece by piece as it
// arrives; the answer they return is the same as without streaming, put
// together in time linear in its length and within the body's limit.
// Streamed or not, an answer is held in memory in proportion to its
// bytes: at most 128 tool calls (Chat Completions) or 256 content blocks
// (Messages API) of it are taken, and more is a malformed answer.
// [RunOptions].OnText does this for every turn of [Run] (NoStream asks
// for whole answers instead).
//
// # Errors
//
// A sampling request must end in an answer or a JSON-RPC error, never in a
// dead session. Every provider failure comes back as a *[jsonrpc.Error]
// whose Data names the provider and the HTTP status: a refused key, a rate
// limit, a 5xx, a timeout, a body that does not parse. 429s, 5xx and
// network errors are retried a bounded number of times, waiting as long as
// Retry-After says if that fits [HTTPOptions].MaxRetryWait and the
// context. A provider's own message, or the start of its error body, is
// quoted (it is often the only clue), bounded, stripped of control
// characters and with the key cut out; a refused key's message is not
// quoted at all.
//
// [OpenAI].TokenLimitField chooses the request field of the token limit:
// max_completion_tokens by default, as OpenAI reads it, or max_tokens,
// which many OpenAI-compatible servers read instead.
package bridge
