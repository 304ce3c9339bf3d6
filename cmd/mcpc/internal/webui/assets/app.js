// app.js: the page's frame. It lists the servers and what they offer
// (a search over the tools), switches tabs, reads resources and templates,
// renders prompts, connects servers, follows ?call= links and the wire.
// A tool's form and call are call.js's, values' display view.js's, what
// servers ask inbox.js's. Whatever a server sends is inserted with
// textContent, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // state is what the page's scripts share: the config, the tools listed,
  // the app mounted.
  const state = { config: { yes: false }, tools: [], app: null };
  let wireSeq = 0;

  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined) { continue; } // a member a server left out is no text and no attribute
      if (k === "text") { e.textContent = String(v); } else if (k === "on") { for (const [ev, f] of Object.entries(v)) { e.addEventListener(ev, f); } } else { e.setAttribute(k, v); }
    }
    return fill(e, kids, true);
  }
  // fill puts kids into node (after what it holds when add is true, else in
  // its place), leaving out the null a conditional part gives: the DOM
  // would print it as the text "null".
  function fill(node, kids, add) {
    const keep = kids.filter((k) => k !== null && k !== undefined && k !== false && k !== "");
    if (add) { node.append(...keep); } else { node.replaceChildren(...keep); }
    return node;
  }
  async function api(path, body) {
    const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const r = await fetch("api/" + path, init);
    const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
    if (!r.ok && !j.error) { j.error = "HTTP " + r.status; }
    return j;
  }
  function status(s) { $("status").textContent = s; }
  // toolCount says "1 tool", "12 tools", and nothing for a count a server did not give.
  function toolCount(n) { return typeof n === "number" ? n + (n === 1 ? " tool" : " tools") : ""; }
  function theme() { return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"; }
  function pretty(v) { try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }

  // consent asks the person about something they did not start. With a
  // key (an app's server and tool), "always" is offered and remembered
  // until the page closes: an app that polls a tool asks once.
  const always = new Set();
  function consent(what, args, key) {
    if (key && always.has(key)) { return Promise.resolve(true); }
    const d = $("consent");
    $("consent-text").textContent = what;
    $("consent-args").textContent = typeof args === "string" ? args : pretty(args);
    $("consent-always").hidden = !key;
    return new Promise((resolve) => {
      const done = (ok) => { d.close(); resolve(ok); };
      $("consent-yes").onclick = () => done(true);
      $("consent-always").onclick = () => { always.add(key); done(true); };
      $("consent-no").onclick = () => done(false);
      d.oncancel = () => resolve(false);
      d.showModal();
    });
  }

  // The wide tabs (the wire, notifications, history) take the detail's
  // room too: their lines are long.
  const wide = ["wire", "notes", "history"];
  function showTab(name) {
    for (const o of document.querySelectorAll("nav button")) { o.setAttribute("aria-pressed", String(o.dataset.tab === name)); }
    for (const s of document.querySelectorAll(".tab")) { s.hidden = s.id !== "tab-" + name; }
    document.querySelector("main").classList.toggle("wide", wide.includes(name));
  }
  function tabs() {
    for (const b of document.querySelectorAll("nav button")) { b.addEventListener("click", () => showTab(b.dataset.tab)); }
  }

  function listItem(list, title, desc, onclick, badges) {
    const b = el("button", { type: "button", class: "item", on: { click: onclick } }, el("span", { class: "name", text: title }));
    for (const x of badges || []) { b.append(el("span", { class: "badge", text: x })); }
    if (desc) { b.append(el("div", { class: "desc", text: desc })); }
    list.append(el("li", {}, b));
  }

  async function load() {
    state.config = await api("config");
    const servers = await api("servers");
    fill($("server-list"), (Array.isArray(servers) ? servers : []).map((s) => el("li", {},
      el("span", { class: "name", text: s.name }), el("span", { class: "badge state-" + s.state, text: s.state }),
      el("div", { class: "desc", text: [s.title, s.transport, s.protocol, toolCount(s.tools)].filter(Boolean).join(" · ") }),
      s.error && s.state !== "needs-auth" ? el("div", { class: "error", text: s.error }) : null, // auth.js says what a login needs
      window.McpAuth ? window.McpAuth.controls(s) : null,
      el("button", { type: "button", class: "small", "aria-label": "Ping " + s.name, text: "Ping", on: { click: () => ping(s.name) } }))));
    const logServer = $("log-server");
    if (logServer) { fill(logServer, [el("option", { value: "", text: "all servers" }), ...(Array.isArray(servers) ? servers : []).map((s) => el("option", { value: s.name, text: s.name }))]); }
    state.tools = await api("tools");
    if (!Array.isArray(state.tools)) { state.tools = []; }
    const tools = state.tools;
    fill($("tool-list"), []);
    for (const t of tools) {
      const badges = [];
      if (t.readOnly) { badges.push("read-only"); }
      if (t.ui) { badges.push("app"); }
      if (!t.model) { badges.push("hidden from the model"); }
      listItem($("tool-list"), t.name, t.title || t.description, () => McpCall.showTool(t), badges);
      $("tool-list").lastElementChild.dataset.search = [t.name, t.title, t.description].filter(Boolean).join(" ").toLowerCase();
    }
    search();
    const res = await api("resources");
    fill($("resource-list"), []);
    for (const r of res.resources || []) {
      listItem($("resource-list"), r.resource.uri, (r.server + " · " + (r.resource.mimeType || "")), () => readResource(r.server, r.resource.uri));
    }
    fill($("template-list"), []);
    for (const t of res.templates || []) {
      listItem($("template-list"), t.template.uriTemplate, t.server + (t.template.description ? " · " + t.template.description : ""), () => showTemplate(t));
    }
    const prompts = await api("prompts");
    fill($("prompt-list"), []);
    for (const p of Array.isArray(prompts) ? prompts : []) { listItem($("prompt-list"), p.name, p.prompt.description, () => showPrompt(p)); }
    const skills = await api("skills");
    fill($("skill-list"), (Array.isArray(skills) ? skills : []).map((k) => el("li", {}, el("span", { class: "name", text: k.name }), el("div", { class: "desc", text: k.description }))));
    status(toolCount(tools.length));
  }

  async function ping(server) {
    const start = performance.now();
    const r = await api("ping", { server });
    status(r.error ? server + ": ping failed: " + r.error : server + " answered a ping in " + Math.round(performance.now() - start) + " ms");
  }

  // showTemplate fills a resource template's variables in a form, and
  // reads the URI they make.
  function showTemplate(x) {
    const tpl = x.template.uriTemplate, vars = McpTemplate.vars(tpl);
    const schema = { type: "object", properties: {}, required: vars.filter((v) => !v.optional).map((v) => v.name) };
    for (const v of vars) { schema.properties[v.name] = { type: "string" }; }
    const f = McpForm.build(schema);
    const uri = el("output", { class: "name", id: "template-uri", "aria-label": "URI" });
    const problems = el("p", { class: "error", role: "alert" });
    const out = el("div", { id: "template-result", role: "region", "aria-label": "Contents" });
    const form = el("form", { class: "args", novalidate: "", "aria-label": "Variables of " + tpl }, f.node, el("p", {}, "URI: ", uri), problems,
      el("p", { class: "buttons" }, el("button", { type: "submit", text: "Read" })));
    form.addEventListener("input", () => { uri.textContent = McpTemplate.expand(tpl, f.values()); });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const got = f.read();
      if (got.problems) { problems.textContent = "Not read: " + got.problems.map(([n, w]) => n + " " + w).join("; ") + "."; return; }
      problems.textContent = "";
      const target = McpTemplate.expand(tpl, got.value);
      uri.textContent = target;
      fill(out, [el("p", { class: "desc", text: "reading " + target + "…" })]);
      const r = await api("read", { server: x.server, uri: target });
      fill(out, r.error ? [el("p", { class: "error", text: r.error })] : (r.contents || []).map(McpView.resourceItem));
    });
    fill($("detail"), [el("h2", { class: "name", text: tpl }), el("p", { class: "desc", text: x.server + (x.template.description ? " · " + x.template.description : "") }), form, out]);
    uri.textContent = tpl;
  }

  async function readResource(server, uri) {
    const d = $("detail");
    fill(d, [el("h2", { class: "name", text: uri }), el("p", { class: "desc", text: "reading…" })]);
    const r = await api("read", { server, uri });
    fill(d, [el("h2", { class: "name", text: uri }), el("p", { class: "desc", text: server })]);
    if (r.error) { d.append(el("p", { class: "error", text: r.error })); return; }
    for (const c of r.contents || []) { d.append(McpView.resourceItem(c)); }
  }

  // showPrompt shows a prompt's arguments in a form (strings; the
  // required ones checked before it is asked for) and what it renders to.
  function showPrompt(p) {
    const d = $("detail");
    const schema = { type: "object", properties: {}, required: [] };
    for (const a of Array.isArray(p.prompt.arguments) ? p.prompt.arguments : []) {
      if (!a || typeof a.name !== "string") { continue; }
      schema.properties[a.name] = { type: "string", title: a.title, description: a.description };
      if (a.required) { schema.required.push(a.name); }
    }
    const f = McpForm.build(schema);
    const problems = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "args", novalidate: "", "aria-label": "Arguments of " + p.name }, f.node, problems,
      el("p", {}, el("button", { type: "submit", text: "Get " + p.name })));
    const out = el("div", { role: "region", "aria-label": "Messages" });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const got = f.read();
      if (got.problems) { problems.textContent = "Not asked: " + got.problems.map(([n, w]) => n + " " + w).join("; ") + "."; return; }
      problems.textContent = "";
      const r = await api("prompt", { name: p.name, args: got.value });
      fill(out, r.error ? [el("p", { class: "error", text: r.error })] : (r.messages || []).map((m) => McpView.text((m.role || "") + ": " + McpHost.text(m.content))));
    });
    fill(d, [el("h2", { class: "name", text: p.name }), el("p", { class: "desc", text: p.prompt.description || "" }), form, out]);
  }


  async function pollWire() {
    if (!$("tab-wire").hidden) {
      const frames = await api("trace?since=" + wireSeq);
      for (const f of Array.isArray(frames) ? frames : []) {
        wireSeq = Math.max(wireSeq, f.seq);
        $("wire-list").append(el("li", { class: f.out ? "out" : "in", text: "[" + f.server + "] " + McpView.frame(f.text) + (f.cut ? " …" : "") }));
        while ($("wire-list").childElementCount > 2000) { $("wire-list").firstElementChild.remove(); }
      }
    }
    setTimeout(pollWire, 1500);
  }

  // A link with ?call=<tool>&args=<JSON object> fills the tool's form
  // with the arguments and asks the person before it calls (a read-only
  // tool of a trusted server, or --yes, runs at once).
  async function fromLink() {
    const q = new URLSearchParams(location.search);
    const name = q.get("call");
    if (!name) { return; }
    const t = state.tools.find((x) => x.name === name);
    if (!t) { status("no tool " + name); return; }
    let args = {};
    try { args = JSON.parse(q.get("args") || "{}"); } catch (e) { status("args: " + e.message); return; }
    if (!args || typeof args !== "object" || Array.isArray(args)) { status("args must be a JSON object"); return; }
    McpCall.showTool(t, args);
    await McpCall.runCall(t, args, "link");
  }

  // search shows the tools whose name, title or description holds every
  // word typed.
  function search() {
    const words = $("tool-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const li of $("tool-list").children) {
      const hit = words.every((w) => li.dataset.search.includes(w));
      li.hidden = !hit;
      if (hit) { shown++; }
    }
    $("tool-count").textContent = words.length ? shown + " of " + toolCount(state.tools.length) : toolCount(state.tools.length);
  }

  // words splits a command line as a shell would at its simplest: on
  // spaces, with '…' and "…" keeping theirs. Nothing is expanded.
  function words(line) {
    const out = [];
    for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) { out.push(m[1] ?? m[2] ?? m[3]); }
    return out;
  }

  // connect adds a server of the person's beside the configured ones.
  async function connect(ev) {
    ev.preventDefault();
    const cmd = words($("connect-command").value.trim()), url = $("connect-url").value.trim();
    const body = { name: $("connect-name").value.trim(), url, command: cmd[0] || "", args: cmd.slice(1) };
    $("connect-result").textContent = "connecting " + body.name + "…";
    const r = await api("servers", body);
    $("connect-result").textContent = r.error ? "Not connected: " + r.error : "Connected " + r.added + ".";
    if (!r.error) { await load(); }
  }

  window.McpPage = { el, fill, api, status, pretty, consent, theme, showTab, state, reload: () => load() };
  window.addEventListener("pagehide", () => { if (state.app) { state.app.teardown("page closed"); } });
  // The page starts once every script has run (call.js and inbox.js
  // come after this one).
  document.addEventListener("DOMContentLoaded", () => {
    tabs();
    $("tool-search").addEventListener("input", search);
    $("connect-form").addEventListener("submit", connect);
    load().then(fromLink, (e) => status("loading failed: " + e.message));
    pollWire();
  });
})();
