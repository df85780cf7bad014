'use strict';
// The operators' console: reads /actuator/breakers, follows /actuator/breakers/stream, and writes
// through the endpoint. No library, no build step: plain DOM, text only (never innerHTML).
(function () {
  const base = location.pathname.replace(/\/console\/?$/, '');
  const breakers = new Map();
  const rows = document.getElementById('breakers');
  const panels = document.getElementById('panels');
  const live = document.getElementById('live');
  const message = document.getElementById('message');
  const REFRESH_MS = 5000;

  function say(text, error) {
    message.textContent = text;
    message.className = error ? 'error' : '';
  }

  function rate(value, threshold) {
    if (value === undefined || value < 0) {
      return 'not evaluated / ' + threshold + '%';
    }
    return value.toFixed(1) + '% / ' + threshold + '%';
  }

  function time(instant) {
    return instant ? new Date(instant).toLocaleTimeString() : '—';
  }

  function cell(row, label, content) {
    const td = document.createElement('td');
    td.dataset.label = label;
    if (content instanceof Node) {
      td.appendChild(content);
    } else {
      td.textContent = content;
    }
    row.appendChild(td);
    return td;
  }

  function button(text, label, action) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', action);
    return b;
  }

  // A write is sent with X-Requested-With, so that Spring Security answers a refusal with a plain 401
  // instead of a challenge that would open the browser's sign-in dialog in the middle of the page. After
  // a 401 the page offers "Sign in and retry", which sends the same write without it: an endpoint behind
  // HTTP basic then challenges, the browser asks for a user and password once, and sends them with this
  // write and every later request of the page.
  async function send(method, url, body, what, signIn) {
    const headers = signIn ? {} : { 'X-Requested-With': 'XMLHttpRequest' };
    if (body) headers['Content-Type'] = 'application/json';
    try {
      const response = await fetch(url, {
        method: method,
        credentials: 'same-origin',
        headers: headers,
        body: body ? JSON.stringify(body) : undefined
      });
      const text = await response.text();
      let json = {};
      try { json = text ? JSON.parse(text) : {}; } catch (ignored) { json = {}; }
      if (!response.ok) {
        const reason = response.status === 401 || response.status === 403
          ? 'not allowed: an operator must sign in' : (json.message || response.statusText);
        say(what + ' refused (' + response.status + '): ' + reason, true);
        if (response.status === 401 && !signIn) {
          message.append(' ', button('Sign in and retry', 'Sign in and retry: ' + what,
            () => send(method, url, body, what, true)));
        }
        return null;
      }
      say(what + ': done');
      refresh();
      return json;
    } catch (failure) {
      say(what + ' failed: ' + failure, true);
      return null;
    }
  }

  function force(name, state) {
    if (window.confirm('Set breaker ' + name + ' to ' + state + '?')) {
      send('POST', base + '/' + encodeURIComponent(name), { state: state }, name + ' ' + state);
    }
  }

  function settingsEditor(b) {
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'Settings…';
    details.appendChild(summary);
    const id = 'settings-' + b.name;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = 'Settings to change (YAML names), as JSON';
    const area = document.createElement('textarea');
    area.id = id;
    area.rows = 3;
    area.value = JSON.stringify({ 'failure-rate-threshold': b.config.failureRateThreshold });
    details.append(label, area,
      button('Apply', 'Apply settings to ' + b.name, () => {
        let body;
        try { body = JSON.parse(area.value); } catch (e) { say('Settings of ' + b.name + ': not JSON', true); return; }
        if (window.confirm('Change settings of ' + b.name + '?')) {
          send('POST', base + '/' + encodeURIComponent(b.name) + '/config', body, 'settings of ' + b.name);
        }
      }),
      button('Configured values', 'Return ' + b.name + ' to its configured settings', () => {
        if (window.confirm('Return ' + b.name + ' to its configured settings?')) {
          send('DELETE', base + '/' + encodeURIComponent(b.name) + '/config', null, 'settings of ' + b.name);
        }
      }));
    return details;
  }

  // A breaker that injects faults into its calls (a rehearsal): said next to its state, with the values.
  function faultsBadge(f) {
    const badge = document.createElement('span');
    badge.className = 'faults';
    badge.textContent = 'faults injected';
    badge.title = f.failureRate + '% fail with ' + f.exception
      + (f.latency ? ', ' + f.latencyRate + '% delayed ' + f.latency : '');
    badge.setAttribute('aria-label', 'faults injected: ' + badge.title);
    return badge;
  }

  function render() {
    const open = new Set(Array.from(rows.querySelectorAll('details[open]')).map(d => d.closest('tr').dataset.name));
    rows.textContent = '';
    const sorted = Array.from(breakers.values()).sort((a, b) => a.name.localeCompare(b.name));
    sorted.forEach(b => {
      const row = document.createElement('tr');
      row.dataset.name = b.name;
      const name = document.createElement('strong');
      name.textContent = b.name + (b.shared ? ' (shared' + (b.store && !b.store.reachable ? ', store unreachable' : '') + ')' : '');
      cell(row, 'Breaker', name);
      const state = document.createElement('span');
      state.className = 'state ' + b.state;
      state.dataset.state = b.state;
      state.textContent = b.state;
      const stateCell = cell(row, 'State', state);
      if (b.faults) stateCell.append(' ', faultsBadge(b.faults));
      const failure = cell(row, 'Failure rate', rate(b.failureRate, b.config.failureRateThreshold));
      if (b.failureRate >= b.config.failureRateThreshold) failure.className = 'over';
      cell(row, 'Slow calls', rate(b.slowCallRate, b.config.slowCallRateThreshold));
      cell(row, 'Calls', b.callsInWindow + ' (' + b.failedCalls + ', ' + b.slowCalls + ')');
      cell(row, 'Rejected', String(b.rejectedCalls));
      cell(row, 'Next probe', time(b.nextProbeAt));
      const list = document.createElement('ol');
      (b.transitions || []).slice(0, 3).forEach(t => {
        const item = document.createElement('li');
        item.textContent = time(t.at) + ' ' + t.from + ' → ' + t.to + ' (' + t.cause + (t.principal ? ', ' + t.principal : '') + ')';
        list.appendChild(item);
      });
      cell(row, 'Recent transitions', list);
      const actions = document.createElement('div');
      actions.append(
        button('Force open', 'Force ' + b.name + ' open', () => force(b.name, 'OPEN')),
        button('Force closed', 'Force ' + b.name + ' closed', () => force(b.name, 'CLOSED')),
        button('Auto', 'Return ' + b.name + ' to automatic', () => force(b.name, 'AUTO')),
        settingsEditor(b));
      if (open.has(b.name)) actions.querySelector('details').open = true;
      cell(row, 'Actions', actions);
      rows.appendChild(row);
    });
    window.BreakerPanels.render(panels, sorted);
  }

  function replaceAll(list) {
    breakers.clear();
    list.forEach(b => breakers.set(b.name, b));
    render();
  }

  async function refresh() {
    try {
      const response = await fetch(base, { credentials: 'same-origin' });
      if (response.ok) replaceAll((await response.json()).breakers);
    } catch (ignored) {
      // the stream says whether the server is there
    }
  }

  // The stream. After a stream that ended (each lasts a minute) or a lost connection, the browser
  // reconnects by itself, after the server's retry: delay. After an answer that is not a stream (a 503
  // when no slot is free or the application is stopping, a 401, a 500) it gives up: then the page asks
  // again itself, waiting longer each time (from 1 s, doubling up to 30 s, with jitter so that many pages
  // do not come back at once), until it is served.
  const RETRY_MIN_MS = 1000;
  const RETRY_MAX_MS = 30000;
  let retryMs = RETRY_MIN_MS;

  function follow() {
    let renewing = false;
    const stream = new EventSource(base + '/stream');
    stream.addEventListener('snapshot', e => {
      retryMs = RETRY_MIN_MS;
      renewing = false;
      live.textContent = 'live';
      replaceAll(JSON.parse(e.data).breakers);
    });
    stream.addEventListener('transition', e => {
      const event = JSON.parse(e.data);
      if (event.breaker) breakers.set(event.name, event.breaker);
      live.textContent = 'live: ' + event.name + ' ' + event.transition.from + ' → ' + event.transition.to;
      render();
    });
    stream.addEventListener('dropped', () => { live.textContent = 'fell behind: reconnecting…'; });
    stream.addEventListener('end', () => {
      renewing = true;
      live.textContent = 'live: renewing the stream…';
    });
    stream.onerror = () => {
      if (stream.readyState !== EventSource.CLOSED) {
        if (!renewing) live.textContent = 'disconnected: reconnecting…';
        return; // the browser reconnects by itself
      }
      stream.close();
      const wait = Math.round(retryMs * (0.5 + Math.random() / 2));
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      live.textContent = 'stream refused or failed: trying again in ' + Math.ceil(wait / 1000) + ' s…';
      setTimeout(follow, wait);
    };
  }

  follow();
  setInterval(refresh, REFRESH_MS);
})();
