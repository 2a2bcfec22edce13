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
    // The version: what a caller may rely on of the name and schemas.
    if (typeof t.version === 'string' && t.version) body.appendChild(el('p', { class: 'tool-version', title: 'What a caller may rely on of this tool\'s name and schemas', text: 'Version ' + t.version }));
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

