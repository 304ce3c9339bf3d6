package appserver

// App is the clock's interface: an MCP App written against the
// extension's postMessage protocol with no SDK. It initializes, shows the
// tool input and result the host sends, calls the clock again from its
// button (#again), tries an app-only tool (#tick) and a model-only one
// (#note, which the host must refuse), asks to open a link (#link),
// reports its size, answers teardown, and logs what it received in
// #log, one method a line, for a test to read. It says it is initialized
// 300 ms after the host answered ui/initialize, and shows in #early how
// many messages the host sent it before that (the extension says none).
const App = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Clock</title>
<style>body{font:14px sans-serif;margin:8px} #time{font-weight:bold}</style></head>
<body>
<p>Time: <span id="time">waiting</span></p>
<p>Input: <span id="input"></span> Theme: <span id="theme"></span></p>
<button id="again">Again</button> <button id="tick">Tick</button>
<button id="note">Note</button> <button id="link">Link</button>
<p id="calls">0</p><p id="error"></p><p id="origin"></p><p id="early"></p>
<pre id="log"></pre>
<script>
"use strict";
let next = 1, calls = 0, received = 0;
const waiting = {};
const $ = (id) => document.getElementById(id);
function log(s) { $("log").textContent += s + "\n"; }
function send(msg) { window.parent.postMessage(Object.assign({jsonrpc: "2.0"}, msg), "*"); }
function request(method, params) {
  const id = next++;
  send({id, method, params});
  return new Promise((resolve, reject) => { waiting[id] = {resolve, reject}; });
}
function notify(method, params) { send({method, params}); }
function showResult(r) {
  if (r && r.structuredContent && r.structuredContent.time) { $("time").textContent = r.structuredContent.time; }
}
window.addEventListener("message", (ev) => {
  if (ev.source !== window.parent) { return; }
  const m = ev.data;
  if (!m || m.jsonrpc !== "2.0") { return; }
  if (m.method) { log(m.method); received++; }
  if (m.id !== undefined && !m.method) {
    const w = waiting[m.id];
    delete waiting[m.id];
    if (w) { m.error ? w.reject(m.error) : w.resolve(m.result); }
    return;
  }
  switch (m.method) {
  case "ui/notifications/tool-input": $("input").textContent = JSON.stringify(m.params.arguments); break;
  case "ui/notifications/tool-result": showResult(m.params); break;
  case "ui/resource-teardown": send({id: m.id, result: {}}); break;
  case "ping": send({id: m.id, result: {}}); break;
  default: if (m.id !== undefined) { send({id: m.id, error: {code: -32601, message: "unknown method"}}); }
  }
});
function call(name) {
  return request("tools/call", {name, arguments: {}}).then((r) => {
    calls++; $("calls").textContent = String(calls); showResult(r); return r;
  }, (e) => { $("error").textContent = name + ": " + e.message; });
}
$("again").onclick = () => call("clock");
$("tick").onclick = () => call("tick");
$("note").onclick = () => call("note");
$("link").onclick = () => request("ui/open-link", {url: "https://modelcontextprotocol.io/"}).then(
  () => log("link opened"), (e) => { $("error").textContent = "link: " + e.message; });
try { $("origin").textContent = String(window.origin); } catch (e) { $("origin").textContent = "?"; }
request("ui/initialize", {appCapabilities: {}, appInfo: {name: "clock", version: "1.0"}, protocolVersion: "2026-01-26"})
  .then((r) => {
    $("theme").textContent = (r.hostContext && r.hostContext.theme) || "";
    // Wait a while before saying so: the host must send nothing of its
    // own until then (#early counts what it sent all the same).
    return new Promise((ok) => setTimeout(ok, 300));
  }).then(() => {
    $("early").textContent = String(received);
    notify("ui/notifications/initialized", {});
    notify("ui/notifications/size-changed", {width: document.body.scrollWidth, height: document.body.scrollHeight});
    notify("notifications/message", {level: "info", data: "clock ready"});
  }, (e) => { $("error").textContent = "initialize: " + e.message; });
</script>
</body></html>
`
