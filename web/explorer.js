'use strict';
// The toolgen Tool Explorer. Every string that comes from the server reaches
// the page through textContent or a DOM property, never through HTML parsing.
(function () {
  // The API lives where the page is: the page's path without trailing "/",
  // so the explorer works under any prefix (http.StripPrefix).
  var API = location.pathname.replace(/\/+$/, '');
  var THEME_KEY = 'toolgen-explorer-theme';

  var state = {
    token: '',        // "Bearer ..." or ""; kept in memory only, never stored
    tools: [],
    cards: [],        // {tool, li, open, loaded}
    details: {},      // name -> Promise of the detail
    ids: 0,           // counter for the ids of generated form fields
    openTool: ''      // the tool last opened, in the URL's #fragment
  };

  // ---------- DOM helpers ----------

  // el builds an element. props: class, text, and DOM properties/attributes
  // from a fixed, known set. Children are nodes or strings (as text).
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      for (var k in props) {
        if (!Object.prototype.hasOwnProperty.call(props, k)) continue;
        var v = props[k];
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = v;
        else if (k === 'dataset') { for (var d in v) node.dataset[d] = v[d]; }
        else if (k.indexOf('aria-') === 0 || k === 'role' || k === 'for' || k === 'title' || k === 'type' ||
                 k === 'placeholder' || k === 'spellcheck' || k === 'autocomplete' || k === 'id' || k === 'step' ||
                 k === 'hidden' || k === 'alt') {
          node.setAttribute(k, v === true ? '' : String(v));
        } else node[k] = v;
      }
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }
  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function $(id) { return document.getElementById(id); }

  function pretty(v) { return JSON.stringify(v, null, 2); }
  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

  // jsonTokens re-indents JSON text without going through JSON values, so
  // that every number and string is shown exactly as the server sent it (a
  // 64-bit id stays exact). It answers a list of [class, text] pieces, or
  // null when text is not JSON.
  function jsonTokens(text) {
    try { JSON.parse(text); } catch (e) { return null; }
    var out = [];
    var depth = 0;
    var i = 0;
    var n = text.length;
    function nl() { out.push(['', '\n' + new Array(depth + 1).join('  ')]); }
    function skip(j) { while (j < n && /\s/.test(text[j])) j++; return j; }
    while (i < n) {
      var c = text[i];
      if (/\s/.test(c)) { i++; continue; }
      if (c === '{' || c === '[') {
        var close = c === '{' ? '}' : ']';
        var k = skip(i + 1);
        if (text[k] === close) { out.push(['j-punct', c + close]); i = k + 1; continue; }
        out.push(['j-punct', c]); depth++; nl(); i++;
      } else if (c === '}' || c === ']') {
        depth--; nl(); out.push(['j-punct', c]); i++;
      } else if (c === ',') {
        out.push(['j-punct', ',']); nl(); i++;
      } else if (c === ':') {
        out.push(['j-punct', ': ']); i++;
      } else if (c === '"') {
        var j = i + 1;
        while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        out.push([text[skip(j + 1)] === ':' ? 'j-key' : 'j-str', text.slice(i, j + 1)]);
        i = j + 1;
      } else {
        var m = /^[^\s,:\]}]+/.exec(text.slice(i, i + 400)) || [c];
        out.push([/^[-0-9]/.test(m[0]) ? 'j-num' : 'j-lit', m[0]]);
        i += m[0].length;
      }
    }
    return out;
  }

  // compactJSON is JSON text without its insignificant whitespace, every
  // literal kept as written; text that is not JSON comes back as is.
  function compactJSON(text) {
    var tokens = jsonTokens(text);
    if (!tokens) return text;
    return tokens.map(function (p) { return p[0] ? p[1].replace(/^: $/, ':') : ''; }).join('');
  }

  // valueEnd is the index just past the JSON value that starts at i in
  // text (valid JSON).
  function valueEnd(text, i) {
    var c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      return i + 1;
    }
    if (c === '{' || c === '[') {
      var depth = 0;
      for (; i < text.length; i++) {
        c = text[i];
        if (c === '"') i = valueEnd(text, i) - 1;
        else if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
      }
      return i;
    }
    while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    return i;
  }
  function skipSpace(text, i) { while (i < text.length && /\s/.test(text[i])) i++; return i; }

  // rawMembers answers the members of a JSON object, and rawElements the
  // elements of a JSON array, as their source text: shown with codeBlock,
  // every number stays exactly as the server sent it, which JSON.parse
  // would not keep. text must be valid JSON.
  function rawMembers(text) {
    var out = Object.create(null);
    var i = skipSpace(text, 0);
    if (text[i] !== '{') return out;
    i = skipSpace(text, i + 1);
    while (i < text.length && text[i] === '"') {
      var end = valueEnd(text, i);
      var key = JSON.parse(text.slice(i, end));
      i = skipSpace(text, skipSpace(text, end) + 1); // past ':'
      end = valueEnd(text, i);
      out[key] = text.slice(i, end);
      i = skipSpace(text, end);
      if (text[i] === ',') i = skipSpace(text, i + 1);
    }
    return out;
  }
  function rawElements(text) {
    var out = [];
    var i = skipSpace(text, 0);
    if (text[i] !== '[') return out;
    i = skipSpace(text, i + 1);
    while (i < text.length && text[i] !== ']') {
      var end = valueEnd(text, i);
      out.push(text.slice(i, end));
      i = skipSpace(text, end);
      if (text[i] === ',') i = skipSpace(text, i + 1);
    }
    return out;
  }

  // codeBlock shows text in a <pre>, pretty-printed and coloured when it is
  // JSON (an object or an array), as is otherwise.
  function codeBlock(text, cls) {
    var pre = el('pre', { class: 'code' + (cls ? ' ' + cls : '') });
    var t = String(text);
    var first = t.trim()[0];
    var tokens = first === '{' || first === '[' ? jsonTokens(t) : null;
    if (!tokens) { pre.textContent = t; return pre; }
    pre.classList.add('json');
    if (tokens.length > 20000) { // too big to colour quickly: indent only
      pre.textContent = tokens.map(function (p) { return p[1]; }).join('');
      return pre;
    }
    tokens.forEach(function (p) {
      pre.appendChild(p[0] ? el('span', { class: p[0], text: p[1] }) : document.createTextNode(p[1]));
    });
    return pre;
  }

  // ---------- HTTP ----------

  function toolURL(name, suffix) {
    return API + '/tools/' + encodeURIComponent(name) + (suffix || '');
  }

  // request answers {status, body, text}; body is the parsed JSON or null.
  function request(url, opts) {
    return fetch(url, opts).then(function (resp) {
      return resp.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
        return { status: resp.status, statusText: resp.statusText, body: body, text: text };
      });
    });
  }

  function errorMessage(r) {
    if (r.body && typeof r.body.error === 'string') return r.body.error;
    if (r.body && typeof r.body.detail === 'string') return r.body.detail; // the /v1 surface's errors
    return 'HTTP ' + r.status + (r.statusText ? ' ' + r.statusText : '');
  }

  // hashName is the page's #fragment, decoded ("" when there is none).
  function hashName() {
    var h = location.hash.replace(/^#/, '');
    try { return decodeURIComponent(h); } catch (e) { return h; }
  }
  function setHash(hash) {
    try { history.replaceState(null, '', hash || location.pathname + location.search); } catch (e) { /* ignore */ }
  }

  // ---------- Theme ----------

  function currentTheme() { return document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light'; }
  function paintThemeButton() {
    var dark = currentTheme() === 'dark';
    var b = $('theme-toggle');
    clear(b);
    b.appendChild(el('span', { class: 'theme-icon ' + (dark ? 'sun' : 'moon'), 'aria-hidden': 'true' }));
    b.setAttribute('aria-pressed', dark ? 'true' : 'false');
    b.title = dark ? 'Switch to light mode' : 'Switch to dark mode';
  }
  function toggleTheme() {
    var next = currentTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.setAttribute('data-theme', next);
    try { localStorage.setItem(THEME_KEY, next); } catch (e) { /* storage may be unavailable */ }
    paintThemeButton();
  }

  // ---------- Auth bar ----------

  function normalizeToken(raw) {
    var v = (raw || '').trim();
    if (!v) return '';
    var m = /^bearer\s+(.*)$/i.exec(v);
    if (m) v = m[1].trim();
    return v ? 'Bearer ' + v : '';
  }
  function setToken(raw) {
    state.token = normalizeToken(raw);
    var s = $('token-status');
    s.textContent = state.token ? 'Token set' : 'No token';
    s.classList.toggle('set', !!state.token);
    $('token-clear').hidden = !state.token;
    document.dispatchEvent(new Event('explorer:token'));
  }
  // The auth bar shows when the server has an auth hook. A 401 shows it
  // too: something in front of the server (a proxy) may want a token that
  // the server itself does not know about.
  function showAuthBar() { $('auth').hidden = false; }

  // ---------- Schemas ----------

  // resolve follows a local $ref ("#/$defs/X", "#/definitions/X").
  function resolve(schema, root, seen) {
    seen = seen || 0;
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === 'string' && seen < 16) {
      var m = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
      if (m && root && isObject(root[m[1]])) {
        var key = decodeURIComponent(m[2]).replace(/~1/g, '/').replace(/~0/g, '~');
        var target = root[m[1]][key];
        if (isObject(target)) {
          var merged = Object.assign({}, resolve(target, root, seen + 1));
          for (var k in schema) if (k !== '$ref') merged[k] = schema[k];
          merged.__ref = key;
          return merged;
        }
      }
    }
    return schema;
  }

  function typeOfValue(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
    return typeof v;
  }

  function typeLabel(schema, root, depth) {
    depth = depth || 0;
    var s = resolve(schema, root);
    if (depth > 4) return 'any';
    var t = s.type;
    var label;
    if (Array.isArray(t)) {
      label = t.map(function (x) {
        return x === 'array' ? typeLabel(Object.assign({}, s, { type: 'array' }), root, depth + 1) : x;
      }).join(' | ');
    } else if (t === 'array') {
      var items = s.items || s.prefixItems && s.prefixItems[0];
      label = items ? typeLabel(items, root, depth + 1) + '[]' : 'array';
    } else if (typeof t === 'string') {
      label = t;
    } else if (s.const !== undefined) {
      label = typeOfValue(s.const);
    } else if (Array.isArray(s.enum) && s.enum.length) {
      label = Array.from(new Set(s.enum.map(typeOfValue))).join(' | ');
    } else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      label = (s.anyOf || s.oneOf).map(function (x) { return typeLabel(x, root, depth + 1); }).join(' | ');
    } else if (isObject(s.properties)) {
      label = 'object';
    } else {
      label = 'any';
    }
    if (s.format && typeof s.format === 'string') label += ' (' + s.format + ')';
    if (s.nullable === true && label.indexOf('null') < 0) label += ' | null';
    return label;
  }

  function constraints(s) {
    var out = [];
    function add(k, f) { if (s[k] !== undefined && s[k] !== null) out.push(f(s[k])); }
    add('minimum', function (v) { return '\u2265 ' + v; });
    add('exclusiveMinimum', function (v) { return '> ' + v; });
    add('maximum', function (v) { return '\u2264 ' + v; });
    add('exclusiveMaximum', function (v) { return '< ' + v; });
    add('multipleOf', function (v) { return 'multiple of ' + v; });
    add('minLength', function (v) { return 'min length ' + v; });
    add('maxLength', function (v) { return 'max length ' + v; });
    add('pattern', function (v) { return 'pattern ' + v; });
    add('minItems', function (v) { return 'min items ' + v; });
    add('maxItems', function (v) { return 'max items ' + v; });
    if (s.uniqueItems === true) out.push('unique items');
    add('minProperties', function (v) { return 'min properties ' + v; });
    add('maxProperties', function (v) { return 'max properties ' + v; });
    if (s.deprecated === true) out.push('deprecated');
    if (s.readOnly === true) out.push('read-only');
    return out;
  }

  function literal(v) { return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v); }

  // nested finds the object schema inside a property whose value has
  // properties of its own: an object, an array of objects (at any depth of
  // arrays), either of them nullable (type ["array", "null"], as Go slices
  // and pointers come out) or the one branch of an anyOf/oneOf that is not
  // null. It answers {schema, path} with the path's suffix ("." or "[]."),
  // or null.
  function nested(schema, root, depth) {
    depth = depth || 0;
    var s = resolve(schema, root);
    if (depth > 4) return null;
    if (isObject(s.properties)) return { schema: s, path: '.' };
    var t = s.type;
    if ((t === 'array' || Array.isArray(t) && t.indexOf('array') >= 0) && isObject(s.items)) {
      var inner = nested(s.items, root, depth + 1);
      return inner ? { schema: inner.schema, path: '[]' + inner.path } : null;
    }
    var alts = Array.isArray(s.anyOf) ? s.anyOf : s.oneOf;
    if (Array.isArray(alts)) {
      var some = alts.filter(function (a) { return resolve(a, root).type !== 'null'; });
      if (some.length === 1) return nested(some[0], root, depth + 1);
    }
    return null;
  }

  // rows flattens an object schema into table rows, nested properties as
  // dotted paths ("address.city", "items[].id"), in the input's table and
  // the output's alike.
  function rows(schema, root, prefix, depth, out) {
    var s = resolve(schema, root);
    if (depth > 4 || !isObject(s.properties)) return out;
    var required = Array.isArray(s.required) ? s.required : [];
    Object.keys(s.properties).forEach(function (name) {
      var p = resolve(s.properties[name], root);
      out.push({ prefix: prefix, name: name, schema: p, required: required.indexOf(name) >= 0 });
      var inner = nested(p, root);
      if (inner) rows(inner.schema, root, prefix + name + inner.path, depth + 1, out);
    });
    return out;
  }

  function describeCell(s, root) {
    var cell = el('td', { class: 'arg-desc' });
    var desc = s.description || s.title || '';
    if (desc) append(cell, el('div', { text: desc }));
    var values = Array.isArray(s.enum) ? s.enum : (s.const !== undefined ? [s.const] : null);
    if (!values && Array.isArray(s.items && resolve(s.items, root).enum)) values = resolve(s.items, root).enum;
    if (values) {
      append(cell, el('div', { class: 'chips' },
        el('span', { class: 'chip-label', text: s.const !== undefined ? 'Constant:' : 'One of:' }),
        values.map(function (v) { return el('code', { class: 'chip', text: literal(v) }); })));
    }
    var c = constraints(s);
    var examples = Array.isArray(s.examples) ? s.examples : (s.example !== undefined ? [s.example] : []);
    if (c.length || examples.length) {
      append(cell, el('div', { class: 'chips' },
        c.map(function (x) { return el('span', { class: 'chip chip-constraint', text: x }); }),
        examples.length ? el('span', { class: 'chip-label', text: 'e.g.' }) : null,
        examples.map(function (x) { return el('code', { class: 'chip', text: literal(x) }); })));
    }
    if (!cell.firstChild) append(cell, el('span', { class: 'muted', text: '\u2014' }));
    return cell;
  }

  // schemaTable shows an object schema's properties. The input's table has
  // every column; the output's leaves out Required and Default (which say
  // little about a result) unless some property has a default.
  function schemaTable(schema, isInput) {
    var root = schema;
    var list = rows(schema, root, '', 0, []);
    var withRequired = isInput;
    var withDefault = isInput || list.some(function (r) { return r.schema.default !== undefined; });
    var thead = el('thead', null, el('tr', null,
      el('th', { text: 'Name' }), el('th', { text: 'Type' }),
      withRequired ? el('th', { text: 'Required' }) : null,
      withDefault ? el('th', { text: 'Default' }) : null, el('th', { text: 'Description' })));
    var tbody = el('tbody');
    list.forEach(function (r) {
      var nameCell = el('td', { class: 'arg-name' },
        el('code', null, r.prefix ? el('span', { class: 'arg-path', text: r.prefix }) : null, r.name));
      tbody.appendChild(el('tr', { dataset: { arg: r.prefix + r.name } },
        nameCell,
        el('td', null, el('code', { class: 'type', text: typeLabel(r.schema, root) })),
        withRequired ? el('td', { class: 'arg-required' }, r.required
          ? el('span', { class: 'req', text: 'required' })
          : el('span', { class: 'opt', text: 'optional' })) : null,
        withDefault ? el('td', null, r.schema.default !== undefined
          ? el('code', { class: 'default-val', text: literal(r.schema.default) })
          : el('span', { class: 'muted', text: '\u2014' })) : null,
        describeCell(r.schema, root)));
    });
    return el('div', { class: 'table-wrap' }, el('table', { class: 'args' }, thead, tbody));
  }

  // schemaSection shows a schema as a table (or a sentence when it has no
  // properties) with the raw JSON one click away.
  function schemaSection(heading, schema, kind) {
    var raw = codeBlock(pretty(schema), 'raw-schema');
    raw.hidden = true;
    var toggle = el('button', { type: 'button', class: 'btn-link raw-toggle', text: 'Show raw schema', 'aria-expanded': 'false' });
    toggle.addEventListener('click', function () {
      var show = raw.hidden;
      raw.hidden = !show;
      toggle.textContent = show ? 'Hide raw schema' : 'Show raw schema';
      toggle.setAttribute('aria-expanded', show ? 'true' : 'false');
    });
    var s = resolve(schema, schema);
    var body;
    if (isObject(s.properties) && Object.keys(s.properties).length) {
      body = schemaTable(schema, kind === 'input');
    } else if (kind === 'input') {
      body = el('p', { class: 'plain-note', text: isObject(s.properties) || s.additionalProperties === false
        ? 'This tool takes no arguments.' : 'This tool accepts any JSON object as arguments.' });
    } else {
      body = el('p', { class: 'plain-note' }, 'Returns ', el('code', { class: 'type', text: typeLabel(s, schema) }),
        s.description ? ': ' + s.description : '.');
    }
    return el('section', { class: 'section ' + kind + '-schema' },
      el('div', { class: 'section-head' }, el('h3', { text: heading }), toggle), body, raw);
  }

  // ---------- Try-it console ----------

  // prefill holds only the schema's required keys, each its default or null.
  function prefill(schema) {
    var s = resolve(schema, schema);
    var out = {};
    var props = isObject(s.properties) ? s.properties : {};
    (Array.isArray(s.required) ? s.required : []).forEach(function (k) {
      var p = resolve(props[k], schema);
      out[k] = p.default !== undefined ? p.default : null;
    });
    return out;
  }

  function scalarType(p) {
    var t = p.type;
    if (Array.isArray(t)) {
      var rest = t.filter(function (x) { return x !== 'null'; });
      t = rest.length === 1 ? rest[0] : null;
    }
    return t;
  }

  // formFields returns the fields of a flat object schema (strings, numbers,
  // booleans, enums), or null when the schema needs the JSON editor.
  function formFields(schema) {
    var s = resolve(schema, schema);
    if (!isObject(s.properties)) return null;
    var names = Object.keys(s.properties);
    if (!names.length) return null;
    var required = Array.isArray(s.required) ? s.required : [];
    var fields = [];
    for (var i = 0; i < names.length; i++) {
      var p = resolve(s.properties[names[i]], schema);
      var f = { name: names[i], schema: p, required: required.indexOf(names[i]) >= 0 };
      if (Array.isArray(p.enum) && p.enum.length && p.enum.every(function (v) { return v === null || typeof v !== 'object'; })) {
        f.kind = 'enum';
      } else {
        var t = scalarType(p);
        if (t === 'string' || t === 'number' || t === 'integer' || t === 'boolean') f.kind = t;
        else return null;
      }
      fields.push(f);
    }
    return fields;
  }

  function shellQuote(s) { return "'" + String(s).replace(/'/g, "'\\''") + "'"; }

  function curlCommand(name, body, token, mask) {
    var url = location.origin + toolURL(name, '/call');
    var lines = ['curl -X POST ' + shellQuote(url), "  -H 'Content-Type: application/json'"];
    if (token) lines.push('  -H ' + shellQuote('Authorization: ' + (mask ? 'Bearer \u2022\u2022\u2022\u2022\u2022\u2022' : token)));
    lines.push('  -d ' + shellQuote(body));
    return lines.join(' \\\n');
  }

  function copyText(text) {
    function fallback() {
      var ta = el('textarea', { class: 'offscreen' });
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      return ok;
    }
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, fallback);
    }
    return Promise.resolve(fallback());
  }

  var DISABLED_MESSAGE = 'Tool execution is disabled. Launch with --allow-execute to enable.';
  var UNAUTHORIZED_MESSAGE = 'Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page and run the tool again.';

  function disabledBox() {
    return el('div', { class: 'disabled-msg', text: DISABLED_MESSAGE });
  }

  function buildConsole(tool, container) {
    var schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
    var fields = formFields(schema);
    var initial = pretty(prefill(schema));

    var editor = el('textarea', { class: 'editor', spellcheck: 'false', 'aria-label': 'Arguments (JSON)', rows: 6 });
    editor.value = initial;
    editor.rows = Math.min(14, Math.max(4, initial.split('\n').length + 1));
    var jsonError = el('div', { class: 'json-error', role: 'alert', hidden: true });
    var validation = el('div', { class: 'validation', 'aria-live': 'polite', hidden: true });
    var runBtn = el('button', { type: 'button', class: 'btn btn-primary run-btn', text: 'Run tool' });
    var hint = el('span', { class: 'muted run-hint' });
    var curlPre = el('pre', { class: 'code curl-command', title: 'The copied command includes your token.' });
    var copyBtn = el('button', { type: 'button', class: 'btn btn-ghost btn-sm copy-btn', text: 'Copy' });
    var result = el('div', { class: 'result-area' });
    var jsonWrap = el('div', { class: 'json-mode' }, editor, jsonError);
    var formWrap = null;
    var inputs = {};

    // --- form ---
    function fieldValue(f) {
      var inp = inputs[f.name];
      var v = inp.value;
      if (v === '') return undefined;
      if (f.kind === 'enum') return f.schema.enum[Number(v)];
      if (f.kind === 'boolean') return v === 'true';
      if (f.kind === 'number' || f.kind === 'integer') { var n = Number(v); return isNaN(n) ? v : n; }
      return v;
    }
    function fillForm(obj) {
      if (!fields) return;
      fields.forEach(function (f) {
        var v = isObject(obj) ? obj[f.name] : undefined;
        var inp = inputs[f.name];
        if (v === undefined || v === null) { inp.value = ''; return; }
        if (f.kind === 'enum') {
          var idx = -1;
          f.schema.enum.forEach(function (e, i) { if (idx < 0 && e === v) idx = i; });
          inp.value = idx >= 0 ? String(idx) : '';
        } else inp.value = String(v);
      });
    }
    function formChanged() {
      var base;
      try { base = JSON.parse(editor.value); } catch (e) { base = {}; }
      if (!isObject(base)) base = {};
      var out = {};
      fields.forEach(function (f) {
        var v = fieldValue(f);
        if (v !== undefined) out[f.name] = v;
      });
      // keep keys typed in the JSON editor that the form does not show
      Object.keys(base).forEach(function (k) {
        if (!Object.prototype.hasOwnProperty.call(inputs, k)) out[k] = base[k];
      });
      editor.value = pretty(out);
      changed();
    }
    if (fields) {
      var grid = el('div', { class: 'form-grid' });
      fields.forEach(function (f) {
        var id = 'field-' + (++state.ids);
        var p = f.schema;
        var inp;
        if (f.kind === 'enum' || f.kind === 'boolean') {
          inp = el('select', { id: id, name: f.name });
          var values = f.kind === 'enum' ? p.enum : [true, false];
          var unset = f.required ? 'Choose\u2026' : '(not set)';
          if (p.default !== undefined) unset = '(not set: default ' + (typeof p.default === 'string' ? p.default : JSON.stringify(p.default)) + ')';
          append(inp, el('option', { value: '', text: unset }));
          values.forEach(function (v, i) {
            append(inp, el('option', { value: f.kind === 'enum' ? String(i) : String(v), text: typeof v === 'string' ? v : JSON.stringify(v) }));
          });
        } else {
          inp = el('input', { id: id, name: f.name, type: f.kind === 'string' ? 'text' : 'number', autocomplete: 'off', spellcheck: 'false' });
          if (f.kind === 'integer') inp.step = '1';
          if (f.kind === 'number') inp.step = 'any';
          if (p.default !== undefined) inp.placeholder = 'default: ' + (typeof p.default === 'string' ? p.default : JSON.stringify(p.default));
          else if (p.format) inp.placeholder = p.format;
        }
        inp.dataset.field = f.name;
        inp.addEventListener('input', formChanged);
        inp.addEventListener('change', formChanged);
        inputs[f.name] = inp;
        var hintText = [typeLabel(p, schema)];
        if (p.description) hintText.push(p.description);
        grid.appendChild(el('label', { for: id }, f.name, f.required ? el('span', { class: 'req', text: '*', title: 'required' }) : null));
        grid.appendChild(el('div', { class: 'field' }, inp, el('div', { class: 'hint', text: hintText.join(' \u00b7 ') })));
      });
      formWrap = el('div', { class: 'form-mode' }, grid);
      fillForm(prefill(schema));
    }

    // --- mode switch ---
    var modeBar = null;
    function setMode(mode) {
      if (!formWrap) return;
      if (mode === 'form') {
        var parsed;
        try { parsed = JSON.parse(editor.value); } catch (e) {
          showJSONError(e);
          return; // stay in JSON until it parses
        }
        fillForm(parsed);
      }
      formWrap.hidden = mode !== 'form';
      jsonWrap.hidden = mode === 'form';
      Array.prototype.forEach.call(modeBar.children, function (b) {
        b.setAttribute('aria-selected', b.dataset.mode === mode ? 'true' : 'false');
      });
    }
    if (formWrap) {
      modeBar = el('div', { class: 'segmented', role: 'tablist', 'aria-label': 'Input mode' },
        el('button', { type: 'button', role: 'tab', dataset: { mode: 'form' }, text: 'Form' }),
        el('button', { type: 'button', role: 'tab', dataset: { mode: 'json' }, text: 'JSON' }));
      modeBar.addEventListener('click', function (ev) {
        var b = ev.target.closest('button');
        if (b) setMode(b.dataset.mode);
      });
    }

    // --- JSON parsing, validation and cURL ---
    function showJSONError(e) {
      jsonError.textContent = 'Invalid JSON: ' + (e && e.message ? e.message : String(e));
      jsonError.hidden = false;
      editor.classList.add('invalid');
    }
    function parseEditor() {
      var text = editor.value.trim() === '' ? '{}' : editor.value;
      try {
        var v = JSON.parse(text);
        jsonError.hidden = true;
        editor.classList.remove('invalid');
        return { ok: true, value: v };
      } catch (e) {
        showJSONError(e);
        if (formWrap && !formWrap.hidden) setMode('json');
        return { ok: false };
      }
    }
    // bodyText is the arguments as sent: the editor's JSON, compacted but
    // otherwise as typed, so that a number too large for JavaScript still
    // reaches the tool exactly.
    function bodyText() {
      return compactJSON(editor.value.trim() === '' ? '{}' : editor.value.trim());
    }
    function updateCurl() {
      curlPre.textContent = curlCommand(tool.name, bodyText(), state.token, true);
    }

    var seq = 0;
    var lastValid = null;
    function showValidation(v) {
      clear(validation);
      validation.hidden = false;
      if (v.valid) {
        validation.className = 'validation ok';
        validation.textContent = '\u2713 Arguments are valid';
        return;
      }
      var errs = Array.isArray(v.errors) ? v.errors : [];
      validation.className = 'validation bad';
      append(validation, el('div', { text: errs.length === 1 ? '1 problem with the arguments:' : errs.length + ' problems with the arguments:' }));
      append(validation, el('ul', null, errs.map(function (e) {
        return el('li', null, el('code', { text: e.path || '(arguments)' }), ' ', String(e.message || ''));
      })));
    }
    // validate asks the server whether the arguments are valid. The answer
    // is shown once the user has changed something (quiet is for the first
    // check, so that a fresh console does not open with complaints).
    function validate(quiet) {
      var p = parseEditor();
      if (!p.ok) { validation.hidden = true; return Promise.resolve(null); }
      var my = ++seq;
      return request(toolURL(tool.name, '/validate'), {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: bodyText()
      }).then(function (r) {
        if (my !== seq) return lastValid;
        if (r.body && typeof r.body.valid === 'boolean') {
          lastValid = r.body;
          if (quiet !== true) showValidation(r.body);
          return r.body;
        }
        validation.hidden = true;
        return null;
      }, function () { if (my === seq) validation.hidden = true; return null; });
    }
    var timer = 0;
    function changed() {
      updateCurl();
      clearTimeout(timer);
      timer = setTimeout(validate, 250);
    }
    editor.addEventListener('input', changed);
    editor.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
    });
    document.addEventListener('explorer:token', updateCurl);

    copyBtn.addEventListener('click', function () {
      copyText(curlCommand(tool.name, bodyText(), state.token, false)).then(function (ok) {
        copyBtn.textContent = ok ? 'Copied!' : 'Copy failed';
        clearTimeout(copyBtn._t);
        copyBtn._t = setTimeout(function () { copyBtn.textContent = 'Copy'; }, 1500);
      });
    });

    // --- run ---
    var running = false;
    function run() {
      if (running) return;
      clearTimeout(timer);
      if (!parseEditor().ok) { editor.focus(); return; } // invalid JSON: nothing is sent
      var body = bodyText();
      running = true;
      runBtn.disabled = true;
      runBtn.textContent = 'Executing...';
      hint.textContent = '';
      validate().then(function (v) {
        if (v && v.valid === false) {
          hint.textContent = 'Fix the arguments above, then run again.';
          return null;
        }
        var headers = { 'Content-Type': 'application/json' };
        if (state.token) headers.Authorization = state.token;
        var started = performance.now();
        return request(toolURL(tool.name, '/call'), { method: 'POST', headers: headers, body: body })
          .then(function (r) { showResult(r, performance.now() - started); },
            function (e) { showFailure(e, performance.now() - started); });
      }).then(function () {
        running = false;
        runBtn.disabled = false;
        runBtn.textContent = 'Run tool';
      });
    }
    runBtn.addEventListener('click', run);

    function showFailure(e, ms) { showNoResponse(result, e, ms); }

    function showResult(r, ms) {
      if (r.status === 403) { // execution disabled on the server
        clear(container);
        container.appendChild(el('div', { class: 'section-head' }, el('h3', { text: 'Try it' })));
        container.appendChild(disabledBox());
        return;
      }
      clear(result);
      var body = r.body;
      var isResult = isObject(body) && Array.isArray(body.content);
      var isError = r.status >= 400 || (isResult && body.isError === true);
      var panel = el('div', { class: 'result-panel result-view', role: 'tabpanel' });
      if (r.status === 401) {
        showAuthBar();
        panel.appendChild(unauthorizedBox(UNAUTHORIZED_MESSAGE));
      } else if (isResult) {
        renderContent(panel, body);
      } else if (isObject(body) && typeof body.error === 'string') {
        panel.appendChild(el('div', { class: 'error-box', text: body.error }));
      } else {
        panel.appendChild(el('pre', { class: 'code', text: r.text || errorMessage(r) }));
      }
      var raw = el('div', { class: 'result-panel raw-view', role: 'tabpanel', hidden: true },
        codeBlock(r.text || ''));
      var tabs = resultTabs(panel, raw, 'Result', 'Raw MCP');
      var meta = el('div', { class: 'result-meta' },
        el('span', { class: 'status' + (isError ? ' bad' : ''), text: statusLabel(r, isResult && body.isError === true) }),
        isObject(body) && isObject(body._meta) && body._meta._trace_id
          ? el('span', { class: 'trace mono', title: 'Trace id', text: 'trace ' + String(body._meta._trace_id) }) : null,
        el('span', { class: 'elapsed', text: formatMs(ms) }));
      append(result, el('div', { class: 'result' + (isError ? ' is-error' : ''), dataset: { status: String(r.status) } },
        el('div', { class: 'result-head' }, tabs, meta), panel, raw));
    }

    // --- assemble ---
    var head = el('div', { class: 'section-head' }, el('h3', { text: 'Try it' }), modeBar);
    container.appendChild(el('div', { class: 'console' },
      formWrap, jsonWrap, validation,
      el('div', { class: 'run-row' }, runBtn, hint),
      el('div', { class: 'curl' },
        el('div', { class: 'curl-head' }, el('span', { text: 'cURL' }), copyBtn), curlPre),
      result));
    container.insertBefore(head, container.firstChild);
    if (formWrap) setMode('form');
    updateCurl();
    validate(true);

    return {
      load: function (args) {
        editor.value = pretty(args);
        if (formWrap && !formWrap.hidden) fillForm(args);
        changed();
      }
    };
  }

  // showNoResponse shows in area that a request got no answer.
  function showNoResponse(area, e, ms) {
    clear(area);
    append(area, el('div', { class: 'result is-error' },
      el('div', { class: 'result-head' }, el('span', { class: 'content-label', text: 'No response' }),
        el('div', { class: 'result-meta' }, el('span', { class: 'elapsed', text: formatMs(ms) }))),
      el('div', { class: 'result-panel' }, el('div', { class: 'error-box', text: 'Request failed: ' + (e && e.message ? e.message : String(e)) }))));
  }

  // resultTabs switches a result between its rendered view (panel) and
  // the raw answer.
  function resultTabs(panel, raw, label, rawLabel) {
    var tabs = el('div', { class: 'tabs', role: 'tablist' },
      el('button', { type: 'button', role: 'tab', 'aria-selected': 'true', dataset: { tab: 'result' }, text: label }),
      el('button', { type: 'button', role: 'tab', 'aria-selected': 'false', dataset: { tab: 'raw' }, text: rawLabel }));
    tabs.addEventListener('click', function (ev) {
      var b = ev.target.closest('button');
      if (!b) return;
      Array.prototype.forEach.call(tabs.children, function (x) { x.setAttribute('aria-selected', x === b ? 'true' : 'false'); });
      panel.hidden = b.dataset.tab !== 'result';
      raw.hidden = b.dataset.tab !== 'raw';
    });
    return tabs;
  }

  // unauthorizedBox asks for a Bearer token, with a button to the token
  // field.
  function unauthorizedBox(message) {
    var enter = el('button', { type: 'button', class: 'btn btn-sm focus-token', text: 'Enter a token' });
    enter.addEventListener('click', function () { $('token-input').focus(); });
    return el('div', { class: 'error-box unauthorized' }, el('p', { text: message }), enter);
  }

  function statusLabel(r, isErr) {
    var names = { 200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 413: 'Too Large', 500: 'Error', 504: 'Timeout' };
    var s = r.status + ' ' + (names[r.status] || r.statusText || '');
    if (isErr) s += ' \u00b7 isError';
    return s.trim();
  }

  function formatMs(ms) {
    if (ms < 1000) return Math.max(0, Math.round(ms)) + ' ms';
    return (ms / 1000).toFixed(2) + ' s';
  }

  function safeHref(u) {
    return typeof u === 'string' && /^https?:\/\//i.test(u.replace(/[\t\n\r]/g, '').trim());
  }

  function renderText(text) {
    return codeBlock(String(text), 'result-text');
  }

  function renderContent(panel, body) {
    if (!body.content.length) {
      panel.appendChild(el('p', { class: 'muted', text: body.structuredContent !== undefined ? '' : '(no content)' }));
    }
    body.content.forEach(function (c) { renderBlock(panel, c); });
    if (!body.content.length && body.structuredContent !== undefined) {
      panel.appendChild(codeBlock(pretty(body.structuredContent), 'result-text'));
    }
  }

  // renderBlock shows one MCP content block: a tool result's, a prompt
  // message's.
  function renderBlock(panel, c) {
    if (!isObject(c)) return;
    var type = c.type;
    if (type === 'text') {
      panel.appendChild(renderText(c.text || ''));
    } else if ((type === 'image' || type === 'audio') && typeof c.data === 'string') {
      var mime = typeof c.mimeType === 'string' && /^[a-z]+\/[a-z0-9.+-]+$/i.test(c.mimeType) ? c.mimeType : (type === 'image' ? 'image/png' : 'audio/wav');
      var src = 'data:' + mime + ';base64,' + c.data.replace(/[^A-Za-z0-9+/=]/g, '');
      if (type === 'image') {
        panel.appendChild(el('img', { class: 'result-image', alt: 'Image result (' + mime + ')', src: src }));
      } else {
        panel.appendChild(el('audio', { controls: true, src: src }));
      }
    } else if (type === 'resource' && isObject(c.resource)) {
      renderResourceContents(panel, c.resource, 'Resource ');
    } else if (type === 'resource_link') {
      var label = String(c.title || c.name || c.uri || '');
      panel.appendChild(el('div', { class: 'content-label' }, 'Link: ',
        safeHref(c.uri) ? el('a', { href: c.uri, target: '_blank', rel: 'noopener noreferrer', text: label })
          : el('code', { text: label + (c.uri && c.uri !== label ? ' \u2014 ' + c.uri : '') }),
        c.description ? ' \u2014 ' + c.description : ''));
    } else {
      panel.appendChild(codeBlock(pretty(c)));
    }
  }

  // ---------- Tool list ----------

  function badges(a) {
    var out = [];
    if (!isObject(a)) return out;
    if (a.readOnlyHint === true) out.push(el('span', { class: 'badge badge-readonly', text: 'read-only' }));
    if (a.destructiveHint === true) out.push(el('span', { class: 'badge badge-destructive', text: 'destructive' }));
    if (a.idempotentHint === true) out.push(el('span', { class: 'badge badge-idempotent', text: 'idempotent' }));
    if (a.openWorldHint === false) out.push(el('span', { class: 'badge badge-closedworld', text: 'closed world' }));
    return out;
  }

  // policyBadges show what a call of the tool needs and may expect: the
  // scopes a caller must have, its rate limit, its timeout.
  function policyBadges(t) {
    var out = [];
    if (Array.isArray(t.scopes) && t.scopes.length) {
      out.push(el('span', { class: 'badge badge-scopes', title: 'A caller needs these scopes', text: 'needs ' + t.scopes.map(String).join(' ') }));
    }
    if (typeof t.rateLimit === 'string' && t.rateLimit) {
      out.push(el('span', { class: 'badge badge-ratelimit', title: 'Calls allowed per caller', text: t.rateLimit }));
    }
    if (typeof t.timeout === 'string' && t.timeout) {
      out.push(el('span', { class: 'badge badge-timeout', title: 'How long a call may run', text: 'timeout ' + t.timeout }));
    }
    return out;
  }

  function firstLine(s) {
    var t = String(s || '').trim();
    var i = t.indexOf('\n');
    return i >= 0 ? t.slice(0, i) : t;
  }

  function loadDetail(name) {
    if (!state.details[name]) {
      state.details[name] = request(toolURL(name), { headers: authHeaders({ Accept: 'application/json' }) }).then(function (r) {
        if (r.status !== 200 || !isObject(r.body)) throw new Error(errorMessage(r));
        return r.body;
      });
      state.details[name].catch(function () { delete state.details[name]; });
    }
    return state.details[name];
  }

  function renderDetail(card, tool) {
    var body = card.body;
    clear(body);
    var t = Object.assign({}, card.tool, tool);
    if (t.description) body.appendChild(el('p', { class: 'description', text: t.description }));
    if (t.signature) body.appendChild(el('code', { class: 'signature', text: t.signature }));
    body.appendChild(schemaSection('Arguments', isObject(t.inputSchema) ? t.inputSchema : {}, 'input'));
    if (t.outputSchema !== undefined && t.outputSchema !== null) body.appendChild(schemaSection('Output', t.outputSchema, 'output'));
    var consoleBox = el('section', { class: 'section try-it' });
    var api = null;
    if (Array.isArray(t.examples) && t.examples.length) {
      body.appendChild(el('section', { class: 'section examples-section' },
        el('div', { class: 'section-head' }, el('h3', { text: t.examples.length === 1 ? 'Example' : 'Examples' })),
        el('div', { class: 'examples' }, t.examples.map(function (ex) {
          var use = null;
          if (ALLOW_EXECUTE) {
            use = el('button', { type: 'button', class: 'btn btn-sm use-example', text: 'Use' });
            use.addEventListener('click', function () { if (api) api.load(ex); });
          }
          return el('div', { class: 'example' }, el('code', { text: JSON.stringify(ex) }), use);
        }))));
    }
    body.appendChild(consoleBox);
    if (ALLOW_EXECUTE) {
      api = buildConsole(t, consoleBox);
    } else {
      consoleBox.appendChild(el('div', { class: 'section-head' }, el('h3', { text: 'Try it' })));
      consoleBox.appendChild(disabledBox());
    }
  }

  function toggle(card, open) {
    card.open = open === undefined ? !card.open : open;
    card.li.classList.toggle('open', card.open);
    card.header.setAttribute('aria-expanded', card.open ? 'true' : 'false');
    card.body.hidden = !card.open;
    // The last opened tool is in the URL, so that a link or a reload shows it.
    var hash = '#' + encodeURIComponent(card.tool.name);
    if (card.open) {
      state.openTool = card.tool.name;
      setHash(hash);
    } else if (state.openTool === card.tool.name) {
      state.openTool = '';
      if (location.hash === hash) setHash('');
    }
    if (!card.open || card.loaded) return;
    card.loaded = true;
    clear(card.body);
    card.body.appendChild(el('p', { class: 'loading', text: 'Loading\u2026' }));
    loadDetail(card.tool.name).then(function (d) {
      renderDetail(card, d);
    }, function (e) {
      card.loaded = false;
      clear(card.body);
      var retry = el('button', { type: 'button', class: 'btn-link', text: 'Retry' });
      retry.addEventListener('click', function () { toggle(card, true); });
      card.body.appendChild(el('p', { class: 'loading error-text' }, 'Could not load the tool: ' + e.message + ' ', retry));
    });
  }

  function renderList() {
    var list = $('tool-list');
    clear(list);
    state.cards = state.tools.map(function (t) {
      var header = el('button', { type: 'button', class: 'tool-header', 'aria-expanded': 'false' },
        el('span', { class: 'chevron', 'aria-hidden': 'true' }),
        el('span', { class: 'tool-line' },
          el('span', { class: 'tool-name', text: String(t.name) }),
          t.title ? el('span', { class: 'tool-title', text: String(t.title) }) : null,
          el('span', { class: 'badges' }, badges(t.annotations).concat(policyBadges(t)))),
        el('span', { class: 'tool-summary', text: firstLine(t.description) }));
      var body = el('div', { class: 'tool-body', hidden: true });
      var li = el('li', { class: 'tool', dataset: { tool: String(t.name) } }, header, body);
      var card = { tool: t, li: li, header: header, body: body, open: false, loaded: false,
        haystack: [t.name, t.title, t.description].join('\n').toLowerCase() };
      header.addEventListener('click', function () { toggle(card); });
      list.appendChild(li);
      return card;
    });
    filter();
  }

  function filter() {
    var q = $('search').value.trim().toLowerCase();
    var words = q ? q.split(/\s+/) : [];
    var shown = 0;
    state.cards.forEach(function (c) {
      var match = words.every(function (w) { return c.haystack.indexOf(w) >= 0; });
      c.li.hidden = !match;
      if (match) shown++;
    });
    var total = state.cards.length;
    $('tool-count').textContent = q ? shown + ' of ' + total + ' tools' : total + (total === 1 ? ' tool' : ' tools');
    var empty = $('empty');
    empty.hidden = shown > 0;
    empty.textContent = total === 0 ? 'This server has no tools.' : 'No tools match \u201c' + $('search').value.trim() + '\u201d.';
  }

  // openFromHash opens the tool a link names.
  function openFromHash(want) {
    if (!want) return;
    var card = state.cards.filter(function (c) { return c.tool.name === want; })[0];
    if (card) { toggle(card, true); card.li.scrollIntoView({ block: 'start' }); }
  }

  // The list is what the caller may call: it is asked for with the token,
  // and again when the token changes.
  function loadTools() {
    state.listedToken = state.token;
    return request(API + '/tools', { headers: authHeaders({ Accept: 'application/json' }) }).then(function (r) {
      if (r.status !== 200 || !Array.isArray(r.body)) throw new Error(errorMessage(r));
      var tools = r.body.filter(isObject);
      // The same list again (a token that changes nothing): the cards,
      // and what the user typed in them, stay as they are.
      if (state.tools && JSON.stringify(tools) === JSON.stringify(state.tools)) return;
      state.tools = tools;
      renderList();
      fillToolFilter();
      if (currentView() === 'tools') openFromHash(hashName());
    }).catch(function (e) {
      var n = $('notice');
      n.textContent = 'Could not load the tools: ' + e.message;
      n.hidden = false;
      $('empty').hidden = true;
      $('tool-count').textContent = '';
    });
  }

  // ---------- History ----------

  // HISTORY is where /v1/invocations is, or "" when the server has no /v1
  // surface. HISTORY_URL is relative to the page, whose directory is
  // API + "/" (the page may be served at "/x" as well as "/x/").
  var HISTORY = HISTORY_URL ? new URL(HISTORY_URL, location.origin + API + '/').pathname : '';
  var HISTORY_PAGE = 25;
  var STATUS_LABELS = { success: 'Success', failed: 'Failed', pending: 'Pending' };
  var HISTORY_UNAUTHORIZED = 'Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page to see the history.';

  var hist = {
    seq: 0,        // the latest list request; older answers are dropped
    items: [],     // {rec, raw, tr, btn, detail, open} in the order shown
    byId: {},
    offset: 0,     // records received so far: the next page's offset
    total: 0,
    open: {},      // ids of the rows open, kept across refreshes
    retry: 0       // timer: the load retried once a token is typed
  };

  function fillToolFilter() {
    var sel = $('history-tool');
    var keep = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    state.tools.map(function (t) { return String(t.name); }).sort().forEach(function (name) {
      sel.appendChild(el('option', { value: name, text: name }));
    });
    sel.value = keep;
    if (sel.value !== keep) sel.value = '';
  }

  function filtersSet() {
    return !!($('history-tool').value || $('history-status').value || $('history-surface').value);
  }

  function historyQuery(offset) {
    var q = new URLSearchParams();
    [['tool_name', 'history-tool'], ['status', 'history-status'], ['surface', 'history-surface']].forEach(function (f) {
      if ($(f[1]).value) q.set(f[0], $(f[1]).value);
    });
    q.set('limit', String(HISTORY_PAGE));
    q.set('offset', String(offset));
    return HISTORY + '?' + q.toString();
  }

  // historyGet sends the token as the console does.
  function historyGet(url) {
    var headers = { Accept: 'application/json' };
    if (state.token) headers.Authorization = state.token;
    return request(url, { headers: headers, cache: 'no-store' });
  }

  function setHistoryState(s) { $('history-view').dataset.state = s; }

  // loadHistory loads the first page (more false) or the next one.
  function loadHistory(more) {
    var view = $('history-view');
    if (more && view.dataset.state === 'loading') return;
    var my = ++hist.seq;
    var offset = more ? hist.offset : 0;
    clearTimeout(hist.retry);
    setHistoryState('loading');
    view.setAttribute('aria-busy', 'true');
    if (more) $('history-more').textContent = 'Loading\u2026';
    else $('history-count').textContent = 'Loading\u2026';
    historyGet(historyQuery(offset)).then(function (r) {
      if (my !== hist.seq) return;
      if (r.status === 401) { historyUnauthorized(); return; }
      if (r.status !== 200 || !isObject(r.body) || !Array.isArray(r.body.invocations)) {
        historyError(errorMessage(r), more);
        return;
      }
      showHistoryPage(r, more, offset);
    }, function (e) {
      if (my === hist.seq) historyError('Request failed: ' + (e && e.message ? e.message : String(e)), more);
    }).then(function () {
      if (my !== hist.seq) return;
      view.removeAttribute('aria-busy');
      $('history-more').textContent = 'Load more';
    });
  }

  function showHistoryPage(r, more, offset) {
    var rows = $('history-rows');
    var hadFocus = document.activeElement === $('history-more');
    if (!more) {
      hist.items = [];
      hist.byId = {};
      clear(rows);
    }
    $('history-notice').hidden = true;
    var raws = rawElements(rawMembers(r.text).invocations || '[]');
    var added = [];
    r.body.invocations.forEach(function (rec, i) {
      // A record already shown came again because newer calls moved the
      // pages along.
      if (!isObject(rec) || typeof rec.id !== 'string' || hist.byId[rec.id]) return;
      var item = { rec: rec, raw: rawMembers(raws[i] || '') };
      buildRow(item);
      hist.items.push(item);
      hist.byId[rec.id] = item;
      rows.appendChild(item.tr);
      rows.appendChild(item.detail);
      added.push(item);
      if (hist.open[rec.id]) toggleInvocation(item, true);
    });
    hist.offset = offset + r.body.invocations.length;
    hist.total = typeof r.body.total === 'number' ? r.body.total : hist.offset;
    paintHistoryFooter();
    setHistoryState('ready');
    // Load more went away with the last page: keep the keyboard focus in
    // the table, on the first row it brought.
    if (hadFocus && $('history-more').hidden && added.length) added[0].btn.focus();
  }

  function paintHistoryFooter() {
    var shown = hist.items.length;
    var total = Math.max(hist.total, shown);
    $('history-table').hidden = shown === 0;
    $('history-more').hidden = hist.offset >= hist.total;
    var empty = $('history-empty');
    empty.hidden = shown > 0;
    empty.textContent = filtersSet() ? 'No invocations match these filters.'
      : 'No invocations yet. Calls of the tools, from this page or any other surface, show here.';
    $('history-count').textContent = shown < total ? 'Showing ' + shown + ' of ' + total
      : total + (total === 1 ? ' invocation' : ' invocations');
  }

  function historyUnauthorized() {
    showAuthBar();
    hist.items = [];
    hist.byId = {};
    hist.offset = hist.total = 0;
    clear($('history-rows'));
    $('history-table').hidden = true;
    $('history-more').hidden = true;
    $('history-empty').hidden = true;
    $('history-count').textContent = '';
    var enter = el('button', { type: 'button', class: 'btn btn-sm focus-token', text: 'Enter a token' });
    enter.addEventListener('click', function () { $('token-input').focus(); });
    var n = $('history-notice');
    clear(n);
    n.className = 'error-box unauthorized';
    append(n, [el('p', { text: HISTORY_UNAUTHORIZED }), enter]);
    n.hidden = false;
    setHistoryState('unauthorized');
  }

  function historyError(msg, more) {
    var n = $('history-notice');
    clear(n);
    n.className = 'notice';
    n.textContent = 'Could not load the history: ' + msg;
    n.hidden = false;
    if (!more) {
      hist.items = [];
      hist.byId = {};
      hist.offset = hist.total = 0;
      clear($('history-rows'));
      $('history-table').hidden = true;
      $('history-more').hidden = true;
      $('history-empty').hidden = true;
      $('history-count').textContent = '';
    }
    setHistoryState('error');
  }

  // formatDuration shows a duration in ms; calls often take less than one.
  function formatDuration(ms) {
    if (ms < 0.01) return '< 0.01 ms';
    if (ms < 10) return (Math.round(ms * 100) / 100) + ' ms';
    return formatMs(ms);
  }

  // timeEl shows an RFC 3339 time in the reader's time zone and locale,
  // the UTC time as its tooltip.
  function timeEl(iso, long) {
    var d = new Date(typeof iso === 'string' ? iso : NaN);
    if (isNaN(d.getTime())) return el('span', { class: 'muted', text: iso ? String(iso) : '\u2014' });
    var now = new Date();
    var opts = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' };
    if (d.getFullYear() !== now.getFullYear()) opts.year = 'numeric';
    if (long) opts.fractionalSecondDigits = 3;
    return el('time', { dateTime: iso, title: d.toISOString().replace('T', ' ').replace('Z', ' UTC'), text: d.toLocaleString(undefined, opts) });
  }

  function statusPill(status) {
    var cls = status === 'success' ? '' : status === 'failed' ? ' bad' : ' pending';
    return el('span', { class: 'status inv-status' + cls, text: STATUS_LABELS[status] || status || 'unknown' });
  }

  function buildRow(item) {
    var rec = item.rec;
    var id = 'inv-' + (++state.ids);
    item.btn = el('button', { type: 'button', class: 'inv-toggle', 'aria-expanded': 'false', 'aria-controls': id },
      el('span', { class: 'inv-chevron', 'aria-hidden': 'true' }),
      el('span', { class: 'tool-name', text: String(rec.tool_name || '') }));
    item.statusCell = el('td', { class: 'inv-status-cell' });
    item.durationCell = el('td', { class: 'num inv-duration' });
    item.tr = el('tr', { class: 'inv', dataset: { id: rec.id } },
      el('td', { class: 'inv-tool' }, item.btn),
      item.statusCell,
      el('td', { class: 'inv-surface' }, el('code', { class: 'chip', text: rec.surface ? String(rec.surface) : 'direct' })),
      item.durationCell,
      el('td', { class: 'inv-time' }, timeEl(rec.created_at)));
    item.detail = el('tr', { class: 'inv-detail', id: id, hidden: true }, el('td', { colSpan: 5 }));
    paintRow(item);
    item.btn.addEventListener('click', function () { toggleInvocation(item); });
    item.tr.addEventListener('click', function (ev) {
      if (item.btn.contains(ev.target)) return; // the button's own click
      if (String(window.getSelection ? window.getSelection() : '') !== '') return; // selecting text
      toggleInvocation(item);
    });
  }

  function paintRow(item) {
    var rec = item.rec;
    item.tr.dataset.status = String(rec.status || '');
    clear(item.statusCell);
    item.statusCell.appendChild(statusPill(rec.status));
    item.durationCell.textContent = typeof rec.duration_ms === 'number' ? formatDuration(rec.duration_ms) : '\u2014';
  }

  function toggleInvocation(item, open) {
    item.open = open === undefined ? !item.open : open;
    if (item.open) hist.open[item.rec.id] = true;
    else delete hist.open[item.rec.id];
    item.btn.setAttribute('aria-expanded', item.open ? 'true' : 'false');
    item.tr.classList.toggle('open', item.open);
    item.detail.hidden = !item.open;
    if (!item.open) return;
    renderInvocation(item);
    if (item.rec.status === 'pending') refreshInvocation(item);
  }

  // refreshInvocation reads one record again: a pending call may be done.
  function refreshInvocation(item) {
    item.detail.dataset.state = 'loading';
    historyGet(HISTORY + '/' + encodeURIComponent(item.rec.id)).then(function (r) {
      if (r.status === 401) { historyUnauthorized(); return; }
      if (r.status === 200 && isObject(r.body) && r.body.id === item.rec.id) {
        item.rec = r.body;
        item.raw = rawMembers(r.text);
        paintRow(item);
        if (item.open) renderInvocation(item);
      } else if (item.open) {
        renderInvocation(item, 'Could not read the invocation again: ' + errorMessage(r));
      }
    }, function (e) {
      if (item.open) renderInvocation(item, 'Could not read the invocation again: ' + e.message);
    }).then(function () { item.detail.dataset.state = 'ready'; });
  }

  function renderInvocation(item, problem) {
    var rec = item.rec;
    var raw = item.raw;
    var td = item.detail.firstChild;
    clear(td);
    function meta(label, value) { return el('div', null, el('dt', { text: label }), el('dd', null, value)); }
    function block(kind, heading, body) {
      return el('section', { class: 'inv-block inv-' + kind }, el('h4', { text: heading }), body);
    }
    append(td, el('dl', { class: 'inv-meta' },
      meta('Invocation', el('code', { text: rec.id })),
      meta('Surface', el('code', { text: rec.surface ? String(rec.surface) : 'direct' })),
      typeof rec.duration_ms === 'number' ? meta('Duration', el('span', { text: formatDuration(rec.duration_ms) })) : null,
      rec.correlation_id ? meta('Correlation ID', el('code', { text: String(rec.correlation_id) })) : null,
      rec.caller ? meta('Caller', el('code', { text: String(rec.caller) })) : null,
      meta('Started', timeEl(rec.created_at, true)),
      rec.completed_at ? meta('Completed', timeEl(rec.completed_at, true)) : null));
    var input = block('input', 'Input', codeBlock(raw.input_params !== undefined ? raw.input_params : pretty(rec.input_params)));
    var result = null;
    if (rec.status === 'pending') {
      var again = el('button', { type: 'button', class: 'btn-link', text: 'Check again' });
      again.addEventListener('click', function () { refreshInvocation(item); });
      result = block('result', 'Result', el('p', { class: 'muted pending-note' }, 'Still running\u2026 ', again));
    } else if (typeof rec.result === 'string') { // the text of a text result
      result = block('result', 'Result', codeBlock(rec.result, 'result-text'));
    } else if (rec.result !== null && rec.result !== undefined) {
      result = block('result', 'Result', codeBlock(raw.result !== undefined ? raw.result : pretty(rec.result), 'result-text'));
    } else if (!rec.error) {
      result = block('result', 'Result', el('p', { class: 'muted', text: 'No result.' }));
    }
    var error = rec.error ? block('error', 'Error', el('div', { class: 'error-box', text: String(rec.error) })) : null;
    append(td, el('div', { class: 'inv-io' }, input, result, error));
    if (problem) append(td, el('p', { class: 'error-text', text: problem }));
  }

  // ---------- Approvals ----------

  // HUMAN is where /v1/human is (the human-in-the-loop API: the approval
  // requests of tools' calls and the questions workflows ask), or "" when
  // the server has none. HUMAN_URL is relative to the page, as HISTORY_URL.
  var HUMAN = HUMAN_URL ? new URL(HUMAN_URL, location.origin + API + '/').pathname : '';
  var APPROVALS_POLL = 2000;  // ms between two refreshes while the view shows
  var PENDING_PAGE = 100;     // pending requests listed
  var ANSWERED_SHOWN = 25;    // answered requests listed, the latest
  var ANSWERED_STATUSES = ['responded', 'expired', 'cancelled'];
  var APPROVALS_UNAUTHORIZED = 'Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page to see the requests waiting for an answer.';

  var appr = {
    seq: 0,                         // the latest refresh; older answers are dropped
    timer: 0,                       // the next refresh
    clock: 0,                       // the countdown's interval
    retry: 0,                       // a refresh once the token stops changing
    pending: Object.create(null),   // id -> item {req, li, left, error, controls, busy}
    answered: Object.create(null),  // id -> item {req, li, outcome, meta}
    responses: Object.create(null), // id -> the response of an answered request, once read
    reading: Object.create(null)    // id -> true while its response is read
  };

  function humanList(status, limit) {
    return historyGet(HUMAN + '/requests?' + new URLSearchParams({ status: status, limit: String(limit) }).toString());
  }

  // loadApprovals reads the pending requests and the latest answered ones,
  // and then, while the view shows, does so again every APPROVALS_POLL ms.
  function loadApprovals() {
    clearTimeout(appr.timer);
    var my = ++appr.seq;
    var view = $('approvals-view');
    if (!view.dataset.state) view.dataset.state = 'loading';
    var lists = [humanList('pending', PENDING_PAGE)].concat(ANSWERED_STATUSES.map(function (s) { return humanList(s, ANSWERED_SHOWN); }));
    Promise.all(lists).then(function (rs) {
      if (my !== appr.seq) return;
      if (rs.some(function (r) { return r.status === 401; })) { approvalsUnauthorized(); return; }
      var bad = rs.filter(function (r) { return r.status !== 200 || !isObject(r.body) || !Array.isArray(r.body.requests); })[0];
      if (bad) approvalsError(errorMessage(bad));
      else showApprovals(rs);
      scheduleApprovals();
    }, function (e) {
      if (my !== appr.seq) return;
      approvalsError('Request failed: ' + (e && e.message ? e.message : String(e)));
      scheduleApprovals();
    });
  }

  function scheduleApprovals() {
    clearTimeout(appr.timer);
    if (currentView() === 'approvals' && !document.hidden) appr.timer = setTimeout(loadApprovals, APPROVALS_POLL);
  }

  // startApprovals runs when the view shows; stopApprovals when it goes
  // (or the browser's tab is hidden): no refresh, no countdown.
  function startApprovals() {
    loadApprovals();
    clearInterval(appr.clock);
    appr.clock = setInterval(paintCountdowns, 1000);
  }
  function stopApprovals() {
    appr.seq++;
    clearTimeout(appr.timer);
    clearInterval(appr.clock);
    appr.clock = 0;
  }

  function showApprovals(rs) {
    $('approvals-notice').hidden = true;
    $('approvals-loading').hidden = true;
    $('approvals-lists').hidden = false;
    showPending(rs[0]);
    showAnswered(rs.slice(1));
    $('approvals-view').dataset.state = 'ready';
  }

  // requestsOf pairs each request of a list's answer with its source text
  // (whose numbers are kept as sent).
  function requestsOf(r) {
    var raws = rawElements(rawMembers(r.text).requests || '[]');
    var out = [];
    r.body.requests.forEach(function (req, i) {
      if (isObject(req) && typeof req.id === 'string') out.push({ req: req, raw: raws[i] || '' });
    });
    return out;
  }

  // placeItems puts the items' elements in list in their order, moving an
  // element only when it is out of place: the one with the focus keeps it.
  function placeItems(list, items) {
    var cursor = list.firstChild;
    items.forEach(function (it) {
      if (it.li === cursor) { cursor = cursor.nextSibling; return; }
      list.insertBefore(it.li, cursor);
    });
    while (cursor) {
      var next = cursor.nextSibling;
      list.removeChild(cursor);
      cursor = next;
    }
  }

  // dropItem takes an item's element off the page; the keyboard focus, if
  // it was in it, goes to the next request, else to the list's heading.
  function dropItem(item, heading) {
    var li = item.li;
    if (!li.parentNode) return;
    if (li.contains(document.activeElement)) {
      var to = li.nextElementSibling || li.previousElementSibling;
      var target = to && to.querySelector('button, input');
      li.parentNode.removeChild(li);
      if (target) target.focus();
      else $(heading).focus();
      return;
    }
    li.parentNode.removeChild(li);
  }

  function showPending(r) {
    var seen = Object.create(null);
    var items = [];
    requestsOf(r).forEach(function (x) {
      if (seen[x.req.id]) return;
      seen[x.req.id] = true;
      var item = appr.pending[x.req.id];
      if (!item) item = appr.pending[x.req.id] = pendingItem(x.req, x.raw);
      items.push(item);
    });
    Object.keys(appr.pending).forEach(function (id) {
      if (seen[id]) return;
      dropItem(appr.pending[id], 'pending-heading');
      delete appr.pending[id];
    });
    placeItems($('pending-list'), items);
    var total = typeof r.body.total === 'number' ? Math.max(r.body.total, items.length) : items.length;
    paintPendingCount(items.length, total);
    paintCountdowns();
  }

  function paintPendingCount(shown, total) {
    $('pending-empty').hidden = shown > 0;
    $('approvals-count').textContent = shown < total ? 'Showing ' + shown + ' of ' + total + ' pending' : total + ' pending';
  }

  function showAnswered(rs) {
    var all = [];
    var total = 0;
    rs.forEach(function (r) {
      all = all.concat(requestsOf(r));
      total += typeof r.body.total === 'number' ? r.body.total : r.body.requests.length;
    });
    // Newest first; the sort is stable, so requests of the same time keep
    // the server's order.
    all.sort(function (a, b) { return (Date.parse(b.req.created_at) || 0) - (Date.parse(a.req.created_at) || 0); });
    var seen = Object.create(null);
    var items = [];
    all.forEach(function (x) {
      if (seen[x.req.id] || items.length >= ANSWERED_SHOWN) return;
      seen[x.req.id] = true;
      var item = appr.answered[x.req.id];
      if (item && item.req.status !== x.req.status) {
        dropItem(item, 'answered-heading');
        item = null;
      }
      if (!item) item = appr.answered[x.req.id] = answeredItem(x.req, x.raw);
      items.push(item);
      if (item.req.status === 'responded' && !appr.responses[item.req.id]) readResponse(item.req.id);
    });
    Object.keys(appr.answered).forEach(function (id) {
      if (seen[id]) return;
      dropItem(appr.answered[id], 'answered-heading');
      delete appr.answered[id];
    });
    placeItems($('answered-list'), items);
    $('answered-empty').hidden = items.length > 0;
    var more = $('answered-more');
    more.hidden = total <= items.length;
    more.textContent = 'The latest ' + items.length + ' of ' + total + ' answered requests.';
  }

  // readResponse reads the answer of a responded request (once: an answer
  // never changes).
  function readResponse(id) {
    if (appr.reading[id]) return;
    appr.reading[id] = true;
    historyGet(HUMAN + '/requests/' + encodeURIComponent(id)).then(function (r) {
      var item = appr.answered[id];
      if (r.status === 200 && isObject(r.body) && isObject(r.body.response)) {
        appr.responses[id] = r.body.response;
        if (item) paintOutcome(item);
      } else if (item) {
        paintOutcome(item, 'Could not read the answer: ' + errorMessage(r));
      }
    }, function (e) {
      var item = appr.answered[id];
      if (item) paintOutcome(item, 'Could not read the answer: ' + (e && e.message ? e.message : String(e)));
    }).then(function () { delete appr.reading[id]; });
  }

  // ----- A request, as both lists show it -----

  function contextOf(req, rawText) {
    var raw = rawMembers(rawText);
    return {
      ctx: isObject(req.context) ? req.context : {},
      raw: raw.context ? rawMembers(raw.context) : Object.create(null),
      rawContext: raw.context
    };
  }

  // compactCode shows JSON text on one line, without its insignificant
  // whitespace, coloured, every literal as the server sent it.
  function compactCode(text, cls) {
    var code = el('code', { class: 'compact-json' + (cls ? ' ' + cls : '') });
    var tokens = jsonTokens(String(text));
    if (!tokens) { code.textContent = String(text); return code; }
    tokens.forEach(function (p) {
      if (p[0]) code.appendChild(el('span', { class: p[0], text: p[1].replace(/^: $/, ':') }));
    });
    return code;
  }

  function formatLeft(ms) {
    var s = Math.ceil(ms / 1000);
    function two(n) { return (n < 10 ? '0' : '') + n; }
    if (s < 60) return s + 's';
    var m = Math.floor(s / 60);
    if (m < 60) return m + 'm ' + two(s % 60) + 's';
    var h = Math.floor(m / 60);
    if (h < 24) return h + 'h ' + two(m % 60) + 'm';
    return Math.floor(h / 24) + 'd ' + (h % 24) + 'h';
  }

  function paintCountdowns() {
    var now = Date.now();
    Object.keys(appr.pending).forEach(function (id) {
      var item = appr.pending[id];
      var t = Date.parse(item.req.expires_at);
      if (isNaN(t)) { item.left.textContent = ''; return; }
      var ms = t - now;
      item.left.textContent = ms > 0 ? formatLeft(ms) + ' left' : 'Expiring';
      item.left.classList.toggle('soon', ms < 60000);
    });
  }

  // requestParts builds what both lists show of a request: its heading
  // (the tool, else the prompt, and the request type unless it is an
  // approval), its prompt under a tool's name, and its details.
  function requestParts(req, rawText, item, extra) {
    var c = contextOf(req, rawText);
    var tool = typeof c.ctx.tool === 'string' && c.ctx.tool ? c.ctx.tool : '';
    var titleId = 'approval-' + (++state.ids);
    item.titleId = titleId;
    var head = el('div', { class: 'approval-head' },
      el('span', { id: titleId, class: tool ? 'approval-title tool-name' : 'approval-title approval-question', text: tool || String(req.prompt || '') }),
      req.request_type !== 'approval' ? el('span', { class: 'badge badge-type', title: 'Request type', text: String(req.request_type || '') }) : null,
      extra);
    function meta(label, value, cls) { return el('div', { class: cls }, el('dt', { text: label }), el('dd', null, value)); }
    var caller = typeof c.ctx.caller === 'string' ? c.ctx.caller : '';
    var dl = el('dl', { class: 'inv-meta approval-meta' },
      caller ? meta('Caller', el('code', { text: caller }), 'approval-caller') : null,
      typeof c.ctx.surface === 'string' && c.ctx.surface ? meta('Surface', el('code', { text: c.ctx.surface })) : null,
      meta('Asked', timeEl(req.created_at)),
      req.correlation_id ? meta('Correlation ID', el('code', { text: String(req.correlation_id) })) : null,
      meta('Request', el('code', { text: req.id })));
    var args = null;
    if (c.raw.arguments !== undefined) {
      args = el('div', { class: 'approval-data' }, el('span', { class: 'approval-label', text: 'Arguments' }), compactCode(c.raw.arguments, 'approval-args'));
    } else if (!tool && c.rawContext && Object.keys(c.ctx).length) {
      args = el('div', { class: 'approval-data' }, el('span', { class: 'approval-label', text: 'Context' }), compactCode(c.rawContext, 'approval-context'));
    }
    return [head, tool && req.prompt ? el('p', { class: 'approval-prompt', text: String(req.prompt) }) : null, dl, args];
  }

  // ----- Pending requests -----

  var ANSWER_LABELS = { approve: 'Approve', reject: 'Reject' };

  function pendingItem(req, rawText) {
    var item = { req: req, controls: [], busy: false };
    item.left = el('time', { class: 'approval-left', dateTime: String(req.expires_at || '') });
    var exp = new Date(typeof req.expires_at === 'string' ? req.expires_at : NaN);
    if (!isNaN(exp.getTime())) item.left.title = 'Expires ' + exp.toISOString().replace('T', ' ').replace('Z', ' UTC');
    var parts = requestParts(req, rawText, item, item.left);
    item.li = el('li', { class: 'approval pending', dataset: { id: req.id, type: String(req.request_type || '') }, 'aria-labelledby': item.titleId },
      parts, answerControls(item));
    return item;
  }

  // answerControls: a button for each option of the request (Approve and
  // Reject for an approval), or a field for a free answer when it has none.
  function answerControls(item) {
    var req = item.req;
    var box = el('div', { class: 'approval-actions' });
    var options = Array.isArray(req.options) ? req.options.filter(function (o) { return typeof o === 'string'; }) : [];
    if (options.length) {
      options.forEach(function (o) {
        var cls = 'btn btn-sm answer-btn' + (o === 'approve' ? ' btn-approve' : o === 'reject' ? ' btn-reject' : '');
        var b = el('button', { type: 'button', class: cls, text: ANSWER_LABELS[o] || o, dataset: { answer: o }, 'aria-describedby': item.titleId });
        b.addEventListener('click', function () { answer(item, o); });
        item.controls.push(b);
        box.appendChild(b);
      });
    } else {
      var id = 'answer-' + (++state.ids);
      var inp = el('input', { id: id, type: 'text', class: 'answer-input', autocomplete: 'off', spellcheck: 'false', placeholder: 'Your answer', 'aria-describedby': item.titleId });
      var send = el('button', { type: 'button', class: 'btn btn-sm btn-primary answer-send', text: 'Send', 'aria-describedby': item.titleId });
      var go = function () {
        if (inp.value === '') { item.error.textContent = 'Type an answer first.'; inp.focus(); return; }
        answer(item, inp.value);
      };
      send.addEventListener('click', go);
      inp.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter') { ev.preventDefault(); go(); }
      });
      item.controls.push(inp, send);
      append(box, [el('label', { for: id, class: 'visually-hidden', text: 'Answer' }), inp, send]);
    }
    item.error = el('span', { class: 'approval-error', 'aria-live': 'polite' });
    box.appendChild(item.error);
    return box;
  }

  // answer sends a response with the page's token. Once it is taken the
  // request leaves the pending list; a refusal (another caller's approval,
  // a missing scope, an expired request...) is shown beside it.
  function answer(item, response) {
    if (item.busy) return;
    item.busy = true;
    item.error.textContent = '';
    item.li.setAttribute('aria-busy', 'true');
    item.controls.forEach(function (c) { c.disabled = true; });
    request(HUMAN + '/responses', {
      method: 'POST',
      headers: authHeaders({ 'Content-Type': 'application/json', Accept: 'application/json' }),
      body: JSON.stringify({ request_id: item.req.id, response: response }),
      cache: 'no-store'
    }).then(function (r) {
      if (r.status === 201 || r.status === 200) {
        appr.seq++; // a refresh under way may still have it pending
        if (appr.pending[item.req.id] === item) delete appr.pending[item.req.id];
        dropItem(item, 'pending-heading');
        var left = Object.keys(appr.pending).length;
        paintPendingCount(left, left);
        if (currentView() === 'approvals') loadApprovals();
        return;
      }
      if (r.status === 401) showAuthBar();
      item.error.textContent = errorMessage(r);
    }, function (e) {
      item.error.textContent = 'Request failed: ' + (e && e.message ? e.message : String(e));
    }).then(function () {
      item.busy = false;
      item.li.removeAttribute('aria-busy');
      item.controls.forEach(function (c) { c.disabled = false; });
    });
  }

  // ----- Answered requests -----

  function answeredItem(req, rawText) {
    var item = { req: req };
    item.outcome = el('span', { class: 'status approval-outcome' });
    item.answer = el('dl', { class: 'inv-meta approval-answer' });
    var parts = requestParts(req, rawText, item, item.outcome);
    item.li = el('li', { class: 'approval answered', dataset: { id: req.id, status: String(req.status || ''), type: String(req.request_type || '') }, 'aria-labelledby': item.titleId },
      parts[0], parts[1], item.answer, parts[2], parts[3]);
    paintOutcome(item);
    return item;
  }

  var OUTCOMES = { approve: ['Approved', ''], reject: ['Rejected', ' bad'] };

  // paintOutcome shows how a request ended: its answer and who gave it,
  // or that it expired or was cancelled.
  function paintOutcome(item, problem) {
    var req = item.req;
    var resp = appr.responses[req.id];
    var label = { expired: 'Expired', cancelled: 'Cancelled' }[req.status] || 'Answered';
    var cls = req.status === 'responded' ? ' answered' : ' ended';
    if (resp && typeof resp.response === 'string' && OUTCOMES[resp.response]) {
      label = OUTCOMES[resp.response][0];
      cls = OUTCOMES[resp.response][1];
    }
    item.outcome.className = 'status approval-outcome' + cls;
    item.outcome.textContent = label;
    clear(item.answer);
    function meta(label, value, cls) { return el('div', { class: cls }, el('dt', { text: label }), el('dd', null, value)); }
    if (req.status !== 'responded') {
      append(item.answer, meta('Status', el('span', { text: req.status === 'expired' ? 'Nobody answered in time.' : 'Withdrawn before an answer.' })));
      return;
    }
    if (!resp) {
      append(item.answer, meta('Answer', el('span', { class: problem ? 'error-text' : 'muted', text: problem || 'Loading\u2026' })));
      return;
    }
    append(item.answer, [
      meta('Answer', el('code', { text: String(resp.response) }), 'approval-response'),
      meta('By', resp.responded_by ? el('code', { text: String(resp.responded_by) }) : el('span', { class: 'muted', text: 'unknown' }), 'approval-by'),
      meta('Answered', timeEl(resp.created_at))
    ]);
  }

  // ----- The view's states -----

  function approvalsUnauthorized() {
    showAuthBar();
    Object.keys(appr.pending).forEach(function (id) { dropItem(appr.pending[id], 'pending-heading'); });
    Object.keys(appr.answered).forEach(function (id) { dropItem(appr.answered[id], 'answered-heading'); });
    appr.pending = Object.create(null);
    appr.answered = Object.create(null);
    $('approvals-lists').hidden = true;
    $('approvals-loading').hidden = true;
    $('approvals-count').textContent = '';
    var n = $('approvals-notice');
    clear(n);
    n.className = '';
    n.appendChild(unauthorizedBox(APPROVALS_UNAUTHORIZED));
    n.hidden = false;
    $('approvals-view').dataset.state = 'unauthorized';
  }

  function approvalsError(msg) {
    var n = $('approvals-notice');
    clear(n);
    n.className = 'notice';
    n.textContent = 'Could not load the requests: ' + msg;
    n.hidden = false;
    $('approvals-loading').hidden = true;
    $('approvals-view').dataset.state = 'error';
  }

  // ---------- Views: Tools, Prompts, Resources, History, Approvals ----------

  var VIEWS = ['tools', 'prompts', 'resources', 'history', 'approvals'];
  // avail says whether a view has anything to show: true, false, or null
  // while its listing loads. Prompts and Resources show only when the
  // server has some; History when it has the /v1 surface; Approvals when
  // it has the human-in-the-loop API.
  var avail = { tools: true, prompts: null, resources: null, history: !!HISTORY, approvals: !!HUMAN };

  function currentView() {
    for (var i = 0; i < VIEWS.length; i++) if (!$(VIEWS[i] + '-view').hidden) return VIEWS[i];
    return 'tools';
  }

  // showView shows one view. The history is loaded afresh each time it
  // is shown, so that it has the calls just made; the approvals are
  // refreshed for as long as they show.
  function showView(view, keepHash) {
    if (VIEWS.indexOf(view) < 0 || avail[view] === false) view = 'tools';
    var was = currentView();
    VIEWS.forEach(function (v) { $(v + '-view').hidden = v !== view; });
    paintTabs();
    if (!keepHash) setHash(viewHash(view));
    if (view === 'history' && was !== 'history') loadHistory(false);
    if (view === 'approvals' && was !== 'approvals') startApprovals();
    if (was === 'approvals' && view !== 'approvals') stopApprovals();
  }

  // paintTabs shows the tabs of the views that have something, the bar
  // when there is more than the tool list, and which tab is selected.
  function paintTabs() {
    var view = currentView();
    var tabs = Array.prototype.slice.call($('views').children);
    var others = 0;
    tabs.forEach(function (b) {
      b.hidden = b.dataset.view !== 'tools' && avail[b.dataset.view] !== true;
      if (!b.hidden && b.dataset.view !== 'tools') others++;
    });
    // A view linked to shows while its listing loads, before its tab.
    var focusable = $('tab-' + view).hidden ? 'tools' : view;
    tabs.forEach(function (b) {
      b.setAttribute('aria-selected', b.dataset.view === view ? 'true' : 'false');
      b.tabIndex = b.dataset.view === focusable ? 0 : -1;
    });
    $('views').hidden = others === 0;
    var tools = $('tools-view');
    if (others) {
      tools.setAttribute('role', 'tabpanel');
      tools.removeAttribute('aria-label');
      tools.setAttribute('aria-labelledby', 'tab-tools');
    } else {
      tools.removeAttribute('role');
      tools.removeAttribute('aria-labelledby');
      tools.setAttribute('aria-label', 'Tools');
    }
  }

  // viewHash is the #fragment of a view: its name, with the prompt or
  // resource last opened in it; for the tool list, the tool last opened.
  function viewHash(view) {
    if (view === 'history' || view === 'approvals') return '#' + view;
    if (view === 'prompts' || view === 'resources') {
      return '#' + view + (mcp.open[view] ? '/' + encodeURIComponent(mcp.open[view]) : '');
    }
    return state.openTool ? '#' + encodeURIComponent(state.openTool) : '';
  }

  // route shows what a #fragment names, when it names a view (#history,
  // #approvals, #prompts, #resources) or something in one (#prompts/NAME,
  // #resources/URI), and answers whether it did. The rest is a tool's name.
  function route(want) {
    var m = /^(history|approvals|prompts|resources)(?:\/([\s\S]*))?$/.exec(want);
    if (!m || avail[m[1]] === false || ((m[1] === 'history' || m[1] === 'approvals') && m[2] !== undefined)) return false;
    showView(m[1], true);
    if (m[2]) openEntry(m[1], m[2]);
    return true;
  }

  // ---------- Prompts and resources ----------

  var PROMPT_UNAUTHORIZED = 'Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page and get the prompt again.';
  var RESOURCE_UNAUTHORIZED = 'Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page and read the resource again.';

  var mcp = {
    prompts: [],
    resources: [],
    templates: [],
    cards: { prompts: [], resources: [] }, // {view, key, li, header, body, open, built, fill}
    open: { prompts: '', resources: '' }   // the entry last opened in each view, in the #fragment
  };

  // listed runs once a view's listing is in: its tab shows or not, and a
  // link to the view (or to something in it) is followed.
  function listed(view) {
    $(view + '-view').dataset.state = 'ready';
    paintTabs();
    if (currentView() !== view) return;
    if (!avail[view]) showView('tools', true);
    else route(hashName());
  }

  // entryCard builds a card of the Prompts or Resources view, in the tool
  // cards' style: a header that opens the body, which fill builds on the
  // first opening.
  function entryCard(view, key, kind, head, summary, fill) {
    var id = 'entry-' + (++state.ids);
    var header = el('button', { type: 'button', class: 'tool-header', 'aria-expanded': 'false', 'aria-controls': id },
      el('span', { class: 'chevron', 'aria-hidden': 'true' }),
      el('span', { class: 'tool-line' }, head),
      el('span', { class: 'tool-summary' }, summary));
    var body = el('div', { class: 'tool-body', id: id, hidden: true });
    var card = { view: view, key: key, li: el('li', { class: 'entry ' + kind }, header, body), header: header, body: body, open: false, built: false, fill: fill };
    header.addEventListener('click', function () { toggleEntry(card); });
    mcp.cards[view].push(card);
    return card;
  }

  function toggleEntry(card, open) {
    card.open = open === undefined ? !card.open : open;
    card.li.classList.toggle('open', card.open);
    card.header.setAttribute('aria-expanded', card.open ? 'true' : 'false');
    card.body.hidden = !card.open;
    var hash = '#' + card.view + '/' + encodeURIComponent(card.key);
    if (card.open) {
      mcp.open[card.view] = card.key;
      setHash(hash);
    } else if (mcp.open[card.view] === card.key) {
      mcp.open[card.view] = '';
      if (location.hash === hash) setHash('#' + card.view);
    }
    if (card.open && !card.built) {
      card.built = true;
      card.fill(card.body);
    }
  }

  // openEntry opens the prompt or resource a link names.
  function openEntry(view, key) {
    var card = mcp.cards[view].filter(function (c) { return c.key === key; })[0];
    if (!card) return;
    toggleEntry(card, true);
    card.li.scrollIntoView({ block: 'start' });
  }

  function countText(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  // consoleBox is the grey box of a card's form, button and result, like
  // a tool's console.
  function consoleBox(heading, parts) {
    return el('section', { class: 'section entry-console' },
      el('div', { class: 'section-head' }, el('h3', { text: heading })),
      el('div', { class: 'console' }, parts));
  }

  // textField is a labelled text input of a card's form, in grid.
  function textField(grid, name, required, hint) {
    var id = 'field-' + (++state.ids);
    var inp = el('input', { id: id, type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-required': required ? 'true' : null });
    var hintEl = hint ? el('div', { class: 'hint', id: id + '-hint', text: hint }) : null;
    if (hintEl) inp.setAttribute('aria-describedby', hintEl.id);
    grid.appendChild(el('label', { for: id }, name, required
      ? [el('span', { class: 'req', text: '*', title: 'required', 'aria-hidden': 'true' }), el('span', { class: 'visually-hidden', text: ' (required)' })]
      : null));
    grid.appendChild(el('div', { class: 'field' }, inp, hintEl));
    return inp;
  }

  // runner wires a card's button: while its request runs the button is
  // disabled and says so; the answer, or the failure, is shown in area.
  function runner(btn, busyText, area, kind, send) {
    var idle = btn.textContent;
    var running = false;
    function go() {
      if (running) return;
      var req = send();
      if (!req) return;
      running = true;
      btn.disabled = true;
      btn.textContent = busyText;
      var started = performance.now();
      request(req.url, req.opts).then(function (r) {
        showAnswer(area, r, performance.now() - started, kind);
      }, function (e) {
        showNoResponse(area, e, performance.now() - started);
      }).then(function () {
        running = false;
        btn.disabled = false;
        btn.textContent = idle;
      });
    }
    btn.addEventListener('click', go);
    return go;
  }

  function authHeaders(h) {
    if (state.token) h.Authorization = state.token;
    return h;
  }

  // showAnswer shows a prompt's or a resource's answer in area, with the
  // raw JSON a tab away, as the console shows a call's result.
  function showAnswer(area, r, ms, kind) {
    clear(area);
    var ok = r.status === 200 && kind.valid(r.body);
    var panel = el('div', { class: 'result-panel result-view', role: 'tabpanel' });
    if (r.status === 401) {
      showAuthBar();
      panel.appendChild(unauthorizedBox(kind.unauthorized));
    } else if (ok) {
      kind.render(panel, r.body);
    } else {
      panel.appendChild(el('div', { class: 'error-box', text: r.status === 200 ? 'The server answered something other than ' + kind.what + '.' : errorMessage(r) }));
    }
    var raw = el('div', { class: 'result-panel raw-view', role: 'tabpanel', hidden: true }, codeBlock(r.text || ''));
    append(area, el('div', { class: 'result' + (ok ? '' : ' is-error'), dataset: { status: String(r.status) } },
      el('div', { class: 'result-head' }, resultTabs(panel, raw, kind.label, 'Raw JSON'),
        el('div', { class: 'result-meta' },
          el('span', { class: 'status' + (ok ? '' : ' bad'), text: statusLabel(r, false) }),
          el('span', { class: 'elapsed', text: formatMs(ms) }))),
      panel, raw));
  }

  // ----- Prompts -----

  var PROMPT_ANSWER = {
    label: 'Messages',
    what: 'a prompt',
    unauthorized: PROMPT_UNAUTHORIZED,
    valid: function (b) { return isObject(b) && Array.isArray(b.messages); },
    render: renderMessages
  };

  function loadPrompts() {
    return request(API + '/prompts').then(function (r) {
      return r.status === 200 && Array.isArray(r.body) ? r.body : [];
    }, function () { return []; }).then(function (list) {
      mcp.prompts = list.filter(function (p) { return isObject(p) && typeof p.name === 'string'; });
      avail.prompts = mcp.prompts.length > 0;
      renderPrompts();
      listed('prompts');
    });
  }

  function promptArgs(p) {
    return (Array.isArray(p.arguments) ? p.arguments : []).filter(function (a) { return isObject(a) && typeof a.name === 'string'; });
  }

  function renderPrompts() {
    var list = $('prompt-list');
    clear(list);
    mcp.cards.prompts = [];
    mcp.prompts.forEach(function (p) {
      var args = promptArgs(p);
      var required = args.filter(function (a) { return a.required === true; }).length;
      var card = entryCard('prompts', p.name, 'prompt', [
        el('span', { class: 'tool-name', text: p.name }),
        p.title ? el('span', { class: 'tool-title', text: String(p.title) }) : null,
        el('span', { class: 'entry-note', text: args.length
          ? countText(args.length, 'argument', 'arguments') + (required ? ', ' + required + ' required' : '')
          : 'no arguments' })
      ], firstLine(p.description), function (body) { buildPrompt(p, args, body); });
      card.li.dataset.prompt = p.name;
      list.appendChild(card.li);
    });
    var n = mcp.prompts.length;
    $('prompt-count').textContent = countText(n, 'prompt', 'prompts');
    $('prompts-empty').textContent = 'This server has no prompts.';
    $('prompts-empty').hidden = n > 0;
  }

  // buildPrompt fills a prompt's card: its description, a field for each
  // argument (the required ones marked) and Get, which shows the
  // messages.
  function buildPrompt(p, args, body) {
    if (p.description) body.appendChild(el('p', { class: 'description', text: String(p.description) }));
    var inputs = [];
    var grid = null;
    if (args.length) {
      grid = el('div', { class: 'form-grid' });
      args.forEach(function (a) {
        var hint = [a.title, a.description].filter(function (x) { return typeof x === 'string' && x; }).join(' \u00b7 ');
        var inp = textField(grid, a.name, a.required === true, hint);
        inp.dataset.arg = a.name;
        inputs.push({ name: a.name, input: inp });
      });
    }
    var btn = el('button', { type: 'button', class: 'btn btn-primary run-btn get-btn', text: 'Get prompt' });
    var result = el('div', { class: 'result-area' });
    // An empty field is an argument not given: the server says whether it
    // was required.
    var go = runner(btn, 'Getting...', result, PROMPT_ANSWER, function () {
      var values = {};
      inputs.forEach(function (f) { if (f.input.value !== '') values[f.name] = f.input.value; });
      return {
        url: API + '/prompts/' + encodeURIComponent(p.name) + '/get',
        opts: { method: 'POST', headers: authHeaders({ 'Content-Type': 'application/json', Accept: 'application/json' }), body: JSON.stringify({ arguments: values }) }
      };
    });
    inputs.forEach(function (f) {
      f.input.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter') { ev.preventDefault(); go(); }
      });
    });
    body.appendChild(consoleBox('Arguments', [
      grid || el('p', { class: 'plain-note', text: 'This prompt takes no arguments.' }),
      el('div', { class: 'run-row' }, btn),
      result
    ]));
  }

  // renderMessages shows a prompt's messages by role, each message's
  // content as the console shows a result's.
  function renderMessages(panel, body) {
    if (typeof body.description === 'string' && body.description) {
      panel.appendChild(el('p', { class: 'prompt-description', text: body.description }));
    }
    if (!body.messages.length) panel.appendChild(el('p', { class: 'muted', text: '(no messages)' }));
    body.messages.forEach(function (m) {
      if (!isObject(m)) return;
      var role = typeof m.role === 'string' ? m.role : '';
      var content = el('div', { class: 'message-content' });
      (Array.isArray(m.content) ? m.content : [m.content]).forEach(function (c) { renderBlock(content, c); });
      panel.appendChild(el('div', { class: 'message' + (role === 'user' || role === 'assistant' ? ' message-' + role : ''), dataset: { role: role } },
        el('div', { class: 'message-role', text: role || 'message' }), content));
    });
  }

  // ----- Resources -----

  var RESOURCE_ANSWER = {
    label: 'Contents',
    what: 'resource contents',
    unauthorized: RESOURCE_UNAUTHORIZED,
    valid: function (b) { return isObject(b) && Array.isArray(b.contents); },
    render: function (panel, body) {
      if (!body.contents.length) panel.appendChild(el('p', { class: 'muted', text: '(no contents)' }));
      body.contents.forEach(function (c) { if (isObject(c)) renderResourceContents(panel, c, ''); });
    }
  };

  function loadResources() {
    return request(API + '/resources').then(function (r) {
      return r.status === 200 && isObject(r.body) ? r.body : {};
    }, function () { return {}; }).then(function (b) {
      function valid(key) {
        return function (x) { return isObject(x) && typeof x[key] === 'string' && typeof x.name === 'string'; };
      }
      mcp.resources = (Array.isArray(b.resources) ? b.resources : []).filter(valid('uri'));
      mcp.templates = (Array.isArray(b.resourceTemplates) ? b.resourceTemplates : []).filter(valid('uriTemplate'));
      avail.resources = mcp.resources.length + mcp.templates.length > 0;
      renderResources();
      listed('resources');
    });
  }

  function renderResources() {
    mcp.cards.resources = [];
    function head(x) {
      return [el('span', { class: 'tool-name', text: x.name }),
        x.title ? el('span', { class: 'tool-title', text: String(x.title) }) : null,
        x.mimeType ? el('code', { class: 'chip mime', text: String(x.mimeType) }) : null];
    }
    function summary(address, x) {
      var d = firstLine(x.description);
      return [el('code', { class: 'entry-uri', text: address }), d ? ' \u2014 ' + d : ''];
    }
    var list = $('resource-list');
    clear(list);
    mcp.resources.forEach(function (x) {
      var card = entryCard('resources', x.uri, 'resource', head(x), summary(x.uri, x), function (body) { buildResource(x, body); });
      card.li.dataset.uri = x.uri;
      list.appendChild(card.li);
    });
    var tlist = $('template-list');
    clear(tlist);
    mcp.templates.forEach(function (x) {
      var card = entryCard('resources', x.uriTemplate, 'template', head(x), summary(x.uriTemplate, x), function (body) { buildTemplate(x, body); });
      card.li.dataset.template = x.uriTemplate;
      tlist.appendChild(card.li);
    });
    var n = mcp.resources.length;
    var t = mcp.templates.length;
    $('resources-heading').hidden = $('resource-list').hidden = n === 0;
    $('templates-heading').hidden = $('template-list').hidden = t === 0;
    $('resource-count').textContent = [n ? countText(n, 'resource', 'resources') : '', t ? countText(t, 'template', 'templates') : '']
      .filter(Boolean).join(', ');
    $('resources-empty').textContent = 'This server has no resources.';
    $('resources-empty').hidden = n + t > 0;
  }

  function metaList(pairs) {
    return el('dl', { class: 'inv-meta entry-meta' }, pairs.filter(function (p) { return p[1]; }).map(function (p) {
      return el('div', null, el('dt', { text: p[0] }), el('dd', null, el('code', { text: String(p[1]) })));
    }));
  }

  function readRequest(uri) {
    return {
      url: API + '/resources/read?uri=' + encodeURIComponent(uri),
      opts: { headers: authHeaders({ Accept: 'application/json' }), cache: 'no-store' }
    };
  }

  function buildResource(x, body) {
    if (x.description) body.appendChild(el('p', { class: 'description', text: String(x.description) }));
    body.appendChild(metaList([['URI', x.uri], ['MIME type', x.mimeType]]));
    var btn = el('button', { type: 'button', class: 'btn btn-primary run-btn read-btn', text: 'Read resource' });
    var result = el('div', { class: 'result-area' });
    runner(btn, 'Reading...', result, RESOURCE_ANSWER, function () { return readRequest(x.uri); });
    body.appendChild(consoleBox('Read', [el('div', { class: 'run-row' }, btn), result]));
  }

  // buildTemplate fills a resource template's card: a field for each of
  // its variables, the URI they make, and Read.
  function buildTemplate(x, body) {
    if (x.description) body.appendChild(el('p', { class: 'description', text: String(x.description) }));
    body.appendChild(metaList([['URI template', x.uriTemplate], ['MIME type', x.mimeType]]));
    var vars = templateVariables(x.uriTemplate);
    var inputs = [];
    var grid = null;
    if (vars.length) {
      grid = el('div', { class: 'form-grid' });
      vars.forEach(function (v) {
        var inp = textField(grid, v.name, false, v.hint);
        inp.dataset.var = v.name;
        inputs.push({ name: v.name, input: inp });
      });
    }
    var uriEl = el('code', { class: 'uri-preview' });
    function uri() {
      var values = Object.create(null);
      inputs.forEach(function (f) { if (f.input.value !== '') values[f.name] = f.input.value; });
      return expandTemplate(x.uriTemplate, values);
    }
    function update() { uriEl.textContent = uri(); }
    var btn = el('button', { type: 'button', class: 'btn btn-primary run-btn read-btn', text: 'Read resource' });
    var result = el('div', { class: 'result-area' });
    var go = runner(btn, 'Reading...', result, RESOURCE_ANSWER, function () { return readRequest(uri()); });
    inputs.forEach(function (f) {
      f.input.addEventListener('input', update);
      f.input.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter') { ev.preventDefault(); go(); }
      });
    });
    update();
    body.appendChild(consoleBox('Variables', [
      grid || el('p', { class: 'plain-note', text: 'This template has no variables.' }),
      el('div', { class: 'uri-row' }, el('span', { class: 'uri-label', text: 'URI' }), uriEl),
      el('div', { class: 'run-row' }, btn),
      result
    ]));
  }

  function isJSONType(mime) {
    return /^(application|text)\/([a-z0-9.+-]*\+)?json(\s*;.*)?$/i.test(mime);
  }

  // renderResourceContents shows a resource's contents: text (pretty when
  // it is JSON), an image, or the size of other bytes with a download.
  function renderResourceContents(panel, rc, prefix) {
    var mime = typeof rc.mimeType === 'string' ? rc.mimeType : '';
    var uri = typeof rc.uri === 'string' ? rc.uri : '';
    panel.appendChild(el('div', { class: 'content-label' }, prefix, el('code', { text: uri }), mime ? ' (' + mime + ')' : ''));
    if (typeof rc.text === 'string') {
      // Text of another type is shown exactly as it is.
      panel.appendChild(!mime || isJSONType(mime) ? codeBlock(rc.text, 'result-text') : el('pre', { class: 'code result-text', text: rc.text }));
    } else if (typeof rc.blob === 'string') {
      panel.appendChild(blobView(rc.blob, mime, uri));
    } else {
      panel.appendChild(el('p', { class: 'muted', text: '(empty)' }));
    }
  }

  function base64Size(b64) { return Math.floor(b64.replace(/=+$/, '').length * 3 / 4); }

  function formatBytes(n) {
    if (n < 1024) return n + (n === 1 ? ' byte' : ' bytes');
    var kb = n / 1024;
    return (kb < 1024 ? kb.toFixed(1) + ' KB' : (kb / 1024).toFixed(1) + ' MB') + ' (' + n + ' bytes)';
  }

  function blobView(blob, mime, uri) {
    var b64 = blob.replace(/[^A-Za-z0-9+/=]/g, '');
    var size = formatBytes(base64Size(b64));
    var m = /^(image|audio)\/[a-z0-9.+-]+$/i.exec(mime);
    if (m && m[1].toLowerCase() === 'image') {
      return el('figure', { class: 'blob' },
        el('img', { class: 'result-image', alt: 'Image ' + uri + ' (' + mime + ')', src: 'data:' + mime + ';base64,' + b64 }),
        el('figcaption', { class: 'muted blob-note', text: 'Image, ' + size }));
    }
    var dl = el('button', { type: 'button', class: 'btn btn-sm download-btn', text: 'Download' });
    var note = el('span', { class: 'muted', text: 'Binary content' + (mime ? ', ' + mime : '') + ', ' + size });
    dl.addEventListener('click', function () {
      if (!download(b64, mime, fileName(uri))) note.textContent = 'The content is not valid base64.';
    });
    return el('div', { class: 'blob' },
      m ? el('audio', { controls: true, src: 'data:' + mime + ';base64,' + b64 }) : null,
      el('div', { class: 'blob-note' }, note, dl));
  }

  // download saves bytes (base64) as a file, through a blob: URL.
  function download(b64, mime, name) {
    var bin;
    try { bin = atob(b64); } catch (e) { return false; }
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var url = URL.createObjectURL(new Blob([bytes], { type: mime || 'application/octet-stream' }));
    var a = el('a', { href: url, download: name, class: 'offscreen' });
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    return true;
  }

  // fileName is a name for a resource saved as a file: its URI's last
  // segment.
  function fileName(uri) {
    var last = String(uri).split(/[?#]/)[0].split('/').filter(Boolean).pop() || '';
    last = last.replace(/[^\w.\-]+/g, '_').replace(/^[._]+/, '');
    return last && !/:$/.test(last) ? last : 'resource';
  }

  // ----- URI templates (RFC 6570) -----

  var TEMPLATE_OPS = {
    '': { first: '', sep: ',', named: false, ifemp: '', reserved: false },
    '+': { first: '', sep: ',', named: false, ifemp: '', reserved: true },
    '#': { first: '#', sep: ',', named: false, ifemp: '', reserved: true },
    '.': { first: '.', sep: '.', named: false, ifemp: '', reserved: false },
    '/': { first: '/', sep: '/', named: false, ifemp: '', reserved: false },
    ';': { first: ';', sep: ';', named: true, ifemp: '', reserved: false },
    '?': { first: '?', sep: '&', named: true, ifemp: '=', reserved: false },
    '&': { first: '&', sep: '&', named: true, ifemp: '=', reserved: false }
  };
  var TEMPLATE_HINTS = { '?': 'query parameter', '&': 'query parameter', '#': 'fragment', '+': 'reserved characters kept', ';': 'path parameter' };

  function eachExpression(tpl, f) {
    return String(tpl).replace(/\{([^{}]*)\}/g, function (whole, expr) {
      var op = /^[+#./;?&]/.test(expr) ? expr[0] : '';
      var specs = [];
      expr.slice(op.length).split(',').forEach(function (spec) {
        var m = /^\s*([A-Za-z0-9_.%]+)(?::(\d+)|(\*))?\s*$/.exec(spec);
        if (m) specs.push({ name: m[1], prefix: m[2] ? Number(m[2]) : 0 });
      });
      return f(op, specs, whole);
    });
  }

  // templateVariables lists a template's variables, each once.
  function templateVariables(tpl) {
    var out = [];
    var seen = Object.create(null);
    eachExpression(tpl, function (op, specs) {
      specs.forEach(function (s) {
        if (seen[s.name]) return;
        seen[s.name] = true;
        out.push({ name: s.name, hint: TEMPLATE_HINTS[op] || '' });
      });
      return '';
    });
    return out;
  }

  function pctEncode(s, reserved) {
    var chars = Array.from(s);
    var out = '';
    for (var i = 0; i < chars.length; i++) {
      var c = chars[i];
      if (/^[A-Za-z0-9\-._~]$/.test(c) || reserved && /^[:/?#[\]@!$&'()*+,;=]$/.test(c) ||
          reserved && c === '%' && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] || '') + (chars[i + 2] || ''))) {
        out += c;
        continue;
      }
      try {
        out += encodeURIComponent(c).replace(/[!'()*]/g, function (x) { return '%' + x.charCodeAt(0).toString(16).toUpperCase(); });
      } catch (e) {
        out += '%EF%BF%BD'; // a lone surrogate
      }
    }
    return out;
  }

  // expandTemplate fills a URI template with string values (RFC 6570,
  // every operator; a variable without a value is left out).
  function expandTemplate(tpl, values) {
    return eachExpression(tpl, function (op, specs, whole) {
      var o = TEMPLATE_OPS[op];
      if (!o || !specs.length) return whole;
      var parts = [];
      specs.forEach(function (s) {
        var v = values[s.name];
        if (v === undefined || v === null) return;
        v = String(v);
        if (s.prefix) v = Array.from(v).slice(0, s.prefix).join('');
        parts.push(o.named ? s.name + (v === '' ? o.ifemp : '=' + pctEncode(v, o.reserved)) : pctEncode(v, o.reserved));
      });
      return parts.length ? o.first + parts.join(o.sep) : '';
    });
  }

  // ---------- The OpenAPI link ----------

  // addOpenAPILink links the header to /openapi.json, which the runtime
  // serves at the server's root: relative to the page, as far up as the
  // OXP link (or the history's URL) goes. The link shows only when the
  // document answers, since the server may not serve it there (it may be
  // off, or moved). Should {{PROTOCOL_LINKS}} link it itself one day, that
  // link is kept.
  function addOpenAPILink() {
    var nav = document.querySelector('.protocol-links');
    if (!nav) return;
    if (nav.querySelector('a[data-protocol="openapi"], a[href$="openapi.json"]')) {
      nav.dataset.openapi = 'linked';
      return;
    }
    var oxp = nav.querySelector('a');
    var rel = (oxp && oxp.getAttribute('href')) || HISTORY_URL || '';
    var up = /^(\.\.\/)*/.exec(rel)[0];
    var href = new URL(up + 'openapi.json', location.origin + API + '/').pathname;
    fetch(href, { method: 'HEAD', cache: 'no-store' }).then(function (resp) {
      return resp.ok && /json/i.test(resp.headers.get('Content-Type') || '');
    }, function () { return false; }).then(function (ok) {
      if (ok) nav.appendChild(el('a', { href: href, title: 'The REST API as an OpenAPI 3.1 document (JSON)', dataset: { protocol: 'openapi' }, text: 'OpenAPI' }));
      nav.dataset.openapi = ok ? 'linked' : 'none';
    });
  }

  // ---------- Start ----------

  paintThemeButton();
  $('theme-toggle').addEventListener('click', toggleTheme);
  $('token-input').addEventListener('input', function (ev) { setToken(ev.target.value); });
  $('token-clear').addEventListener('click', function () { $('token-input').value = ''; setToken(''); });
  setToken($('token-input').value);
  if (AUTH_REQUIRED) showAuthBar();
  $('search').addEventListener('input', filter);
  document.addEventListener('keydown', function (ev) {
    var t = ev.target;
    var typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
    if (!typing && (ev.key === '/' || (ev.key === 'k' && (ev.ctrlKey || ev.metaKey)))) {
      ev.preventDefault();
      if (currentView() !== 'tools') showView('tools');
      $('search').focus();
    }
  });
  var tabs = $('views');
  tabs.addEventListener('click', function (ev) {
    var b = ev.target.closest('button');
    if (b) showView(b.dataset.view);
  });
  // Arrow keys move between the tabs shown, as in any tab list.
  tabs.addEventListener('keydown', function (ev) {
    var list = Array.prototype.filter.call(tabs.children, function (b) { return !b.hidden; });
    var i = list.indexOf(document.activeElement);
    if (i < 0) return;
    var j = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: list.length - 1 }[ev.key];
    if (j === undefined) return;
    ev.preventDefault();
    var b = list[(j + list.length) % list.length];
    showView(b.dataset.view);
    b.focus();
  });
  if (HISTORY) {
    ['history-tool', 'history-status', 'history-surface'].forEach(function (id) {
      $(id).addEventListener('change', function () { loadHistory(false); });
    });
    $('history-refresh').addEventListener('click', function () { loadHistory(false); });
    $('history-more').addEventListener('click', function () { loadHistory(true); });
    // Once a token is typed after a 401, try again.
    document.addEventListener('explorer:token', function () {
      clearTimeout(hist.retry);
      if (state.token && currentView() === 'history' && $('history-view').dataset.state === 'unauthorized') {
        hist.retry = setTimeout(function () { loadHistory(false); }, 400);
      }
    });
  }
  if (HUMAN) {
    // What the caller sees depends on the token: read again (once typing
    // stops) when it changes; a refusal shown was the old token's.
    document.addEventListener('explorer:token', function () {
      clearTimeout(appr.retry);
      appr.retry = setTimeout(function () {
        Object.keys(appr.pending).forEach(function (id) { appr.pending[id].error.textContent = ''; });
        if (currentView() === 'approvals') loadApprovals();
      }, 400);
    });
    // No refresh while the browser's tab is hidden.
    document.addEventListener('visibilitychange', function () {
      if (currentView() !== 'approvals') return;
      if (document.hidden) stopApprovals();
      else startApprovals();
    });
  }
  // A tool list depends on the caller's scopes: list again (once typing
  // stops) when the token changes.
  var relist = null;
  document.addEventListener('explorer:token', function () {
    clearTimeout(relist);
    relist = setTimeout(function () {
      if (state.token === state.listedToken) return;
      loadTools();
    }, 400);
  });
  paintTabs();
  route(hashName());
  // A link followed within the page: a view, a prompt or resource in its
  // view, or a tool's name.
  window.addEventListener('hashchange', function () {
    var want = hashName();
    if (route(want)) return;
    if (currentView() !== 'tools') showView('tools', true);
    openFromHash(want);
  });
  loadTools();
  loadPrompts();
  loadResources();
  addOpenAPILink();
})();
