// Package apps is the host's side of MCP Apps (SEP-1865, the
// io.modelcontextprotocol/ui extension): a tool may come with an
// interactive HTML interface.
//
// The protocol, in three steps:
//
//  1. The client declares the extension in its capabilities
//     ([mcpclient.Options].UI, which sends io.modelcontextprotocol/ui with
//     the one MIME type the extension defines, text/html;profile=mcp-app).
//  2. A tool names its interface in _meta.ui.resourceUri, a ui://
//     resource, and says in _meta.ui.visibility whether the model, the
//     app, or both may call it. [ToolUIOf] decodes this; a tool whose
//     [ToolUI.ModelVisible] is false must never be offered to a model,
//     and one whose [ToolUI.AppVisible] is false must not be called for
//     an app.
//  3. The host reads the interface with resources/read ([Read]), which
//     refuses anything that is not ui:// HTML of that MIME type or is
//     larger than 16 MiB, and renders it in a sandboxed frame on an
//     origin of its own, under the Content-Security-Policy its _meta.ui
//     asks for ([CSP.Policy]) — never a source the server did not
//     declare, and never one that is not a plain https origin.
//
// Everything here comes from the server and is untrusted: decoding never
// fails loudly (metadata it cannot read counts as absent), but it fails
// closed where it matters — a visibility it cannot read hides the tool
// from everyone, and a CSP source it cannot vouch for is left out.
//
// The package is apart from mcpclient so that a program that renders no
// interface links none of this, and a learner reading one call need not
// read it.
package apps
