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
