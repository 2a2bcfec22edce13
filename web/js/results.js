  // showNoResponse shows in area that a request got no answer.
  function showNoResponse(area, e, ms) {
    clear(area);
    append(area, el('div', { class: 'result is-error' },
      el('div', { class: 'result-head' }, el('span', { class: 'content-label', text: 'No response' }),
        el('div', { class: 'result-meta' }, el('span', { class: 'elapsed', text: formatMs(ms) }))),
      el('div', { class: 'result-panel' }, el('div', { class: 'error-box', text: 'Request failed: ' + (e && e.message ? e.message : String(e)) }))));
  }

  // resultTabs switches a result between its rendered view (panel) and
  // the raw answer.
  function resultTabs(panel, raw, label, rawLabel) {
    var tabs = el('div', { class: 'tabs', role: 'tablist' },
      el('button', { type: 'button', role: 'tab', 'aria-selected': 'true', dataset: { tab: 'result' }, text: label }),
      el('button', { type: 'button', role: 'tab', 'aria-selected': 'false', dataset: { tab: 'raw' }, text: rawLabel }));
    tabs.addEventListener('click', function (ev) {
      var b = ev.target.closest('button');
      if (!b) return;
      Array.prototype.forEach.call(tabs.children, function (x) { x.setAttribute('aria-selected', x === b ? 'true' : 'false'); });
      panel.hidden = b.dataset.tab !== 'result';
      raw.hidden = b.dataset.tab !== 'raw';
    });
    return tabs;
  }

  // unauthorizedBox asks for a Bearer token, with a button to the token
  // field.
  function unauthorizedBox(message) {
    var enter = el('button', { type: 'button', class: 'btn btn-sm focus-token', text: 'Enter a token' });
    enter.addEventListener('click', function () { $('token-input').focus(); });
    return el('div', { class: 'error-box unauthorized' }, el('p', { text: message }), enter);
  }

  function statusLabel(r, isErr) {
    var names = { 200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 413: 'Too Large', 500: 'Error', 504: 'Timeout' };
    var s = r.status + ' ' + (names[r.status] || r.statusText || '');
    if (isErr) s += ' \u00b7 isError';
    return s.trim();
  }

  function formatMs(ms) {
    if (ms < 1000) return Math.max(0, Math.round(ms)) + ' ms';
    return (ms / 1000).toFixed(2) + ' s';
  }

  function safeHref(u) {
    return typeof u === 'string' && /^https?:\/\//i.test(u.replace(/[\t\n\r]/g, '').trim());
  }

  function renderText(text) {
    return codeBlock(String(text), 'result-text');
  }

  function renderContent(panel, body) {
    if (!body.content.length) {
      panel.appendChild(el('p', { class: 'muted', text: body.structuredContent !== undefined ? '' : '(no content)' }));
    }
    body.content.forEach(function (c) { renderBlock(panel, c); });
    if (!body.content.length && body.structuredContent !== undefined) {
      panel.appendChild(codeBlock(pretty(body.structuredContent), 'result-text'));
    }
  }

  // renderBlock shows one MCP content block: a tool result's, a prompt
  // message's.
  function renderBlock(panel, c) {
    if (!isObject(c)) return;
    var type = c.type;
    if (type === 'text') {
      panel.appendChild(renderText(c.text || ''));
    } else if ((type === 'image' || type === 'audio') && typeof c.data === 'string') {
      var mime = typeof c.mimeType === 'string' && /^[a-z]+\/[a-z0-9.+-]+$/i.test(c.mimeType) ? c.mimeType : (type === 'image' ? 'image/png' : 'audio/wav');
      var src = 'data:' + mime + ';base64,' + c.data.replace(/[^A-Za-z0-9+/=]/g, '');
      if (type === 'image') {
        panel.appendChild(el('img', { class: 'result-image', alt: 'Image result (' + mime + ')', src: src }));
      } else {
        panel.appendChild(el('audio', { controls: true, src: src }));
      }
    } else if (type === 'resource' && isObject(c.resource)) {
      renderResourceContents(panel, c.resource, 'Resource ');
    } else if (type === 'resource_link') {
      var label = String(c.title || c.name || c.uri || '');
      panel.appendChild(el('div', { class: 'content-label' }, 'Link: ',
        safeHref(c.uri) ? el('a', { href: c.uri, target: '_blank', rel: 'noopener noreferrer', text: label })
          : el('code', { text: label + (c.uri && c.uri !== label ? ' \u2014 ' + c.uri : '') }),
        c.description ? ' \u2014 ' + c.description : ''));
    } else {
      panel.appendChild(codeBlock(pretty(c)));
    }
  }

