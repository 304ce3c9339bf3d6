// auth.js: a server that answered 401 shows that it needs a login, with a
// "Log in to <server>" button that starts mcpc's OAuth flow. The page
// shows the authorization URL as a link that opens only on the person's
// click (in another tab), waits for the redirect to reach mcpc's loopback
// listener, and then lists the server and its tools anew. A server mcpc
// holds tokens of shows "Log out of <server>": mcpc revokes and forgets
// them and reconnects the server, which then needs a login. A call a
// server refused for want of scope offers "Log in again for more access"
// (the same flow, for the wider scope); the person calls again after,
// never the page on its own. No token ever reaches the page: only the
// URL and the flow's outcome.
"use strict";
(function () {
  const P = window.McpPage;
  const { el, fill, api } = P;
  const polling = new Set(); // servers whose login the page is following
  const views = new Map(); // server → its button and message, as the list shows them now
  const stepViews = new Map(); // server → the step-up offered under a refused call
  const notes = new Map(); // server → what its last logout said, kept across the list's redraws

  // controls is the server's authorization part of its line in the list,
  // or null for a server that needs no login and has no tokens.
  function controls(s) {
    if (s.state !== "needs-auth") { return s.canLogout ? logoutControls(s) : note(s.name); }
    const box = el("div", { class: "auth", role: "group", "aria-label": "Authorization of " + s.name });
    const msg = el("p", { class: "desc", role: "status" });
    const why = el("span", { class: "needs-login", text: "needs login" + (s.authServer ? " at " + s.authServer : "") });
    box.append(why);
    if (!s.canLogin) { return box; }
    const btn = el("button", { type: "button", class: "small", "aria-label": "Log in to " + s.name, text: "Log in",
      on: { click: () => start(s.name, false) } });
    box.append(btn, msg);
    const n = notes.get(s.name);
    if (n) { fill(msg, [el("span", { class: n.bad ? "error" : "", text: n.text })]); }
    views.set(s.name, { btn, msg });
    if (s.login && (s.login.state === "waiting" || s.login.state === "starting")) { show(s.name, s.login); }
    return box;
  }

  // logoutControls is a logged-in server's "Log out of <server>".
  function logoutControls(s) {
    const box = el("div", { class: "auth", role: "group", "aria-label": "Authorization of " + s.name });
    const msg = el("p", { class: "desc", role: "status" });
    const btn = el("button", { type: "button", class: "small", "aria-label": "Log out of " + s.name, text: "Log out",
      on: { click: () => logout(s.name, btn, msg) } });
    box.append(btn, msg);
    return box;
  }

  // note is what the last logout of a server said, for a server that
  // shows no login (one that lets clients in without one).
  function note(name) {
    const n = notes.get(name);
    return n ? el("p", { class: "desc " + (n.bad ? "error" : ""), role: "status", text: n.text }) : null;
  }

  async function logout(name, btn, msg) {
    btn.disabled = true;
    fill(msg, [el("span", { text: "logging out of " + name + "…" })]);
    const r = await api("logout", { server: name });
    if (r.error && r.hadTokens === undefined) {
      btn.disabled = false;
      fill(msg, [el("span", { class: "error", role: "alert", text: "Not logged out: " + r.error })]);
      return;
    }
    let text = r.hadTokens ? "logged out of " + name : "no stored tokens for " + name;
    if (r.revoked) { text += " (tokens revoked)"; }
    if (r.revokeError) { text += "; the tokens could not be revoked at the authorization server (" + r.revokeError + "): they are forgotten here all the same"; }
    notes.set(name, { text, bad: !!r.revokeError });
    P.status(text);
    P.reload();
  }

  // stepUp is the offer, under a call the server refused for want of
  // scope, to log in again for it; once logged in the person calls again.
  function stepUp(up, again) {
    const box = el("div", { class: "auth step-up", role: "group", "aria-label": "More access to " + up.server });
    const msg = el("p", { class: "desc", role: "status" });
    const btn = el("button", { type: "button", class: "small", "aria-label": "Log in again to " + up.server + " for more access",
      text: "Log in again for more access", on: { click: () => start(up.server, true) } });
    box.append(el("p", { class: "desc", text: up.server + " needs more access for this call" + (up.scope ? " (scope: " + up.scope + ")" : "") + "." }), btn, msg);
    stepViews.set(up.server, { btn, msg, again });
    return box;
  }

  // safe reports whether u is a URL the page may link to: https, or http
  // on a loopback host (mcpc checked it too).
  function safe(u) {
    try {
      const x = new URL(u);
      return x.protocol === "https:" || (x.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(x.hostname));
    } catch (e) { return false; }
  }

  // viewsOf are the places the server's login shows: its line in the
  // list, and a step-up under a refused call.
  function viewsOf(name) { return [views.get(name), stepViews.get(name)].filter(Boolean); }

  async function start(name, more) {
    notes.delete(name);
    for (const { btn, msg } of viewsOf(name)) {
      btn.disabled = true;
      fill(msg, [el("span", { text: "starting the login of " + name + "…" })]);
    }
    show(name, await api("login", { server: name, stepUp: more }));
  }

  // show puts the login's state on the page: the link to open while mcpc
  // waits for the person, the outcome after.
  function show(name, st) {
    if (st.error && st.state !== "failed") { st = { state: "failed", error: st.error }; }
    for (const v of viewsOf(name)) { showIn(v, name, st); }
    if (st.state === "waiting" || st.state === "starting") { follow(name); }
    if (st.state === "done") {
      stepViews.delete(name);
      P.status("logged in to " + name);
      P.reload();
    }
  }

  function showIn(v, name, st) {
    const { btn, msg } = v;
    switch (st.state) {
      case "waiting": {
        btn.disabled = true;
        if (!safe(st.url)) { fill(msg, [el("span", { class: "error", text: "the authorization URL is not https; not shown" })]); return; }
        const host = new URL(st.url).host;
        fill(msg, [el("span", { text: "Authorize mcpc at " + host + ", then come back: " }),
          el("a", { href: st.url, target: "_blank", rel: "noopener noreferrer", "aria-label": "Open " + host + " to log in to " + name, text: "Open " + host }),
          el("div", { class: "url name", text: st.url })]);
        return;
      }
      case "done":
        fill(msg, [el("span", { text: "logged in to " + name }), v.again ? again(v) : null]);
        return;
      case "failed":
        btn.disabled = false;
        fill(msg, [el("span", { class: "error", role: "alert", text: "Not logged in: " + (st.error || "the login failed") })]);
        return;
    }
  }

  // again is the button that makes the refused call once more, at the
  // person's click: the call may have effects, so the page never repeats
  // it on its own.
  function again(v) {
    return el("button", { type: "button", class: "small", "aria-label": v.again.label, text: "Call again", on: { click: v.again.run } });
  }

  // follow polls the login until it ends.
  function follow(name) {
    if (polling.has(name)) { return; }
    polling.add(name);
    const tick = async () => {
      const st = await api("login?server=" + encodeURIComponent(name)).catch((e) => ({ state: "failed", error: e.message }));
      if (st.state === "waiting" || st.state === "starting") { setTimeout(tick, 1000); return; }
      polling.delete(name);
      if (st.state !== "none") { show(name, st); }
    };
    setTimeout(tick, 1000);
  }

  window.McpAuth = { controls, stepUp };
})();
