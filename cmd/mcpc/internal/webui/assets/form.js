// form.js: a form built from a JSON Schema object (a tool's input schema,
// an elicitation's requested schema). Each property gets a labelled
// control for its type; choices (enum, enumNames, oneOf/anyOf of const
// and title, an array of them) become a select or checkboxes; read()
// checks what was entered against the schema — required, types, bounds,
// lengths, format (not pattern: see problem) — and gives the problems instead of a value,
// so that nothing the schema refuses is sent. Server text is set with
// textContent only.
"use strict";
window.McpForm = (function () {
  let seq = 0;
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined) { continue; }
      if (k === "text") { e.textContent = String(v); } else { e.setAttribute(k, v); }
    }
    for (const kid of kids) { if (kid !== null && kid !== undefined && kid !== false) { e.append(kid); } }
    return e;
  }
  const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
  // A server's schema is untrusted: past MAX_FIELDS properties the page
  // lays out no form (the arguments are entered as JSON), and each name,
  // title and description shows at most so many characters.
  const MAX_FIELDS = 200, MAX_NAME = 200, MAX_HELP = 2000;
  const cut = (s, n) => (s.length > n ? s.slice(0, n) + "…" : s);
  const str = (v) => (typeof v === "string" ? v : JSON.stringify(v));

  // choices lists a schema's values with their titles.
  function choices(p) {
    const out = [];
    if (Array.isArray(p.enum)) { p.enum.forEach((v, i) => out.push({ value: v, title: cut(Array.isArray(p.enumNames) && typeof p.enumNames[i] === "string" ? p.enumNames[i] : str(v), MAX_NAME) })); }
    for (const c of [].concat(Array.isArray(p.oneOf) ? p.oneOf : [], Array.isArray(p.anyOf) ? p.anyOf : [])) {
      if (c && typeof c === "object" && "const" in c) { out.push({ value: c.const, title: cut(typeof c.title === "string" ? c.title : str(c.const), MAX_NAME) }); }
    }
    return out.slice(0, 1000);
  }
  function typeOf(p) { return Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type; }

  // control makes the input for one property and its read().
  function control(id, p, type) {
    const opts = choices(p);
    const items = obj(p.items);
    if (type === "array" && choices(items).length) {
      const box = el("div", { class: "choices", role: "group" });
      const list = choices(items).map((c, i) => { const cb = el("input", { type: "checkbox", id: id + "-" + i }); box.append(el("label", { class: "choice" }, cb, " " + c.title)); return [cb, c]; });
      box.read = () => list.filter(([cb]) => cb.checked).map(([, c]) => c.value);
      box.set = (v) => { const want = Array.isArray(v) ? v.map(str) : []; for (const [cb, c] of list) { cb.checked = want.includes(str(c.value)); } };
      box.isEmpty = () => !list.some(([cb]) => cb.checked);
      return box;
    }
    if (opts.length) {
      const s = el("select", { id });
      s.append(el("option", { value: "", text: "—" }));
      opts.forEach((c, i) => s.append(el("option", { value: String(i), text: c.title })));
      s.read = () => (s.value === "" ? undefined : opts[Number(s.value)].value);
      s.set = (v) => { const i = opts.findIndex((c) => str(c.value) === str(v)); s.value = i < 0 ? "" : String(i); };
      return s;
    }
    if (type === "boolean") {
      const cb = el("input", { id, type: "checkbox" });
      cb.addEventListener("change", () => { cb.dataset.touched = "1"; });
      cb.read = () => (cb.dataset.touched || p.default !== undefined ? cb.checked : undefined);
      cb.set = (v) => { cb.checked = v === true; cb.dataset.touched = "1"; };
      return cb;
    }
    if (type === "number" || type === "integer") {
      const i = el("input", { id, type: "text", inputmode: type === "integer" ? "numeric" : "decimal" });
      i.read = () => (i.value.trim() === "" ? undefined : Number(i.value.trim()));
      i.set = (v) => { i.value = v === undefined ? "" : String(v); };
      return i;
    }
    if (type === "string") {
      const i = el("input", { id, type: "text" });
      i.read = () => (i.value === "" ? undefined : i.value);
      i.set = (v) => { i.value = v === undefined ? "" : String(v); };
      return i;
    }
    const t = el("textarea", { id, rows: "3", placeholder: "JSON" });
    t.read = () => { if (t.value.trim() === "") { return undefined; } try { return JSON.parse(t.value); } catch (e) { throw new Error("not JSON: " + e.message); } };
    t.set = (v) => { t.value = v === undefined ? "" : JSON.stringify(v, null, 2); };
    return t;
  }

  // problem says what is wrong with value v of property p, or "".
  function problem(p, type, v) {
    if (type === "integer" && !Number.isInteger(v)) { return "must be a whole number"; }
    if (type === "number" && (typeof v !== "number" || !Number.isFinite(v))) { return "must be a number"; }
    if (typeof v === "number") {
      if (typeof p.minimum === "number" && v < p.minimum) { return "must be at least " + p.minimum; }
      if (typeof p.maximum === "number" && v > p.maximum) { return "must be at most " + p.maximum; }
    }
    if (typeof v === "string") {
      const n = [...v].length;
      if (typeof p.minLength === "number" && n < p.minLength) { return "must be at least " + p.minLength + " characters"; }
      if (typeof p.maxLength === "number" && n > p.maxLength) { return "must be at most " + p.maxLength + " characters"; }
      // No pattern is checked here: a browser's regular expressions
      // backtrack, and a server's pattern (^(a|a)*$ against its own
      // default) can freeze the page. The server checks it; mcpc at the
      // terminal checks it with Go's, whose time is linear.
      if (!formatOK(p.format, v)) { return "must be a valid " + p.format; }
    }
    if (Array.isArray(v)) {
      if (typeof p.minItems === "number" && v.length < p.minItems) { return "choose at least " + p.minItems; }
      if (typeof p.maxItems === "number" && v.length > p.maxItems) { return "choose at most " + p.maxItems; }
    }
    return "";
  }
  function formatOK(format, v) {
    switch (format) {
      case "email": return /^[^\s@]+@[^\s@]+$/.test(v);
      case "uri": try { return !!new URL(v).protocol; } catch (e) { return false; }
      case "date": return /^\d{4}-\d{2}-\d{2}$/.test(v) && !isNaN(Date.parse(v + "T00:00:00Z")) && new Date(v + "T00:00:00Z").toISOString().slice(0, 10) === v;
      case "date-time": return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !isNaN(Date.parse(v));
    }
    return true;
  }

  // build makes the form's fields. opts.titles labels a field by its
  // schema title, else its name (an elicitation's form); otherwise by its
  // name, with its title after it (a tool's).
  function build(schema, opts) {
    opts = opts || {};
    const s = obj(schema), props = obj(s.properties), req = Array.isArray(s.required) ? s.required : [];
    const box = el("div", { class: "fields" });
    const prefix = "f" + (++seq) + "-";
    const count = Object.keys(props).length;
    if (count > MAX_FIELDS) {
      box.append(el("p", { class: "desc too-many", text: count + " arguments, more than a form lays out: enter them as JSON." }));
      return { node: box, tooMany: true, fields: [], required: req, fill: () => false, values: () => ({}),
        read: () => ({ problems: [["the arguments", "are too many for a form: enter them as JSON"]] }) };
    }
    const fields = Object.entries(props).map(([name, raw], n) => {
      const p = obj(raw), type = typeOf(p), id = prefix + n, required = req.includes(name);
      const input = control(id, p, type);
      if (type === "boolean" && required) { input.dataset.touched = "1"; } // unchecked is false, and sent
      const title = typeof p.title === "string" && p.title ? cut(p.title, MAX_NAME) : "";
      const text = opts.titles ? (title || cut(name, MAX_NAME)) : cut(name, MAX_NAME) + (title ? " — " + title : "");
      const help = el("div", { class: "help", id: id + "-help", text: typeof p.description === "string" ? cut(p.description, MAX_HELP) : "" });
      const err = el("div", { class: "field-error", id: id + "-error", role: "alert" });
      input.setAttribute("aria-describedby", help.id + " " + err.id);
      if (required) { input.setAttribute("aria-required", "true"); }
      const label = input.tagName === "DIV" ? el("div", { class: "label", id: id + "-label", text: text }) : el("label", { for: id, text: text });
      if (input.tagName === "DIV") { input.setAttribute("aria-labelledby", label.id); }
      box.append(el("div", { class: "field" + (required ? " required" : "") }, label, input, help, err));
      if (p.default !== undefined) { input.set(p.default); if (!required) { delete input.dataset.touched; } }
      return { name, p, type, input, err, required };
    });
    // read gives {value} or {problems: [[name, why]…]}, marking each field.
    function read() {
      const value = {}, problems = [];
      for (const f of fields) {
        let v, why = "";
        try { v = f.input.read(); } catch (e) { why = e.message; }
        if (!why && (v === undefined || (f.input.isEmpty && f.input.isEmpty() && f.required))) { why = f.required ? "is required" : ""; v = undefined; }
        if (!why && v !== undefined) { why = problem(f.p, f.type, v); }
        f.err.textContent = why;
        if (why) { f.input.setAttribute("aria-invalid", "true"); problems.push([f.name, why]); } else { f.input.removeAttribute("aria-invalid"); }
        if (!why && v !== undefined) { value[f.name] = v; }
      }
      return problems.length ? { problems } : { value };
    }
    // fill sets the fields from values; it reports false when some value
    // has no field of its own (the caller shows the JSON instead).
    function fill(values) {
      const v = obj(values);
      let all = true;
      for (const k of Object.keys(v)) { if (!(k in props)) { all = false; } }
      for (const f of fields) { if (f.name in v) { f.input.set(v[f.name]); } }
      return all;
    }
    // values gives what the fields hold now, unchecked (for a preview).
    function values() {
      const v = {};
      for (const f of fields) { try { const x = f.input.read(); if (x !== undefined) { v[f.name] = x; } } catch (e) { /* not JSON yet */ } }
      return v;
    }
    return { node: box, read, fill, values, fields, required: req };
  }
  return { build, problem, choices };
})();
