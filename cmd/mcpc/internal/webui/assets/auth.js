// auth.js: a server that answered 401 shows that it needs a login, with a
// "Log in to <server>" button that starts mcpc's OAuth flow. The page
// shows the authorization URL as a link that opens only on the person's
// click (in another tab), waits for the redirect to reach mcpc's loopback
// listener, and then lists the server and its tools anew. No token ever
// reaches the page: only the URL and the flow's outcome.
"use strict";
(function () {
  const P = window.McpPage;
  const { el, fill, api } = P;
  const polling = new Set(); // servers whose login the page is following
  const views = new Map(); // server → its button and message, as the list shows them now

  // controls is the server's authorization part of its line in the list,
  // or null for a server that needs no login.
  function controls(s) {
    if (s.state !== "needs-auth") { return null; }
    const box = el("div", { class: "auth", role: "group", "aria-label": "Authorization of " + s.name });
    const msg = el("p", { class: "desc", role: "status" });
    const why = el("span", { class: "needs-login", text: "needs login" + (s.authServer ? " at " + s.authServer : "") });
    box.append(why);
    if (!s.canLogin) { return box; }
    const btn = el("button", { type: "button", class: "small", "aria-label": "Log in to " + s.name, text: "Log in",
      on: { click: () => start(s.name) } });
    box.append(btn, msg);
    views.set(s.name, { btn, msg });
    if (s.login && (s.login.state === "waiting" || s.login.state === "starting")) { show(s.name, s.login); }
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

  async function start(name) {
    const { btn, msg } = views.get(name);
    btn.disabled = true;
    fill(msg, [el("span", { text: "starting the login of " + name + "…" })]);
    show(name, await api("login", { server: name }));
  }

  // show puts the login's state on the page: the link to open while mcpc
  // waits for the person, the outcome after.
  function show(name, st) {
    const { btn, msg } = views.get(name);
    if (st.error && st.state !== "failed") { st = { state: "failed", error: st.error }; }
    switch (st.state) {
      case "waiting": {
        btn.disabled = true;
        if (!safe(st.url)) { fill(msg, [el("span", { class: "error", text: "the authorization URL is not https; not shown" })]); return; }
        const host = new URL(st.url).host;
        fill(msg, [el("span", { text: "Authorize mcpc at " + host + ", then come back: " }),
          el("a", { href: st.url, target: "_blank", rel: "noopener noreferrer", "aria-label": "Open " + host + " to log in to " + name, text: "Open " + host }),
          el("div", { class: "url name", text: st.url })]);
        follow(name);
        return;
      }
      case "done":
        fill(msg, [el("span", { text: "logged in to " + name })]);
        P.status("logged in to " + name);
        P.reload();
        return;
      case "failed":
        btn.disabled = false;
        fill(msg, [el("span", { class: "error", role: "alert", text: "Not logged in: " + (st.error || "the login failed") })]);
        return;
      default:
        follow(name);
    }
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

  window.McpAuth = { controls };
})();
