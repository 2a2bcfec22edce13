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

