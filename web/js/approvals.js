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

