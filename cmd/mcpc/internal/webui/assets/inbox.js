// inbox.js: what servers say and ask on their own. It polls the page's
// inbox, shows log messages, list changes and stderr lines in the
// Notifications tab, and puts each request for the person — a sampling
// request to reply to, an elicitation form, a page to open — in the
// "Requests from servers" region until it is answered or withdrawn.
// Server text is set with textContent only.
"use strict";
(function () {
  const P = window.McpPage, $ = (id) => document.getElementById(id);
  const { el, api } = P;
  let since = 0, reloadTimer = 0;
  const cards = new Map(); // request seq → its card

  function note(e) {
    const list = $("note-list");
    const what = e.kind === "list" ? "the " + e.text + " list changed" : e.kind === "stderr" ? "stderr: " + e.text : (e.level || "info") + ": " + e.text;
    list.append(el("li", { class: "note note-" + e.kind }, el("time", { text: new Date(e.time).toLocaleTimeString() }), " ",
      el("span", { class: "badge", text: e.server }), " ", el("span", { text: what })));
    while (list.childElementCount > 1000) { list.firstElementChild.remove(); }
    const tab = document.querySelector('nav button[data-tab="notes"]');
    if (tab && tab.getAttribute("aria-pressed") !== "true") { tab.dataset.unread = String(Number(tab.dataset.unread || 0) + 1); tab.textContent = "Notifications (" + tab.dataset.unread + ")"; }
    if (e.kind === "list") { clearTimeout(reloadTimer); reloadTimer = setTimeout(P.reload, 300); }
  }

  async function answer(id, body) {
    const r = await api("answer", Object.assign({ id }, body));
    if (r.error) { P.status("answer: " + r.error); return; }
    drop(id);
  }
  function drop(id) {
    const c = cards.get(id);
    if (c) { c.remove(); cards.delete(id); }
    $("asks").hidden = cards.size === 0;
  }

  function card(e, title, ...kids) {
    const c = el("section", { class: "ask", "aria-label": title }, el("h3", { text: title }), ...kids);
    cards.set(e.seq, c);
    $("ask-list").append(c);
    $("asks").hidden = false;
    return c;
  }

  function sampling(e) {
    const p = e.request || {};
    const msgs = (Array.isArray(p.messages) ? p.messages : []).map((m) => el("pre", { class: "msg", text: (m.role || "") + ": " + McpHost.text(m.content) }));
    const id = "reply-" + e.seq;
    const reply = el("textarea", { id, rows: "4" });
    card(e, e.server + " asks for a model's reply", p.systemPrompt ? el("p", { class: "desc", text: "System prompt: " + p.systemPrompt }) : null,
      ...msgs, el("p", { class: "desc", text: "At most " + (p.maxTokens || "?") + " tokens. You answer in the model's place." }),
      el("label", { for: id, text: "Reply" }), reply,
      el("p", { class: "buttons" },
        el("button", { type: "button", text: "Send", on: { click: () => answer(e.seq, { action: "accept", text: reply.value }) } }),
        el("button", { type: "button", text: "Decline", on: { click: () => answer(e.seq, { action: "decline" }) } })));
  }

  function elicitation(e) {
    const p = e.request || {};
    const f = McpForm.build(p.requestedSchema, { titles: true });
    const problems = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "args", novalidate: "", "aria-label": "Form of " + e.server }, f.node, problems,
      el("p", { class: "buttons" }, el("button", { type: "submit", text: "Submit" }),
        el("button", { type: "button", text: "Decline", on: { click: () => answer(e.seq, { action: "decline" }) } }),
        el("button", { type: "button", text: "Cancel", on: { click: () => answer(e.seq, { action: "cancel" }) } })));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const got = f.read();
      if (got.problems) { problems.textContent = "Not sent: " + got.problems.map(([n, w]) => n + " " + w).join("; ") + "."; return; }
      answer(e.seq, { action: "accept", content: got.value });
    });
    card(e, e.server + " asks you", el("p", { class: "message", text: p.message || "" }), form);
  }

  // visit shows the page a server asks the person to open (checked by
  // safeurl on the server side); it opens only when they click it.
  function visit(e) {
    const p = e.request || {};
    let host = "";
    try { host = new URL(p.url).host; } catch (err) { answer(e.seq, { action: "decline" }); return; }
    const link = el("a", { href: p.url, target: "_blank", rel: "noopener noreferrer", text: "Open " + host });
    link.addEventListener("click", () => answer(e.seq, { action: "accept" }));
    card(e, e.server + " asks you to open a page", el("p", { class: "message", text: p.message || "" }),
      el("p", { class: "url", text: p.url }), el("p", { class: "buttons" }, link,
        el("button", { type: "button", text: "Decline", on: { click: () => answer(e.seq, { action: "decline" }) } })));
  }

  function take(e) {
    // A request answered or withdrawn before the page saw it comes
    // without its parameters (the inbox keeps them only while it waits).
    if (["sampling", "elicitation", "url"].includes(e.kind) && !e.request) { return; }
    switch (e.kind) {
      case "sampling": sampling(e); break;
      case "elicitation": elicitation(e); break;
      case "url": visit(e); break;
      case "answered": drop(e.of); break;
      default: note(e);
    }
  }

  async function poll() {
    try {
      const events = await api("events?since=" + since);
      for (const e of Array.isArray(events) ? events : []) { since = Math.max(since, e.seq); take(e); }
    } catch (err) { /* the page's server is gone: try again later */ }
    setTimeout(poll, 500);
  }

  // The log level: set for one server, or all of them.
  async function setLevel(ev) {
    ev.preventDefault();
    const server = $("log-server").value, level = $("log-level").value;
    const names = server ? [server] : [...$("log-server").options].map((o) => o.value).filter(Boolean);
    const out = [];
    for (const s of names) { const r = await api("loglevel", { server: s, level }); out.push(s + ": " + (r.error || "level " + level)); }
    $("log-result").textContent = out.join("; ");
  }

  $("log-form").addEventListener("submit", setLevel);
  document.querySelector('nav button[data-tab="notes"]').addEventListener("click", (ev) => { ev.target.dataset.unread = "0"; ev.target.textContent = "Notifications"; });
  poll();
})();
