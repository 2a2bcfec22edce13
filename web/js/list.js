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

  // A catalog longer than maxRows is not rendered whole: the first
  // maxRows tools are, and a search asks the server, whose index ranks
  // the whole catalog (GET /tools?search=), for the best searchLimit.
  // A smaller one is filtered here, as the user types.
  var maxRows = 200, searchLimit = 100;

  // cardFor is the card of a tool, made the first time it is shown.
  function cardFor(t) {
    var name = String(t.name);
    if (state.cardByName[name]) return state.cardByName[name];
    var header = el('button', { type: 'button', class: 'tool-header', 'aria-expanded': 'false' },
      el('span', { class: 'chevron', 'aria-hidden': 'true' }),
      el('span', { class: 'tool-line' },
        el('span', { class: 'tool-name', text: name }),
        t.title ? el('span', { class: 'tool-title', text: String(t.title) }) : null,
        el('span', { class: 'badges' }, badges(t.annotations).concat(policyBadges(t)))),
      el('span', { class: 'tool-summary', text: firstLine(t.description) }));
    var body = el('div', { class: 'tool-body', hidden: true });
    var li = el('li', { class: 'tool', dataset: { tool: name } }, header, body);
    var card = { tool: t, li: li, header: header, body: body, open: false, loaded: false,
      haystack: [t.name, t.title, t.description].join('\n').toLowerCase() };
    header.addEventListener('click', function () { toggle(card); });
    state.cardByName[name] = card;
    return card;
  }

  // show renders the cards of tools, in their order, and only them.
  function show(tools) {
    var list = $('tool-list');
    clear(list);
    state.cards = tools.map(cardFor);
    state.cards.forEach(function (c) { c.li.hidden = false; list.appendChild(c.li); });
  }

  function renderList() {
    state.cardByName = {};
    state.big = state.tools.length > maxRows;
    show(state.big ? state.tools.slice(0, maxRows) : state.tools);
    filter();
  }

  function filter() {
    var q = $('search').value.trim();
    var total = state.tools.length;
    if (state.big) return searchServer(q, total);
    var words = q ? q.toLowerCase().split(/\s+/) : [];
    var shown = 0;
    state.cards.forEach(function (c) {
      var match = words.every(function (w) { return c.haystack.indexOf(w) >= 0; });
      c.li.hidden = !match;
      if (match) shown++;
    });
    counted(q, shown, total);
  }

  // counted says how many tools are shown, of how many.
  function counted(q, shown, total) {
    var count = q ? shown + ' of ' + total + ' tools' : total + (total === 1 ? ' tool' : ' tools');
    if (!q && state.big) count += ' (the first ' + maxRows + ' shown: search to find the others)';
    $('tool-count').textContent = count;
    var empty = $('empty');
    empty.hidden = shown > 0;
    empty.textContent = total === 0 ? 'This server has no tools.' : 'No tools match \u201c' + q + '\u201d.';
  }

  // searchServer shows the server's best matches of q, a moment after
  // the user stops typing; an answer to a query typed over is dropped.
  function searchServer(q, total) {
    clearTimeout(state.searchTimer);
    if (!q) {
      state.searchSeq = (state.searchSeq || 0) + 1;
      show(state.tools.slice(0, maxRows));
      return counted('', maxRows, total);
    }
    state.searchTimer = setTimeout(function () {
      var seq = state.searchSeq = (state.searchSeq || 0) + 1;
      var url = API + '/tools?search=' + encodeURIComponent(q) + '&limit=' + searchLimit;
      request(url, { headers: authHeaders({ Accept: 'application/json' }) }).then(function (r) {
        if (seq !== state.searchSeq) return;
        if (r.status !== 200 || !Array.isArray(r.body)) throw new Error(errorMessage(r));
        var found = r.body.filter(isObject);
        show(found);
        counted(q, found.length, total);
      }).catch(function (e) {
        if (seq !== state.searchSeq) return;
        var n = $('notice');
        n.textContent = 'Could not search the tools: ' + e.message;
        n.hidden = false;
      });
    }, 150);
  }

  // openFromHash opens the tool a link names.
  function openFromHash(want) {
    if (!want) return;
    var card = state.cards.filter(function (c) { return c.tool.name === want; })[0];
    if (!card) {
      // A tool of a long catalog that is not shown: shown alone.
      var t = state.tools.filter(function (x) { return x.name === want; })[0];
      if (!t) return;
      show([t]);
      card = state.cards[0];
    }
    toggle(card, true);
    card.li.scrollIntoView({ block: 'start' });
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

