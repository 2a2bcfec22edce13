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

