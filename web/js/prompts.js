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

