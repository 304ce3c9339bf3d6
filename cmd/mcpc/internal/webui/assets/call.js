// call.js: a tool's form, its call and its result. The form is built
// from the input schema (form.js) and checked before the call; the call
// is named, so that its progress shows as it comes and Cancel ends it;
// the result is shown with view.js, a tool's app mounted through host.js,
// and the call kept in the page's history.
"use strict";
window.McpCall = (function () {
  const P = window.McpPage, S = P.state, $ = (id) => document.getElementById(id);
  const { el, fill, api, status, pretty, consent, theme, showTab } = P;

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
    if (f.tooMany) { useRaw.checked = true; useRaw.disabled = true; raw.hidden = false; raw.value = raw.value || "{}"; }
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
    if (from !== "person" && !t.readOnly && !S.config.yes) {
      agreed = await consent("A link asks to call " + t.name + ".", args);
      if (!agreed) { status("call declined; the form holds the link's arguments"); return; }
    }
    status("calling " + t.name + "…");
    if (S.app) { const old = S.app; S.app = null; await old.teardown("another call"); }
    let mounted = null;
    if (t.ui) { mounted = mountApp(t, args); }
    const id = "c" + Date.now().toString(36) + "-" + (++callSeq);
    const watch = watchCall(id);
    let r;
    try { r = await api("call", { from, name: t.name, args, consent: agreed, id }); } finally { watch.stop(); }
    const a = await mounted;
    if (a) { if (r.error) { a.toolCancelled(r.error); } else { a.toolResult({ content: r.content || [], structuredContent: r.structuredContent, isError: !!r.isError, _meta: r._meta }); } }
    showResult(r, { label: "Call " + t.name + " again", run: () => { const b = $("call-btn"); if (b) { b.click(); } } });
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
      if (live && box && r.task) { showTask(box, r.task); }
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

  // showTask shows the state of the call's task (a call the server runs
  // as a task: Cancel cancels the task).
  function showTask(box, t) {
    let line = box.querySelector(".task-status");
    if (!line) { line = el("span", { class: "task-status", role: "status" }); box.append(line); }
    line.textContent = "Task " + t.id + ": " + t.status + (t.statusMessage ? " — " + t.statusMessage : "");
    box.hidden = false;
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
      sandboxOrigin: S.config.sandboxOrigin, yes: S.config.yes, tools: S.tools, api, consent, theme,
      log: (dir, m) => appLog(dir, m), notice: (s) => box.append(el("p", { class: "notice", text: s })),
      onAppCall: (tool, a2, r) => showResult(r),
    });
    S.app = a;
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

  // showResult shows a call's outcome; again, for the person's own
  // call, makes it once more after a login for more scope.
  function showResult(r, again) {
    const out = $("result");
    if (!out) { return; }
    fill(out, [el("h3", { text: "Result" })]);
    if (r.error) { out.append(el("p", { class: "error", text: r.error })); }
    if (r.stepUp && window.McpAuth) { out.append(McpAuth.stepUp(r.stepUp, again)); }
    if (r.isError) { out.append(el("p", { class: "error", text: "The tool reported an error." })); }
    for (const c of r.content || []) { out.append(McpView.contentItem(c)); }
    if (r.structuredContent !== undefined) { out.append(el("h4", { text: "Structured content" }), McpView.json(r.structuredContent)); }
    if (Array.isArray(r.frames) && r.frames.length) {
      out.append(McpView.collapsed("On the wire (" + r.frames.length + " frames)", () => {
        const ol = el("ol", { class: "frames", "aria-label": "Frames of this call" });
        for (const f of r.frames) { ol.append(el("li", { class: f.out ? "out" : "in", text: McpView.frame(f.text) + (f.cut ? " …" : "") })); }
        return ol;
      }, "wire"));
    }
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

  return { showTool, runCall };
})();
