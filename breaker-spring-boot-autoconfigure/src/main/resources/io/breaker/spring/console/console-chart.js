'use strict';
// The console's panel per breaker: a chart of its recent history (calls per second by outcome, the
// failure rate against its threshold, OPEN periods shaded), the countdown to the next probe, its
// transitions as a timeline, and for a shared breaker the fleet's state. Hand-written SVG, text only
// (never innerHTML). Every number drawn is also written in data attributes and in a table, so that
// a test, a screen reader and a keyboard user read exactly what was plotted.
window.BreakerPanels = (function () {
  const SVG = 'http://www.w3.org/2000/svg';
  // The drawing's width follows the page's, so that its text stays readable on a phone.
  let W = 600;
  const H = 190;
  const LEFT = 46;
  const RIGHT = 44;
  const TOP = 12;
  const BOTTOM = 24;
  const STRIP = 18;
  // Bottom to top in each bar.
  const OUTCOMES = ['succeeded', 'slow', 'failed', 'ignored', 'rejected'];
  const SHADED = { OPEN: 'shade-open', FORCED_OPEN: 'shade-open', HALF_OPEN: 'shade-half' };
  // When this page received each breaker's numbers: the countdown runs from there.
  const received = new WeakMap();

  function svg(name, attributes, text) {
    const node = document.createElementNS(SVG, name);
    Object.entries(attributes || {}).forEach(([key, value]) => node.setAttribute(key, String(value)));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function html(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function clock(ms) {
    return new Date(ms).toLocaleTimeString();
  }

  function span(seconds) {
    const s = Math.round(seconds);
    return s < 120 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
  }

  /** 1, 2 or 5 times a power of ten, at or above value (an axis's top). */
  function ceiling(value) {
    if (!(value > 0)) return 1;
    const power = Math.pow(10, Math.floor(Math.log10(value)));
    return [1, 2, 5, 10].map(f => f * power).find(top => top >= value - 1e-9);
  }

  /** The calls of each outcome between two consecutive samples (null where the meters gave none). */
  function intervals(samples) {
    const result = [];
    for (let i = 1; i < samples.length; i++) {
      const a = samples[i - 1];
      const b = samples[i];
      const seconds = (Date.parse(b.at) - Date.parse(a.at)) / 1000;
      const counts = {};
      let total = 0;
      OUTCOMES.forEach(outcome => {
        const delta = a[outcome] < 0 || b[outcome] < 0 ? null : b[outcome] - a[outcome];
        counts[outcome] = delta === null || delta < 0 ? null : delta;
        total += counts[outcome] || 0;
      });
      result.push({ from: a.at, to: b.at, seconds: seconds, counts: counts, perSecond: seconds > 0 ? total / seconds : 0 });
    }
    return result;
  }

  /** The breaker's states between t0 and t1, from its transitions (newest first in the descriptor). */
  function periods(b, t0, t1) {
    const transitions = (b.transitions || []).slice().reverse();
    let state = transitions.length ? transitions[0].from : b.state;
    let start = t0;
    const result = [];
    transitions.forEach(t => {
      const at = Date.parse(t.at);
      if (at > start && at <= t1) {
        result.push({ state: state, from: start, to: at });
        start = at;
      }
      state = t.to;
    });
    result.push({ state: state, from: Math.max(start, t0), to: t1 });
    return result.filter(p => p.to > p.from);
  }

  function chart(b, samples, t0, t1) {
    const slots = intervals(samples);
    const plotW = W - LEFT - RIGHT;
    const plotH = H - TOP - BOTTOM;
    const x = ms => LEFT + (t1 === t0 ? 0 : (ms - t0) / (t1 - t0) * plotW);
    const callsTop = ceiling(Math.max(0, ...slots.map(s => s.perSecond)));
    const yCalls = perSecond => TOP + plotH - perSecond / callsTop * plotH;
    const yRate = percent => TOP + plotH - percent / 100 * plotH;
    const threshold = b.config.failureRateThreshold;
    const title = 'History of ' + b.name;
    const chartSvg = svg('svg', {
      viewBox: '0 0 ' + W + ' ' + H, class: 'chart', role: 'img', 'aria-label': title,
      'data-threshold': threshold, 'data-calls-top': callsTop, 'data-from': new Date(t0).toISOString(),
      'data-to': new Date(t1).toISOString()
    });
    chartSvg.appendChild(svg('title', {}, title));

    periods(b, t0, t1).filter(p => SHADED[p.state]).forEach(p => chartSvg.appendChild(svg('rect', {
      class: SHADED[p.state], x: x(p.from), y: TOP, width: Math.max(1, x(p.to) - x(p.from)), height: plotH,
      'data-state': p.state
    })));

    [0, 0.5, 1].forEach(f => chartSvg.appendChild(svg('line', {
      class: 'grid', x1: LEFT, x2: W - RIGHT, y1: TOP + plotH * (1 - f), y2: TOP + plotH * (1 - f)
    })));

    slots.forEach(s => {
      const group = svg('g', {
        class: 'interval', 'data-from': s.from, 'data-to': s.to, 'data-seconds': s.seconds,
        'data-per-second': s.perSecond.toFixed(3)
      });
      OUTCOMES.forEach(outcome => group.setAttribute('data-' + outcome, s.counts[outcome] === null ? '' : s.counts[outcome]));
      const left = x(Date.parse(s.from)) + 0.5;
      const width = Math.max(1, x(Date.parse(s.to)) - left - 0.5);
      let base = 0;
      OUTCOMES.forEach(outcome => {
        const count = s.counts[outcome];
        if (!count || s.seconds <= 0) return;
        const rate = count / s.seconds;
        const bar = svg('rect', {
          class: 'bar ' + outcome, x: left, width: width, y: yCalls(base + rate), height: yCalls(base) - yCalls(base + rate)
        });
        bar.appendChild(svg('title', {}, count + ' ' + outcome + ' in ' + span(s.seconds) + ' until ' + clock(Date.parse(s.to))));
        group.appendChild(bar);
        base += rate;
      });
      chartSvg.appendChild(group);
    });

    chartSvg.appendChild(svg('line', { class: 'threshold', x1: LEFT, x2: W - RIGHT, y1: yRate(threshold), y2: yRate(threshold) }));
    chartSvg.appendChild(svg('text', { class: 'label threshold-label', x: W - RIGHT - 4, y: yRate(threshold) - 4, 'text-anchor': 'end' },
      'threshold ' + threshold + '%'));

    // The failure rate, a line broken where the window held too few calls to have one.
    let points = [];
    const lines = [];
    samples.forEach(sample => {
      if (sample.failureRate >= 0) {
        points.push(x(Date.parse(sample.at)).toFixed(1) + ',' + yRate(sample.failureRate).toFixed(1));
      } else if (points.length) {
        lines.push(points);
        points = [];
      }
    });
    if (points.length) lines.push(points);
    lines.forEach(line => chartSvg.appendChild(line.length === 1
      ? svg('circle', { class: 'rate-dot', cx: line[0].split(',')[0], cy: line[0].split(',')[1], r: 3 })
      : svg('polyline', { class: 'rate', points: line.join(' ') })));
    const rates = svg('g', { class: 'rates' });
    samples.forEach(sample => rates.appendChild(svg('g', { 'data-at': sample.at, 'data-failure-rate': sample.failureRate })));
    chartSvg.appendChild(rates);

    chartSvg.appendChild(svg('text', { class: 'label', x: LEFT - 4, y: TOP + 8, 'text-anchor': 'end' }, String(callsTop)));
    chartSvg.appendChild(svg('text', { class: 'label', x: LEFT - 4, y: TOP + plotH, 'text-anchor': 'end' }, '0'));
    chartSvg.appendChild(svg('text', { class: 'label', x: 4, y: TOP + plotH / 2 + 4 }, 'calls/s'));
    chartSvg.appendChild(svg('text', { class: 'label', x: W - RIGHT + 4, y: TOP + 8 }, '100%'));
    chartSvg.appendChild(svg('text', { class: 'label', x: W - RIGHT + 4, y: TOP + plotH }, '0%'));
    chartSvg.appendChild(svg('text', { class: 'label', x: LEFT, y: H - 6 }, clock(t0)));
    chartSvg.appendChild(svg('text', { class: 'label', x: W - RIGHT, y: H - 6, 'text-anchor': 'end' }, clock(t1)));
    chartSvg.appendChild(svg('text', { class: 'label', x: LEFT + plotW / 2, y: H - 6, 'text-anchor': 'middle' },
      'last ' + span((t1 - t0) / 1000)));
    return { node: chartSvg, slots: slots };
  }

  function timeline(b, t0, t1) {
    const strip = svg('svg', { viewBox: '0 0 ' + W + ' ' + STRIP, class: 'strip', 'aria-hidden': 'true' });
    const plotW = W - LEFT - RIGHT;
    const x = ms => LEFT + (t1 === t0 ? 0 : (ms - t0) / (t1 - t0) * plotW);
    periods(b, t0, t1).forEach(p => {
      const part = svg('rect', { class: 'period ' + p.state, x: x(p.from), y: 2, width: Math.max(1, x(p.to) - x(p.from)), height: STRIP - 4 });
      part.appendChild(svg('title', {}, p.state + ' from ' + clock(p.from) + ' to ' + clock(p.to)));
      strip.appendChild(part);
    });
    const list = html('ol', 'transitions');
    (b.transitions || []).forEach(t => {
      const item = html('li', null, clock(Date.parse(t.at)) + ' ' + t.from + ' → ' + t.to + ' (' + t.cause
        + (t.principal ? ', ' + t.principal : '') + ')');
      item.dataset.at = t.at;
      list.appendChild(item);
    });
    if (!list.childElementCount) list.appendChild(html('li', null, 'no transition yet'));
    const box = html('div', 'timeline');
    box.append(html('h4', null, 'Transitions, newest first'), strip, list);
    return box;
  }

  /** Milliseconds until the next probe at the time the numbers were read, or null when not OPEN. */
  function probeIn(b) {
    if (b.state !== 'OPEN' || !b.nextProbeAt || !b.activity) return null;
    return Date.parse(b.nextProbeAt) - Date.parse(b.activity.at);
  }

  function countdownText(b, element) {
    if (b.state === 'HALF_OPEN') return 'Probing: the permitted calls test the dependency';
    if (b.state === 'FORCED_OPEN') return 'Forced open: no probe until an operator releases it';
    const left = probeIn(b);
    if (left === null) return 'No probe pending: calls go through';
    const now = left - (performance.now() - Number(element.dataset.received));
    return now > 0 ? 'Next probe in ' + span(Math.ceil(now / 1000)) : 'Probe due: the next call probes';
  }

  function fleet(b) {
    const line = html('p', 'fleet');
    if (!b.shared) {
      line.textContent = 'Kept in memory on this instance';
      return line;
    }
    const store = b.store;
    const parts = ['This instance: ' + b.state];
    parts.push(b.fleet ? 'fleet (' + (store ? store.type : 'store') + '): ' + b.fleet.state + ', heard '
      + span(Math.max(0, durationSeconds(b.fleet.age))) + ' ago' : 'fleet: not heard from the store yet');
    if (store) {
      parts.push(store.actingAlone ? 'acting alone: the store is unreachable (' + store.failureMode + ')'
        : store.reachable ? 'acting with the fleet' : 'store unreachable (' + store.failureMode + ')');
    }
    line.textContent = parts.join(' · ');
    line.dataset.fleetState = b.fleet ? b.fleet.state : '';
    line.dataset.actingAlone = store ? String(store.actingAlone) : '';
    if (store && store.actingAlone) line.classList.add('alone');
    return line;
  }

  /** Seconds of an ISO-8601 duration as the actuator writes it (PT1.5S, PT2M3S). */
  function durationSeconds(iso) {
    const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(iso || '');
    return m ? (Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3] || 0)) : 0;
  }

  function numbers(b, slots) {
    const details = html('details', 'numbers');
    details.id = 'numbers-' + b.name;
    details.appendChild(html('summary', null, 'Numbers plotted'));
    const table = html('table', 'plain');
    const head = html('tr');
    ['Until', 'Seconds'].concat(OUTCOMES).concat(['Calls/s']).forEach(h => {
      const th = html('th', null, h);
      th.scope = 'col';
      head.appendChild(th);
    });
    table.appendChild(head);
    slots.slice().reverse().forEach(s => {
      const row = html('tr');
      [clock(Date.parse(s.to)), s.seconds].concat(OUTCOMES.map(o => s.counts[o] === null ? '—' : s.counts[o]))
        .concat([s.perSecond.toFixed(2)]).forEach(v => row.appendChild(html('td', null, String(v))));
      table.appendChild(row);
    });
    const wrap = html('div', 'table-wrap');
    wrap.appendChild(table);
    details.appendChild(wrap);
    return details;
  }

  function legend() {
    const list = html('ul', 'legend');
    OUTCOMES.forEach(o => {
      const item = html('li', null);
      item.append(html('span', 'swatch ' + o), document.createTextNode(o));
      list.appendChild(item);
    });
    [['line rate', 'failure rate'], ['line threshold', 'threshold'], ['swatch shade-open', 'open']].forEach(([c, t]) => {
      const item = html('li', null);
      item.append(html('span', c), document.createTextNode(t));
      list.appendChild(item);
    });
    return list;
  }

  function panel(b) {
    const section = html('section', 'panel');
    section.dataset.name = b.name;
    section.dataset.state = b.state;
    const heading = html('h3', null, b.name + ' ');
    heading.id = 'panel-' + b.name;
    section.setAttribute('aria-labelledby', heading.id);
    const state = html('span', 'state ' + b.state, b.state);
    heading.appendChild(state);
    section.appendChild(heading);

    const probe = html('p', 'probe');
    probe.dataset.received = String(received.get(b));
    probe.setAttribute('aria-live', 'off');
    const left = probeIn(b);
    probe.dataset.probeInMs = left === null ? '' : String(left);
    probe.textContent = countdownText(b, probe);
    section.appendChild(probe);
    section.appendChild(fleet(b));

    const samples = b.activity ? b.activity.samples : [];
    const figure = html('figure', 'history');
    figure.id = 'history-' + b.name;
    figure.tabIndex = 0;
    if (samples.length < 2) {
      figure.appendChild(html('p', 'collecting', b.activity
        ? 'Collecting: the chart fills as this page reads the breaker (a sample every '
          + durationSeconds(b.activity.spacing) + ' s at most).'
        : 'This endpoint keeps no history of the breaker.'));
      section.append(figure, timeline(b, Date.now(), Date.now()));
      return section;
    }
    const t0 = Date.parse(samples[0].at);
    const t1 = Math.max(Date.parse(b.activity.at), Date.parse(samples[samples.length - 1].at));
    const drawn = chart(b, samples, t0, t1);
    if (samples.some(s => s.succeeded < 0)) {
      figure.appendChild(html('p', 'collecting', 'Calls by outcome need Micrometer (the breakers\' meters); rejections and rates are shown.'));
    }
    const caption = html('figcaption');
    caption.appendChild(legend());
    figure.append(drawn.node, caption);
    figure.setAttribute('aria-label', summary(b, drawn.slots, t0, t1));
    section.append(figure, timeline(b, t0, t1), numbers(b, drawn.slots));
    return section;
  }

  function summary(b, slots, t0, t1) {
    const sums = {};
    OUTCOMES.forEach(o => { sums[o] = slots.reduce((n, s) => n + (s.counts[o] || 0), 0); });
    return 'History of ' + b.name + ' over the last ' + span((t1 - t0) / 1000) + ': '
      + OUTCOMES.map(o => sums[o] + ' ' + o).join(', ') + '; failure rate now '
      + (b.failureRate >= 0 ? b.failureRate.toFixed(1) + '%' : 'not evaluated') + ', threshold '
      + b.config.failureRateThreshold + '%.';
  }

  /** Redraws every panel, keeping the focus and the open tables where they were. */
  function render(container, list) {
    const focused = document.activeElement && container.contains(document.activeElement) ? document.activeElement.id : null;
    const open = new Set(Array.from(container.querySelectorAll('details[open]')).map(d => d.id));
    container.textContent = '';
    W = Math.max(300, Math.min(720, Math.round(container.clientWidth) - 32));
    list.forEach(b => {
      if (!received.has(b)) received.set(b, performance.now());
      container.appendChild(panel(b));
    });
    open.forEach(id => { const d = document.getElementById(id); if (d) d.open = true; });
    if (focused) { const f = document.getElementById(focused); if (f) f.focus(); }
  }

  // The countdowns move every second between two reads of the endpoint.
  let shown = [];
  function tick() {
    shown.forEach(([b, element]) => { if (element.isConnected) element.textContent = countdownText(b, element); });
  }
  setInterval(tick, 1000);

  return {
    render: function (container, list) {
      render(container, list);
      shown = list.map(b => [b, container.querySelector('section.panel[data-name="' + CSS.escape(b.name) + '"] .probe')]);
    }
  };
})();
