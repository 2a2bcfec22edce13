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

