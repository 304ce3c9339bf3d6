// app.js: the page. It lists the servers and what they offer, builds a
// form from each tool's input schema, shows results and the frames on the
// wire, and hosts tools' apps through host.js. Whatever a server sends is
// inserted with textContent, never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let config = { yes: false }, tools = [], app = null, wireSeq = 0;

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
    config = await api("config");
    const servers = await api("servers");
    fill($("server-list"), (Array.isArray(servers) ? servers : []).map((s) => el("li", {},
      el("span", { class: "name", text: s.name }), el("span", { class: "badge state-" + s.state, text: s.state }),
      el("div", { class: "desc", text: [s.title, s.transport, s.protocol, s.tools + " tools"].filter(Boolean).join(" · ") }),
      s.error ? el("div", { class: "error", text: s.error }) : null,
      el("button", { type: "button", class: "small", "aria-label": "Ping " + s.name, text: "Ping", on: { click: () => ping(s.name) } }))));
    const logServer = $("log-server");
    if (logServer) { fill(logServer, [el("option", { value: "", text: "all servers" }), ...(Array.isArray(servers) ? servers : []).map((s) => el("option", { value: s.name, text: s.name }))]); }
    tools = await api("tools");
    if (!Array.isArray(tools)) { tools = []; }
    fill($("tool-list"), []);
    for (const t of tools) {
      const badges = [];
      if (t.readOnly) { badges.push("read-only"); }
      if (t.ui) { badges.push("app"); }
      if (!t.model) { badges.push("hidden from the model"); }
      listItem($("tool-list"), t.name, t.title || t.description, () => showTool(t), badges);
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
    status(tools.length + " tools");
  }

  async function ping(server) {
    const start = performance.now();
    const r = await api("ping", { server });
    status(r.error ? server + ": ping failed: " + r.error : server + " answered a ping in " + Math.round(performance.now() - start) + " ms");
  }

  // showTool shows a tool's form, filled with args when a link gave them.
  // A call is checked against the schema first: a required field left
  // empty, or a value the schema refuses, stops it before the server.
  function showTool(t, args) {
    const d = $("detail");
    const schema = t.inputSchema && typeof t.inputSchema === "object" ? t.inputSchema : {};
    const f = McpForm.build(schema);
    const raw = el("textarea", { id: "args-json", rows: "4", "aria-label": "Arguments as JSON" });
    const useRaw = el("input", { type: "checkbox", id: "use-json", "aria-controls": "args-json" });
    const problems = el("div", { id: "form-problems", class: "error", role: "alert" });
    const button = el("button", { type: "submit", id: "call-btn", text: "Call " + t.name });
    const form = el("form", { class: "args", "aria-label": "Arguments of " + t.name, novalidate: "" }, f.node,
      el("label", { class: "choice" }, useRaw, " arguments as JSON"), raw, problems,
      el("p", { class: "buttons" }, button, el("button", { type: "button", id: "call-cancel", hidden: "", text: "Cancel" })),
      el("div", { id: "call-progress", hidden: "" }));
    // The JSON box shows only when chosen, holding what the form holds.
    raw.hidden = true;
    useRaw.addEventListener("change", () => { raw.hidden = !useRaw.checked; if (useRaw.checked && !raw.value.trim()) { raw.value = pretty(f.values()); } });
    if (args && !f.fill(args)) { useRaw.checked = true; raw.hidden = false; raw.value = pretty(args); }
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const got = useRaw.checked ? rawArgs(raw.value, f.required) : f.read();
      if (got.problems) {
        const why = got.problems.map(([n, w]) => n + " " + w).join("; ");
        problems.textContent = "Not called: " + why + ".";
        status("not called: " + why);
        return;
      }
      problems.textContent = "";
      runCall(t, got.value, "person");
    });
    fill(d, [el("h2", { class: "name", text: t.name }), t.title ? el("p", { class: "title", text: t.title }) : null,
      el("p", { class: "desc", text: t.description || "" }),
      t.ui ? el("p", { class: "desc", text: "Interface: " + t.ui }) : null, form, el("div", { id: "app-box" }),
      el("div", { id: "result", "aria-label": "Result", role: "region" })]);
  }

  // rawArgs reads the JSON arguments box: an object with the required
  // members, or the problems.
  function rawArgs(text, required) {
    let v = {};
    try { v = text.trim() ? JSON.parse(text) : {}; } catch (e) { return { problems: [["the JSON", "is not JSON: " + e.message]] }; }
    if (!v || typeof v !== "object" || Array.isArray(v)) { return { problems: [["the JSON", "must be an object"]] }; }
    const missing = required.filter((n) => !(n in v)).map((n) => [n, "is required"]);
    return missing.length ? { problems: missing } : { value: v };
  }

  let callSeq = 0;
  async function runCall(t, args, from) {
    let agreed = false;
    if (from !== "person" && !t.readOnly && !config.yes) {
      agreed = await consent("A link asks to call " + t.name + ".", args);
      if (!agreed) { status("call declined; the form holds the link's arguments"); return; }
    }
    status("calling " + t.name + "…");
    if (app) { const old = app; app = null; await old.teardown("another call"); }
    let mounted = null;
    if (t.ui) { mounted = mountApp(t, args); }
    const id = "c" + Date.now().toString(36) + "-" + (++callSeq);
    const watch = watchCall(id);
    let r;
    try { r = await api("call", { from, name: t.name, args, consent: agreed, id }); } finally { watch.stop(); }
    const a = await mounted;
    if (a) { if (r.error) { a.toolCancelled(r.error); } else { a.toolResult({ content: r.content || [], structuredContent: r.structuredContent, isError: !!r.isError, _meta: r._meta }); } }
    showResult(r);
    remember(t, args, r);
    status(r.cancelled ? "cancelled" : r.error ? "failed" : (r.isError ? "the tool reported an error" : "done in " + r.durationMs + " ms"));
  }

  // watchCall shows a call's progress as the server reports it, and a
  // Cancel button that ends the call (the server gets
  // notifications/cancelled), until stop.
  function watchCall(id) {
    const box = $("call-progress"), cancel = $("call-cancel"), button = $("call-btn");
    let live = true, timer = 0;
    if (button) { button.disabled = true; }
    if (cancel) {
      cancel.hidden = false;
      cancel.disabled = false;
      cancel.onclick = async () => { cancel.disabled = true; status("cancelling…"); await api("cancel", { id }); };
    }
    const poll = async () => {
      if (!live) { return; }
      const r = await api("progress?id=" + encodeURIComponent(id));
      if (live && box && r.progress) { showProgress(box, r.progress); }
      if (live) { timer = setTimeout(poll, 250); }
    };
    timer = setTimeout(poll, 150);
    return { stop() {
      live = false; clearTimeout(timer);
      if (cancel) { cancel.hidden = true; cancel.onclick = null; }
      if (button) { button.disabled = false; }
      if (box) { box.hidden = true; }
    } };
  }

  // showProgress updates the call's progress bar in place (a screen
  // reader follows one bar's value, not a new bar each time).
  function showProgress(box, p) {
    const now = Number(p.progress) || 0, total = Number(p.total) || 0;
    const text = (total > 0 ? now + " of " + total : String(now)) + (p.message ? " — " + p.message : "");
    let bar = box.querySelector('[role="progressbar"]');
    if (!bar) {
      bar = el("div", { class: "bar", role: "progressbar", "aria-label": "Progress", "aria-valuemin": "0" }, el("div", { class: "fill" }));
      fill(box, [bar, el("span", { class: "progress-text" })]);
    }
    bar.setAttribute("aria-valuenow", String(now));
    bar.setAttribute("aria-valuetext", text);
    if (total > 0) { bar.setAttribute("aria-valuemax", String(total)); bar.firstChild.style.width = Math.min(100, 100 * now / total) + "%"; } else { bar.removeAttribute("aria-valuemax"); }
    bar.classList.toggle("unknown", !(total > 0));
    box.querySelector(".progress-text").textContent = text;
    box.hidden = false;
  }


  async function mountApp(t, args) {
    const ui = await api("ui?name=" + encodeURIComponent(t.name));
    if (ui.error) { $("result").append(el("p", { class: "error", text: "interface: " + ui.error })); return null; }
    const box = $("app-box");
    const a = McpHost.mount(box, ui, {
      sandboxOrigin: config.sandboxOrigin, yes: config.yes, tools, api, consent, theme,
      log: (dir, m) => appLog(dir, m), notice: (s) => box.append(el("p", { class: "notice", text: s })),
      onAppCall: (tool, a2, r) => showResult(r),
    });
    app = a;
    a.toolInput(args);
    return a;
  }

  function appLog(dir, m) {
    let list = $("app-log");
    if (!list) { list = el("ol", { id: "app-log", class: "frames", "aria-label": "Messages between the page and the app" }); $("app-box").after(el("details", {}, el("summary", { text: "App messages" }), list)); }
    let s = pretty(m); if (s.length > 4000) { s = s.slice(0, 4000) + "…"; }
    list.append(el("li", { text: dir + " " + s }));
    while (list.childElementCount > 500) { list.firstElementChild.remove(); }
  }

  function showResult(r) {
    const out = $("result");
    if (!out) { return; }
    fill(out, [el("h3", { text: "Result" })]);
    if (r.error) { out.append(el("p", { class: "error", text: r.error })); }
    if (r.isError) { out.append(el("p", { class: "error", text: "The tool reported an error." })); }
    for (const c of r.content || []) { out.append(contentItem(c)); }
    if (r.structuredContent !== undefined) { out.append(el("h4", { text: "Structured content" }), McpView.json(r.structuredContent)); }
    if (Array.isArray(r.frames) && r.frames.length) {
      out.append(McpView.collapsed("On the wire (" + r.frames.length + " frames)", () => {
        const ol = el("ol", { class: "frames", "aria-label": "Frames of this call" });
        for (const f of r.frames) { ol.append(el("li", { class: f.out ? "out" : "in", text: McpView.frame(f.text) + (f.cut ? " …" : "") })); }
        return ol;
      }, "wire"));
    }
  }

  const b64 = /^[A-Za-z0-9+/=]*$/;
  function contentItem(c) {
    if (!c || typeof c !== "object") { return el("pre", { text: String(c) }); }
    if (c.type === "text") { return McpView.text(typeof c.text === "string" ? c.text : pretty(c.text), "text-content"); }
    if (c.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType) && typeof c.data === "string" && b64.test(c.data)) {
      return el("figure", {}, el("img", { src: "data:" + c.mimeType + ";base64," + c.data, alt: "image from the tool" }), el("figcaption", {}, McpView.blob(c.data, c.mimeType)));
    }
    if (c.type === "audio" && /^audio\/[a-z0-9.+-]+$/.test(c.mimeType) && typeof c.data === "string" && b64.test(c.data)) {
      return el("figure", {}, el("audio", { controls: "", src: "data:" + c.mimeType + ";base64," + c.data }), el("figcaption", {}, McpView.blob(c.data, c.mimeType)));
    }
    if (c.type === "resource_link") { return el("p", { text: "Link to resource: " + String(c.uri) + (c.name ? " (" + c.name + ")" : "") }); }
    if (c.type === "resource" && c.resource && typeof c.resource === "object") { return resourceItem(c.resource); }
    return McpView.json(c);
  }

  // resourceItem shows one resource's contents: text (long text
  // collapsed), or a blob by its size.
  function resourceItem(c) {
    const box = el("div", { class: "resource" }, el("p", { class: "desc", text: [c.uri, c.mimeType].filter(Boolean).join(" · ") }));
    if (typeof c.text === "string") { box.append(McpView.text(c.text)); }
    if (typeof c.blob === "string") { box.append(McpView.blob(c.blob, c.mimeType)); }
    return box;
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
      fill(out, r.error ? [el("p", { class: "error", text: r.error })] : (r.contents || []).map(resourceItem));
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
    for (const c of r.contents || []) { d.append(resourceItem(c)); }
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
    const t = tools.find((x) => x.name === name);
    if (!t) { status("no tool " + name); return; }
    let args = {};
    try { args = JSON.parse(q.get("args") || "{}"); } catch (e) { status("args: " + e.message); return; }
    if (!args || typeof args !== "object" || Array.isArray(args)) { status("args must be a JSON object"); return; }
    showTool(t, args);
    await runCall(t, args, "link");
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
    $("tool-count").textContent = words.length ? shown + " of " + tools.length + " tools" : tools.length + " tools";
  }

  // history keeps the calls made from the page, newest first; one chosen
  // fills its tool's form again (it does not call).
  function remember(t, args, r) {
    const outcome = r.cancelled ? "cancelled" : r.error ? "failed" : r.isError ? "tool error" : "ok, " + r.durationMs + " ms";
    const b = el("button", { type: "button", class: "item", on: { click: () => { showTab("tools"); showTool(t, args); } } },
      el("span", { class: "name", text: t.name }), el("span", { class: "badge", text: outcome }),
      el("div", { class: "desc", text: new Date().toLocaleTimeString() + " · " + JSON.stringify(args).slice(0, 200) }));
    const list = $("history-list");
    list.prepend(el("li", {}, b));
    while (list.childElementCount > 200) { list.lastElementChild.remove(); }
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

  window.McpPage = { el, fill, api, status, pretty, reload: () => load() };
  window.addEventListener("pagehide", () => { if (app) { app.teardown("page closed"); } });
  tabs();
  $("tool-search").addEventListener("input", search);
  $("connect-form").addEventListener("submit", connect);
  load().then(fromLink, (e) => status("loading failed: " + e.message));
  pollWire();
})();
