// host.js: the page's side of MCP Apps (SEP-1865). An app runs in the
// sandbox proxy's inner frame, on an origin that is not the page's; it
// speaks JSON-RPC with this page over postMessage through the proxy.
// Everything an app sends is untrusted: it is checked here, shown only
// as text, and reaches its own server only through the page's API, which
// lets it call only its server's tools visible to apps.
"use strict";
window.McpHost = (function () {
  const PROTOCOL = "2026-01-26";
  const apps = new Set();

  window.addEventListener("message", (ev) => {
    for (const a of apps) {
      if (a.frame.contentWindow && ev.source === a.frame.contentWindow) { a.receive(ev); return; }
    }
  });

  function rpcError(code, message) { const e = new Error(message); e.code = code; return e; }

  // mount puts the app described by ui (the page API's /ui answer) into
  // container and returns its handle. o: {sandboxOrigin, yes, tools,
  // api, consent, log, notice, theme}.
  function mount(container, ui, o) {
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.setAttribute("title", "App " + ui.uri);
    if (ui.allow) { frame.setAttribute("allow", ui.allow); }
    const box = document.createElement("div");
    box.className = "app" + (ui.prefersBorder === false ? "" : " border");
    box.appendChild(frame);
    container.appendChild(box);
    let initialized = false, nextId = 1, gone = false;
    const held = [], pending = new Map();
    const app = { frame, box, ui, modelContext: null };

    function post(msg) {
      if (!gone && frame.contentWindow) {
        frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), o.sandboxOrigin);
      }
    }
    // send holds what the page sends of its own accord until the app
    // said ui/notifications/initialized, as the extension requires.
    function send(msg) {
      o.log("host → app", msg);
      if (initialized) { post(msg); } else { held.push(msg); }
    }
    function request(method, params, timeoutMs) {
      const id = "host-" + nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        setTimeout(() => { if (pending.delete(id)) { reject(rpcError(-32001, "timed out")); } }, timeoutMs);
        send({ id, method, params });
      });
    }

    app.toolInput = (args) => send({ method: "ui/notifications/tool-input", params: { arguments: args } });
    app.toolResult = (result) => send({ method: "ui/notifications/tool-result", params: result });
    app.toolCancelled = (reason) => send({ method: "ui/notifications/tool-cancelled", params: { reason } });
    // teardown tells the app it is going away and waits for its answer
    // (briefly) before removing it.
    app.teardown = async (reason) => {
      if (gone) { return; }
      if (initialized) {
        try { await request("ui/resource-teardown", { reason }, 2000); } catch (e) { /* it goes anyway */ }
      }
      gone = true;
      apps.delete(app);
      box.remove();
    };

    app.receive = (ev) => {
      if (ev.origin !== o.sandboxOrigin) { return; }
      const m = ev.data;
      if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") { o.log("app (malformed, dropped)", m); return; }
      if (m.method === "ui/notifications/sandbox-proxy-ready") {
        post({ method: "ui/notifications/sandbox-resource-ready",
          params: { html: ui.html, csp: ui.csp, permissions: ui.permissions, allow: ui.allow } });
        return;
      }
      o.log("app → host", m);
      if (typeof m.method !== "string") {
        const p = pending.get(m.id);
        if (p) { pending.delete(m.id); m.error ? p.reject(m.error) : p.resolve(m.result); }
        return;
      }
      if (m.id === undefined || m.id === null) { note(m.method, m.params || {}); return; }
      if (typeof m.id !== "string" && typeof m.id !== "number") { return; }
      handle(m.method, m.params || {}).then(
        (result) => reply({ id: m.id, result }),
        (e) => reply({ id: m.id, error: { code: typeof e.code === "number" ? e.code : -32000, message: String(e.message || e) } }));
    };
    function reply(msg) { o.log("host → app", msg); post(msg); }

    function note(method, params) {
      switch (method) {
        case "ui/notifications/initialized":
          if (!initialized) { initialized = true; for (const msg of held.splice(0)) { post(msg); } }
          break;
        case "ui/notifications/size-changed": {
          const h = Number(params.height);
          if (Number.isFinite(h)) { frame.style.height = Math.max(40, Math.min(4000, Math.ceil(h))) + "px"; }
          break;
        }
        case "notifications/message":
          o.notice("App log (" + String(params.level || "info") + "): " + text(params.data));
          break;
      }
    }

    async function handle(method, params) {
      switch (method) {
        case "ui/initialize": return initResult();
        case "ping": return {};
        case "tools/call": return callTool(params);
        case "resources/read": {
          if (typeof params.uri !== "string") { throw rpcError(-32602, "uri must be a string"); }
          const r = await o.api("read", { server: ui.server, uri: params.uri });
          if (r.error) { throw rpcError(-32000, r.error); }
          return r;
        }
        case "ui/open-link": return openLink(params.url);
        case "ui/message":
          o.notice("Message from the app (" + String(params.role || "user") + "): " + text(params.content));
          return {};
        case "ui/update-model-context":
          app.modelContext = { content: params.content, structuredContent: params.structuredContent };
          o.notice("The app updated the model context: " + text(params.content || params.structuredContent));
          return {};
        case "ui/request-display-mode": return { mode: "inline" };
      }
      throw rpcError(-32601, "method not found");
    }

    function initResult() {
      const t = ui.tool;
      return {
        protocolVersion: PROTOCOL,
        hostInfo: { name: "mcpc web", version: "0.1.0" },
        hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {},
          sandbox: { csp: ui.csp, permissions: ui.permissions } },
        hostContext: {
          toolInfo: { tool: { name: t.tool, title: t.title, description: t.description, inputSchema: t.inputSchema } },
          theme: o.theme(), displayMode: "inline", availableDisplayModes: ["inline"],
          containerDimensions: { maxHeight: 4000 }, platform: "web", userAgent: "mcpc web",
          locale: navigator.language, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          deviceCapabilities: { touch: navigator.maxTouchPoints > 0, hover: matchMedia("(hover: hover)").matches },
        },
      };
    }

    async function callTool(params) {
      if (typeof params.name !== "string") { throw rpcError(-32602, "name must be a string"); }
      const args = params.arguments && typeof params.arguments === "object" && !Array.isArray(params.arguments) ? params.arguments : {};
      const t = o.tools.find((x) => x.server === ui.server && x.tool === params.name);
      if (!t || !t.app) { throw rpcError(-32000, "the tool is not available to this app"); }
      let consent = false;
      if (!t.readOnly && !o.yes) {
        consent = await o.consent("The app wants to call " + t.name + ".", args, ui.server + "\u0000" + t.tool);
        if (!consent) { throw rpcError(-32000, "the person declined the call"); }
      }
      const r = await o.api("call", { from: "app", server: ui.server, tool: params.name, args, consent });
      if (r.error) { throw rpcError(-32000, r.error); }
      o.onAppCall(t, args, r);
      const out = { content: r.content || [], isError: !!r.isError };
      if (r.structuredContent !== undefined) { out.structuredContent = r.structuredContent; }
      if (r._meta !== undefined) { out._meta = r._meta; }
      return out;
    }

    async function openLink(url) {
      let u;
      try { u = new URL(String(url)); } catch (e) { throw rpcError(-32000, "Invalid URL"); }
      if (u.protocol !== "https:") { throw rpcError(-32000, "Invalid URL: only https links open"); }
      if (!(await o.consent("The app wants to open a link.", u.href))) { throw rpcError(-32000, "Link opening denied by user"); }
      window.open(u.href, "_blank", "noopener,noreferrer");
      return {};
    }

    frame.src = ui.sandboxURL;
    apps.add(app);
    return app;
  }

  // text renders anything an app or server sent as plain text.
  function text(v) {
    if (typeof v === "string") { return v; }
    if (Array.isArray(v)) { return v.map((c) => (c && typeof c.text === "string" ? c.text : JSON.stringify(c))).join("\n"); }
    if (v && typeof v === "object" && typeof v.text === "string") { return v.text; }
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  }

  return { mount, text };
})();
