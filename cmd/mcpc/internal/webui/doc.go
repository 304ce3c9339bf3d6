// Package webui is mcpc web: a local page over a toolreg.Registry — its
// servers, tools with a search and a form built from each input schema
// (checked before the call), resources and templates, prompts, skills,
// each call's progress (with Cancel), result and the JSON-RPC frames it
// took — that hosts MCP Apps (SEP-1865) the way the extension says web
// hosts do.
//
// # What servers say and ask
//
// An Inbox, hooked into each server's session options (Inbox.Hook),
// holds what a server says on its own — log messages, list changes, the
// lines a stdio server writes to stderr — and what it asks of the person:
// sampling requests, elicitation forms and pages to open (URL mode). The
// page polls it, shows the requests in their own region and posts the
// person's answers; a request waits until it is answered or the server
// withdraws it, and at most 32 wait at once.
//
// # Logins
//
// A server that answered 401 and needs the person to authorize mcpc
// (toolreg.StateNeedsAuth) shows so, with a "Log in" button when the host
// gives an Auth: the host runs its own OAuth flow and hands the page the
// authorization URL, which the page shows as a link that only the
// person's click opens (https, or http on loopback, checked by safeurl
// first); the redirect goes to the host's listener, not to the page, and
// the page lists the server anew once the flow ends. The page never
// holds a token.
//
// A server the host holds tokens of (Auth.LoggedIn) shows "Log out":
// the host revokes and forgets them (Auth.Logout), and the page
// reconnects the server, so the session that held a token ends and the
// server needs a login again. A call a server refused for want of scope
// (Auth.StepUpScope) offers "Log in again for more access", the host's
// flow for the wider scope; the person then calls again, the page never
// on its own.
//
// # Two origins
//
// Start listens on two loopback ports. The page and its JSON API live on
// the first, under /t/<token>/; an app runs on the second, the sandbox
// origin, under /s/<another token>/: a proxy page framed by the host page
// alone, served with the Content-Security-Policy built from the app's
// _meta.ui.csp (apps.CSP.Policy), which loads the app's HTML into
// an inner frame sandboxed without allow-same-origin and passes the app's
// JSON-RPC to the page by postMessage. The page answers ui/initialize,
// holds its notifications until the app says it is initialized, sends the
// tool's input and result, proxies tools/call (only the app's own
// server's tools visible to apps) and resources/read to the app's server,
// and asks the person before a call they did not start or a link opens.
//
// # Safety
//
// Every request needs the token in its path and a Host header that is
// the address the server listens on (a DNS-rebinding page sends its own
// name); a request that changes anything also needs the page's Origin and
// a JSON body. The page's own policy allows its script and style only and
// frames only from the sandbox origin. Whatever a server or an app sends
// reaches the page as JSON and is shown with textContent, never as HTML.
// The package uses net/http, embed and html/template and nothing else:
// the library and stdio-only programs never link it.
package webui
