// template.js: URI templates (RFC 6570, levels 1 to 3, as resource
// templates use them): the variables a template names, and the URI it
// expands to with the values a person filled in.
"use strict";
window.McpTemplate = (function () {
  const expr = /\{([+#./;?&]?)([^{}]*)\}/g;
  const ops = {
    "": { first: "", sep: ",", named: false, reserved: false },
    "+": { first: "", sep: ",", named: false, reserved: true },
    "#": { first: "#", sep: ",", named: false, reserved: true },
    ".": { first: ".", sep: ".", named: false, reserved: false },
    "/": { first: "/", sep: "/", named: false, reserved: false },
    ";": { first: ";", sep: ";", named: true, reserved: false },
    "?": { first: "?", sep: "&", named: true, reserved: false },
    "&": { first: "&", sep: "&", named: true, reserved: false },
  };
  const name = (v) => v.replace(/(:\d+|\*)$/, "");
  // vars lists the template's variables, each once, with whether it
  // sits in a query (?, &), where leaving it out is usual.
  function vars(t) {
    const out = [], seen = new Set();
    for (const [, op, list] of String(t).matchAll(expr)) {
      for (const v of list.split(",").map((x) => name(x.trim())).filter(Boolean)) {
        if (!seen.has(v)) { seen.add(v); out.push({ name: v, optional: op === "?" || op === "&" }); }
      }
    }
    return out;
  }
  function enc(s, reserved) {
    return reserved ? encodeURI(s).replace(/%25([0-9A-Fa-f]{2})/g, "%$1") : encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  }
  // expand fills t with values (strings; an empty one is left out).
  function expand(t, values) {
    return String(t).replace(expr, (_, op, list) => {
      const o = ops[op];
      const parts = [];
      for (const raw of list.split(",")) {
        const v = raw.trim(), n = name(v), m = /:(\d+)$/.exec(v);
        let val = values[n];
        if (val === undefined || val === null || val === "") { continue; }
        val = String(val);
        if (m) { val = [...val].slice(0, Number(m[1])).join(""); }
        parts.push((o.named ? n + "=" : "") + enc(val, o.reserved));
      }
      return parts.length ? o.first + parts.join(o.sep) : "";
    });
  }
  return { vars, expand };
})();
