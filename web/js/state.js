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
    cards: [],        // the cards shown: {tool, li, open, loaded}
    cardByName: {},   // every card made, by tool name (list.js)
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

