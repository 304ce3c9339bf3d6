// roots.js: the roots the person lets servers see (file:// URIs), edited
// on the page; every connected server is told when they change.
"use strict";
(function () {
  const P = window.McpPage, $ = (id) => document.getElementById(id);
  const { el, fill, api } = P;
  let roots = [];

  function show() {
    fill($("root-list"), roots.map((r, i) => el("li", {}, el("span", { class: "name", text: r.uri }), r.name ? el("span", { class: "desc", text: " " + r.name }) : null,
      el("button", { type: "button", class: "small", "aria-label": "Remove " + r.uri, text: "Remove", on: { click: () => save(roots.filter((_, j) => j !== i)) } }))));
    $("roots-summary").textContent = "Roots (" + roots.length + ")";
  }
  async function save(next) {
    const r = await api("roots", { roots: next });
    if (r.error) { $("root-result").textContent = "Not changed: " + r.error; return false; }
    roots = r.roots || [];
    $("root-result").textContent = "Roots changed; told " + ((r.told || []).join(", ") || "no server") + ".";
    show();
    return true;
  }
  async function add(ev) {
    ev.preventDefault();
    const uri = $("root-uri").value.trim(), name = $("root-name").value.trim();
    if (!uri) { $("root-result").textContent = "Not added: give a file:// URI."; return; }
    if (await save(roots.concat([name ? { uri, name } : { uri }]))) { $("root-uri").value = ""; $("root-name").value = ""; }
  }
  document.addEventListener("DOMContentLoaded", async () => {
    $("root-form").addEventListener("submit", add);
    const r = await api("roots");
    roots = Array.isArray(r.roots) ? r.roots : [];
    show();
  });
})();
