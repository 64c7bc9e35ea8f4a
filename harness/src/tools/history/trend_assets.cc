// The trend page's style sheet and script (see trend_page.h for the data
// they read), embedded as text so every page is self-contained.
#include "tools/history/trend_assets.h"

namespace benchprof::history {

std::string_view TrendPageStyle() {
  return R"CSS(.tp-bar{position:sticky;top:0;background:#fff;padding:6px 0;z-index:2;border-bottom:1px solid #eee}
#tp-filter{font:inherit;padding:2px 4px;width:22em;max-width:70vw}
#tp-count{color:#555;margin-left:8px}
.tp-s{margin:10px 0 26px;break-inside:avoid}
.tp-s h2{margin:16px 0 2px;word-break:break-all}
.tp-metric{font-weight:normal;color:#555}
.tp-s .meta{margin:0 0 4px;word-break:break-all}
.tp-chart{width:100%;min-height:240px;position:relative}
.tp-chart:focus{outline:2px solid #888}
.tp-chart svg{display:block;width:100%;height:auto;font:11px system-ui,sans-serif}
.tp-grid{stroke:#e6e6e6;stroke-width:1}
.tp-axis{stroke:#999;stroke-width:1}
.tp-tick{fill:#555}
.tp-unit{fill:#333;font-weight:bold}
.tp-sp{stroke:#9fb3c8;stroke-width:1.5}
.tp-pt{fill:#263238}
.tp-lv{stroke:#546e7a;stroke-width:1.5;fill:none;opacity:.8}
.tp-cp line{stroke-width:2}
.tp-reg line{stroke:#c62828;stroke-dasharray:6 3}
.tp-imp line{stroke:#1565c0;stroke-dasharray:2 3}
.tp-reg text{fill:#c62828;font-weight:bold}
.tp-imp text{fill:#1565c0;font-weight:bold}
.tp-hl{fill:none;stroke:#ff6f00;stroke-width:2}
#tp-tip{position:fixed;z-index:3;max-width:28em;background:#fff;border:1px solid #999;border-radius:3px;padding:4px 6px;font-size:12px;box-shadow:0 1px 4px rgba(0,0,0,.2);pointer-events:none;word-break:break-all}
.tp-cps{margin:4px 0}
.tp-cps caption{text-align:left;font-weight:bold;padding:2px 0}
.tp-none{color:#555;font-size:13px;margin:2px 0}
.tp-runs summary{cursor:pointer;color:#555;font-size:13px}
@media print{.tp-bar,#tp-tip{display:none}}
)CSS";
}

std::string_view TrendPageScript() {
  return R"JS((function () {
  'use strict';
  var SVGNS = 'http://www.w3.org/2000/svg';
  var HEIGHT = 240, LEFT = 70, RIGHT = 14, TOP = 24, BOTTOM = 36;
  var data = JSON.parse(document.getElementById('tp-data').textContent);
  var commits = data.commits, series = data.series;
  var sections = document.querySelectorAll('section.tp-s');
  var charts = document.querySelectorAll('div.tp-chart');
  var decoded = [];
  var drawn = [];
  var tip = document.getElementById('tp-tip');

  function quantum(e) {
    var p = Math.pow(10, Math.abs(e));
    return e < 0 ? function (k) { return k / p; } : function (k) { return k * p; };
  }
  // Run k's median, min, max and commit index (trend_page.h: the data).
  function decode(i) {
    if (decoded[i]) return decoded[i];
    var s = series[i], n = s.d.length, q = quantum(s.e);
    var d = {n: n, med: new Float64Array(n), lo: new Float64Array(n), hi: new Float64Array(n),
             commit: new Int32Array(n), bad: new Uint8Array(n)};
    var acc = 0, k;
    for (k = 0; k < n; k++) {
      acc += s.d[k];
      d.med[k] = q(acc);
      d.lo[k] = q(acc - s.lo[k]);
      d.hi[k] = q(acc + s.hi[k]);
    }
    k = 0;
    for (var j = 0; j + 1 < s.c.length; j += 2) {
      for (var t = 0; t < s.c[j + 1] && k < n; t++) d.commit[k++] = s.c[j] + t;
    }
    for (j = 0; j < s.nf.length; j++) d.bad[s.nf[j]] = 1;
    decoded[i] = d;
    return d;
  }

  function num(v) {
    var a = Math.abs(v);
    if (a >= 100 || a === 0) return String(Math.round(v));
    return String(Number(v.toPrecision(3)));
  }
  function fmt(v, unit) {
    if (!isFinite(v)) return String(v);
    var a = Math.abs(v), s = v < 0 ? '-' : '';
    if (/^ns/.test(unit)) {
      if (a >= 1e9) return s + num(a / 1e9) + 's';
      if (a >= 1e6) return s + num(a / 1e6) + 'ms';
      if (a >= 1e3) return s + num(a / 1e3) + '\u00b5s';
      return s + num(a) + 'ns';
    }
    if (a >= 1e12) return s + num(a / 1e12) + 'T';
    if (a >= 1e9) return s + num(a / 1e9) + 'G';
    if (a >= 1e6) return s + num(a / 1e6) + 'M';
    if (a >= 1e4) return s + num(a / 1e3) + 'k';
    return s + String(Number(a.toPrecision(4)));
  }
  function pct(c) {
    if (c === null) return 'from 0';
    return (c >= 0 ? '+' : '') + (c * 100).toFixed(2) + '%';
  }
  function shortHash(h) { return h.slice(0, 10); }
  function when(t) {
    return t ? new Date(t * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '';
  }
  function el(tag, attrs, parent, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function niceStep(range, count) {
    var raw = range / count, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  function draw(i) {
    if (drawn[i]) return;
    drawn[i] = true;
    var s = series[i], d = decode(i), n = d.n, box = charts[i];
    var width = Math.max(320, Math.round(box.clientWidth || 1000));
    var plotW = width - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
    var y0 = Infinity, y1 = -Infinity, k;
    for (k = 0; k < n; k++) {
      if (d.bad[k]) continue;
      if (d.lo[k] < y0) y0 = d.lo[k];
      if (d.hi[k] > y1) y1 = d.hi[k];
    }
    if (!(y0 <= y1)) { y0 = 0; y1 = 1; }
    var pad = (y1 - y0) * 0.06 || Math.abs(y1) * 0.05 || 1;
    y0 -= pad; y1 += pad;
    function x(k) { return LEFT + (n > 1 ? k * plotW / (n - 1) : plotW / 2); }
    function y(v) { return TOP + plotH - (v - y0) / (y1 - y0) * plotH; }
    function r(v) { return Math.round(v * 10) / 10; }

    var svg = el('svg', {viewBox: '0 0 ' + width + ' ' + HEIGHT, 'aria-hidden': 'true'});
    var step = niceStep(y1 - y0, 4);
    for (var v = Math.ceil(y0 / step) * step; v <= y1; v += step) {
      el('line', {'class': 'tp-grid', x1: LEFT, x2: LEFT + plotW, y1: r(y(v)), y2: r(y(v))}, svg);
      el('text', {'class': 'tp-tick', x: LEFT - 6, y: r(y(v)) + 4, 'text-anchor': 'end'}, svg,
         fmt(v, s.u));
    }
    el('line', {'class': 'tp-axis', x1: LEFT, x2: LEFT, y1: TOP, y2: TOP + plotH}, svg);
    el('line', {'class': 'tp-axis', x1: LEFT, x2: LEFT + plotW, y1: TOP + plotH, y2: TOP + plotH}, svg);
    el('text', {'class': 'tp-unit', x: 4, y: 12}, svg, s.u || s.m);
    var ticks = Math.min(n, Math.max(1, Math.floor(plotW / 110)));
    for (var t = 0; t < ticks; t++) {
      k = ticks > 1 ? Math.round(t * (n - 1) / (ticks - 1)) : 0;
      el('text', {'class': 'tp-tick', x: r(x(k)), y: TOP + plotH + 16,
                  'text-anchor': ticks === 1 ? 'middle' : t === 0 ? 'start' : t === ticks - 1 ? 'end' : 'middle'},
         svg, shortHash(commits[d.commit[k]][0]).slice(0, 7));
    }
    el('text', {'class': 'tp-tick', x: LEFT + plotW / 2, y: HEIGHT - 4, 'text-anchor': 'middle'}, svg,
       'commits, oldest first (' + n + ' runs)');

    var spread = [];
    for (k = 0; k < n; k++) {
      if (!d.bad[k] && d.hi[k] > d.lo[k]) spread.push('M' + r(x(k)) + ' ' + r(y(d.lo[k])) + 'V' + r(y(d.hi[k])));
    }
    if (spread.length) el('path', {'class': 'tp-sp', d: spread.join('')}, svg);

    var cps = s.cp;
    if (cps.length) {
      var level = [], from = 0;
      for (var j = 0; j <= cps.length; j++) {
        var to = j < cps.length ? cps[j].i : n, value = j < cps.length ? cps[j].b : cps[j - 1].a;
        if (value !== null && to > from) {
          level.push('M' + r(x(from)) + ' ' + r(y(value)) + 'H' + r(x(to - 1)));
        }
        from = to;
      }
      el('path', {'class': 'tp-lv', d: level.join('')}, svg);
    }

    var points = 0;
    var dots = document.createDocumentFragment();
    for (k = 0; k < n; k++) {
      if (d.bad[k]) continue;
      el('circle', {'class': 'tp-pt', cx: r(x(k)), cy: r(y(d.med[k])), r: 2}, dots);
      points++;
    }
    svg.appendChild(dots);

    var lastLabel = -Infinity, row = 0;
    for (j = 0; j < cps.length; j++) {
      var cp = cps[j], at = cp.i > 0 ? (x(cp.i - 1) + x(cp.i)) / 2 : x(cp.i);
      // A label close to the one before goes on the other row.
      row = at - lastLabel < 150 ? 1 - row : 0;
      lastLabel = at;
      var good = commits[d.commit[Math.max(0, cp.i - 1)]][0], bad = commits[d.commit[cp.i]][0];
      var up = cp.a !== null && cp.b !== null && cp.a > cp.b;
      var g = el('g', {'class': 'tp-cp ' + (cp.reg ? 'tp-reg' : 'tp-imp'), 'data-i': cp.i,
                       'data-last-good': good, 'data-first-bad': bad, 'data-change': pct(cp.c),
                       'data-kind': cp.reg ? 'regression' : 'improvement'}, svg);
      el('title', {}, g, (cp.reg ? 'Regression ' : 'Improvement ') + pct(cp.c) + ' between ' +
         shortHash(good) + ' (last good) and ' + shortHash(bad) + ' (first bad)');
      el('line', {x1: r(at), x2: r(at), y1: TOP - 4, y2: TOP + plotH}, g);
      el('text', {x: r(at), y: row ? TOP + 10 : TOP - 8,
                  'text-anchor': at > LEFT + plotW * 0.85 ? 'end' : at < LEFT + plotW * 0.15 ? 'start' : 'middle'},
         g, (up ? '\u25b2' : '\u25bc') + pct(cp.c) + (cp.reg ? ' regression' : ' improvement'));
    }
    var mark = el('circle', {'class': 'tp-hl', r: 5, cx: -10, cy: -10}, svg);

    function show(k, clientX, clientY) {
      if (k < 0 || k >= n) return;
      mark.setAttribute('cx', r(x(k)));
      mark.setAttribute('cy', r(y(d.bad[k] ? y0 : d.med[k])));
      var c = commits[d.commit[k]], reps = typeof s.r === 'number' ? s.r : s.r[k];
      tip.textContent = '';
      var lines = [shortHash(c[0]) + '  ' + c[2], when(c[1]),
                   d.bad[k] ? 'no finite median (' + reps + ' repetitions)' :
                   'median ' + fmt(d.med[k], s.u) + '  (min ' + fmt(d.lo[k], s.u) + ', max ' +
                   fmt(d.hi[k], s.u) + ', ' + reps + ' repetitions)', 'run ' + (k + 1) + ' of ' + n];
      for (var l = 0; l < lines.length; l++) {
        if (!lines[l]) continue;
        var div = document.createElement('div');
        div.textContent = lines[l];
        tip.appendChild(div);
      }
      tip.hidden = false;
      var left = Math.min(clientX + 14, window.innerWidth - tip.offsetWidth - 4);
      tip.style.left = Math.max(0, left) + 'px';
      tip.style.top = Math.max(0, clientY - tip.offsetHeight - 10) + 'px';
      box.setAttribute('data-hover', k);
    }
    function nearest(ev) {
      var rect = svg.getBoundingClientRect();
      var px = (ev.clientX - rect.left) * width / rect.width;
      return n > 1 ? Math.round((px - LEFT) / plotW * (n - 1)) : 0;
    }
    svg.addEventListener('mousemove', function (ev) {
      show(Math.max(0, Math.min(n - 1, nearest(ev))), ev.clientX, ev.clientY);
    });
    svg.addEventListener('mouseleave', function () { tip.hidden = true; });
    box.tabIndex = 0;
    box.addEventListener('keydown', function (ev) {
      var k = Number(box.getAttribute('data-hover') || n);
      if (ev.key === 'ArrowLeft') k = Math.max(0, k - 1);
      else if (ev.key === 'ArrowRight') k = Math.min(n - 1, k + 1);
      else if (ev.key === 'Escape') { tip.hidden = true; return; }
      else return;
      ev.preventDefault();
      box.showRun(k);
    });
    box.addEventListener('blur', function () { tip.hidden = true; });

    box.showRun = function (k) {
      var rect = svg.getBoundingClientRect();
      show(k, rect.left + x(k) * rect.width / width, rect.top + TOP);
    };
    box.appendChild(svg);
    box.setAttribute('data-points', points);
    box.setAttribute('data-cps', cps.length);
    var links = sections[i].querySelectorAll('a.tp-fg-link');
    for (j = 0; j < links.length; j++) prepareLink(links[j]);
  }

  // The attached flame graph page behind a Blob URL: base64, then gzip.
  function prepareLink(a) {
    var block = document.querySelector('script.tp-fg[data-f="' + a.getAttribute('data-f') + '"]');
    if (!block || typeof DecompressionStream === 'undefined') {
      a.textContent += ' (not readable in this browser)';
      return;
    }
    var text = atob(block.textContent.trim()), bytes = new Uint8Array(text.length);
    for (var b = 0; b < text.length; b++) bytes[b] = text.charCodeAt(b);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).arrayBuffer().then(function (page) {
      a.href = URL.createObjectURL(new Blob([page], {type: 'text/html'}));
      a.setAttribute('data-bytes', page.byteLength);
    }, function () {
      a.textContent += ' (damaged)';
    });
  }

  // The runs of series i as a table, in its <details>, once.
  function runTable(i) {
    var details = sections[i].querySelector('details.tp-runs');
    if (!details || details.querySelector('table')) return;
    var s = series[i], d = decode(i), table = document.createElement('table');
    var head = table.createTHead().insertRow();
    var names = ['Run', 'Commit', 'Subject', 'Committed', 'Median', 'Min', 'Max', 'Repetitions'];
    for (var h = 0; h < names.length; h++) {
      var th = document.createElement('th');
      th.textContent = names[h];
      head.appendChild(th);
    }
    var body = table.createTBody();
    for (var k = 0; k < d.n; k++) {
      var c = commits[d.commit[k]], bad = d.bad[k];
      var cells = [k + 1, shortHash(c[0]), c[2], when(c[1]), bad ? 'not finite' : fmt(d.med[k], s.u),
                   bad ? '' : fmt(d.lo[k], s.u), bad ? '' : fmt(d.hi[k], s.u),
                   typeof s.r === 'number' ? s.r : s.r[k]];
      var row = body.insertRow();
      for (var t = 0; t < cells.length; t++) row.insertCell().textContent = cells[t];
    }
    var wrap = document.createElement('div');
    wrap.className = 'wide';
    wrap.appendChild(table);
    details.appendChild(wrap);
    details.setAttribute('data-rows', d.n);
  }
  for (var i = 0; i < series.length; i++) {
    (function (i) {
      var details = sections[i].querySelector('details.tp-runs');
      if (details) details.addEventListener('toggle', function () { if (details.open) runTable(i); });
    })(i);
  }

  var haystack = [];
  for (i = 0; i < series.length; i++) {
    var s = series[i];
    haystack.push([s.b, s.m, s.t, s.br].join('\n').toLowerCase());
  }
  var filterBox = document.getElementById('tp-filter'), count = document.getElementById('tp-count');
  function filter(text) {
    var words = text.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    for (var i = 0; i < series.length; i++) {
      var match = true;
      for (var w = 0; w < words.length && match; w++) match = haystack[i].indexOf(words[w]) >= 0;
      sections[i].hidden = !match;
      shown += match;
    }
    count.textContent = shown + ' of ' + series.length + ' series';
    document.documentElement.setAttribute('data-tp-shown', shown);
  }
  filterBox.addEventListener('input', function () { filter(filterBox.value); });

  function drawAll() {
    for (var i = 0; i < series.length; i++) if (!sections[i].hidden) draw(i);
  }
  function hooks() {
    var parts = location.hash.replace(/^#/, '').split('&');
    for (var p = 0; p < parts.length; p++) {
      var part = parts[p], eq = part.indexOf('=');
      var key = eq < 0 ? part : part.slice(0, eq), value = eq < 0 ? '' : part.slice(eq + 1);
      try { value = decodeURIComponent(value); } catch (e) { continue; }
      if (key === 'filter') { filterBox.value = value; filter(value); }
      else if (key === 'draw') drawAll();
      else if (key === 'runs') {
        var r = Number(value);
        if (r >= 0 && r < series.length) {
          sections[r].querySelector('details.tp-runs').open = true;
          runTable(r);
        }
      }
      else if (key === 'tip') {
        var at = value.split(','), i = Number(at[0]), k = Number(at[1]);
        if (i >= 0 && i < series.length && k >= 0 && k < series[i].d.length) {
          draw(i);
          charts[i].showRun(k);
        }
      }
    }
  }

  filter(filterBox.value);
  hooks();
  window.addEventListener('hashchange', hooks);
  window.addEventListener('beforeprint', drawAll);
  var margin = 300;
  if (typeof IntersectionObserver === 'undefined') {
    drawAll();
  } else {
    var seen = new IntersectionObserver(function (entries) {
      for (var e = 0; e < entries.length; e++) {
        if (!entries[e].isIntersecting) continue;
        draw(Number(entries[e].target.getAttribute('data-s')));
        seen.unobserve(entries[e].target);
      }
    }, {rootMargin: margin + 'px 0px'});
    // The charts in view now, so the page is usable when the script ends.
    for (i = 0; i < series.length; i++) {
      if (sections[i].hidden) { seen.observe(charts[i]); continue; }
      var rect = charts[i].getBoundingClientRect();
      if (rect.top > window.innerHeight + margin) { seen.observe(charts[i]); continue; }
      if (rect.bottom >= -margin) draw(i);
      if (!drawn[i]) seen.observe(charts[i]);
    }
  }
  document.documentElement.setAttribute('data-tp-ready-ms', String(Math.round(performance.now())));
})();
)JS";
}

}  // namespace benchprof::history
