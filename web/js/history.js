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

  // emptyHistory forgets the loaded invocations and hides the table.
  function emptyHistory() {
    hist.items = [];
    hist.byId = {};
    hist.offset = hist.total = 0;
    clear($('history-rows'));
    $('history-table').hidden = true;
    $('history-more').hidden = true;
    $('history-empty').hidden = true;
    $('history-count').textContent = '';
  }

  function historyUnauthorized() {
    showAuthBar();
    emptyHistory();
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
      emptyHistory();
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

