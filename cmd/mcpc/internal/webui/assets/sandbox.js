// The sandbox proxy: between the host page (our parent, on another
// origin) and the app (our inner iframe, on an opaque origin). It loads
// the app's HTML when the host sends it and forwards every other message
// both ways, untouched. It creates no request of its own.
"use strict";
(function () {
  const hostOrigin = document.querySelector('meta[name="host-origin"]').content;
  let inner = null;
  function toHost(msg) { window.parent.postMessage(msg, hostOrigin); }
  window.addEventListener("message", (ev) => {
    const m = ev.data;
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") { return; }
    if (ev.source === window.parent && ev.origin === hostOrigin) {
      if (m.method === "ui/notifications/sandbox-resource-ready") {
        if (inner) { return; } // one app per proxy
        const p = m.params || {};
        inner = document.createElement("iframe");
        // No allow-same-origin: the app runs on an opaque origin and
        // cannot reach this page, its storage or its origin's cookies.
        inner.setAttribute("sandbox", "allow-scripts allow-forms");
        if (typeof p.allow === "string" && p.allow) { inner.setAttribute("allow", p.allow); }
        inner.srcdoc = typeof p.html === "string" ? p.html : "";
        document.body.appendChild(inner);
        return;
      }
      if (typeof m.method === "string" && m.method.startsWith("ui/notifications/sandbox-")) { return; }
      if (inner && inner.contentWindow) { inner.contentWindow.postMessage(m, "*"); }
      return;
    }
    if (inner && ev.source === inner.contentWindow) {
      if (typeof m.method === "string" && m.method.startsWith("ui/notifications/sandbox-")) { return; }
      toHost(m);
    }
  });
  toHost({jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {}});
})();
