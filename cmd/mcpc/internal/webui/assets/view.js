// view.js: how values a server sent are shown. A long text or a base64
// payload is collapsed — its size says what it is, and a click opens it
// — so one image or file does not push the rest of a result off the
// page; JSON is shown with such strings elided, whole on request. Text
// only, never HTML.
"use strict";
window.McpView = (function () {
  const LONG = 2000, BLOB = 200;
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) { if (v !== null && v !== undefined) { if (k === "text") { e.textContent = String(v); } else { e.setAttribute(k, v); } } }
    for (const kid of kids) { if (kid !== null && kid !== undefined) { e.append(kid); } }
    return e;
  }
  const isBase64 = (s) => typeof s === "string" && s.length > BLOB && /^[A-Za-z0-9+/=\r\n]+$/.test(s.slice(0, 4096));
  const size = (n) => (n < 1024 ? n + " bytes" : n < 1 << 20 ? (n / 1024).toFixed(1) + " KiB" : (n / (1 << 20)).toFixed(1) + " MiB");
  const b64bytes = (s) => Math.floor(s.replace(/[\r\n=]/g, "").length * 3 / 4);

  // collapsed is a <details> closed by default: summary, then the body,
  // built only when it is first opened.
  function collapsed(summary, body, cls) {
    const d = el("details", { class: "collapsed" + (cls ? " " + cls : "") }, el("summary", { text: summary }));
    d.addEventListener("toggle", () => { if (d.open && d.childElementCount === 1) { d.append(body()); } });
    return d;
  }

  // text shows s in a <pre>, collapsed past LONG characters.
  function text(s, cls) {
    s = typeof s === "string" ? s : String(s);
    if (s.length <= LONG) { return el("pre", { class: cls, text: s }); }
    const box = el("div", { class: cls ? cls + "-box" : null });
    box.append(el("pre", { class: cls, text: s.slice(0, LONG) + "…" }),
      collapsed("Show all " + s.length.toLocaleString() + " characters", () => el("pre", { text: s })));
    return box;
  }

  // blob shows a base64 payload by its size, its characters on request.
  function blob(data, mime) {
    return collapsed((mime ? mime + ", " : "") + size(b64bytes(data)) + " of base64", () => el("pre", { class: "blob", text: data }));
  }

  // elide replaces base64-like and long strings in v, for showing.
  function elide(v, depth) {
    if (depth > 50) { return v; }
    if (typeof v === "string") {
      if (isBase64(v)) { return "‹" + size(b64bytes(v)) + " of base64›"; }
      return v.length > LONG ? v.slice(0, LONG) + "… ‹" + v.length + " characters›" : v;
    }
    if (Array.isArray(v)) { return v.map((x) => elide(x, depth + 1)); }
    if (v && typeof v === "object") { const o = {}; for (const [k, x] of Object.entries(v)) { o[k] = elide(x, depth + 1); } return o; }
    return v;
  }
  function stringify(v) { try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }

  // json shows v as JSON with long strings elided, whole on request.
  function json(v) {
    const full = stringify(v), short = stringify(elide(v, 0));
    if (full === short) { return el("pre", { text: full }); }
    return el("div", {}, el("pre", { text: short }), collapsed("Show the JSON whole (" + size(full.length) + ")", () => el("pre", { text: full })));
  }

  // frame is one JSON-RPC frame as text, its long strings elided.
  function frame(textOf) {
    let v;
    try { v = JSON.parse(textOf); } catch (e) { return textOf.length > LONG ? textOf.slice(0, LONG) + "…" : textOf; }
    const s = JSON.stringify(elide(v, 0));
    return s.length > LONG ? s.slice(0, LONG) + "…" : s;
  }

  const b64 = /^[A-Za-z0-9+/=]*$/;
  function contentItem(c) {
    if (!c || typeof c !== "object") { return el("pre", { text: String(c) }); }
    if (c.type === "text") { return text(typeof c.text === "string" ? c.text : stringify(c.text), "text-content"); }
    if (c.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType) && typeof c.data === "string" && b64.test(c.data)) {
      return el("figure", {}, el("img", { src: "data:" + c.mimeType + ";base64," + c.data, alt: "image from the tool" }), el("figcaption", {}, blob(c.data, c.mimeType)));
    }
    if (c.type === "audio" && /^audio\/[a-z0-9.+-]+$/.test(c.mimeType) && typeof c.data === "string" && b64.test(c.data)) {
      return el("figure", {}, el("audio", { controls: "", src: "data:" + c.mimeType + ";base64," + c.data }), el("figcaption", {}, blob(c.data, c.mimeType)));
    }
    if (c.type === "resource_link") { return el("p", { text: "Link to resource: " + String(c.uri) + (c.name ? " (" + c.name + ")" : "") }); }
    if (c.type === "resource" && c.resource && typeof c.resource === "object") { return resourceItem(c.resource); }
    return json(c);
  }

  // resourceItem shows one resource's contents: text (long text
  // collapsed), or a blob by its size.
  function resourceItem(c) {
    const box = el("div", { class: "resource" }, el("p", { class: "desc", text: [c.uri, c.mimeType].filter(Boolean).join(" · ") }));
    if (typeof c.text === "string") { box.append(text(c.text)); }
    if (typeof c.blob === "string") { box.append(blob(c.blob, c.mimeType)); }
    return box;
  }

  return { text, blob, json, frame, collapsed, isBase64, size, contentItem, resourceItem };
})();
