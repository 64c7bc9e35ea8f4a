// The style sheet and the script of benchprof's HTML pages (see
// flame_html.h), embedded as text so every page is self-contained.
#include "tools/flamegraph/flame_assets.h"

namespace benchprof::flamegraph {

std::string_view PageStyle() {
  return R"CSS(body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 6px}h3{font-size:15px;margin:16px 0 4px}
.meta{color:#555;margin:0 0 12px}
.fg{margin:8px 0 20px;break-inside:avoid}
.fg-bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}
.fg-search{flex:0 1 260px;min-width:120px;font:inherit;padding:2px 4px}
.fg-reset{font:inherit}
.fg-status{color:#555}
.fg-frames{position:relative;width:100%;overflow:hidden;font:12px/17px ui-monospace,Menlo,Consolas,monospace}
.fg-f{position:absolute;height:16px;box-sizing:border-box;border-right:1px solid #fff;padding:0 3px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;cursor:pointer;color:#000}
.fg-f:hover{outline:1px solid #000;z-index:1}
.fg-a{opacity:.6}
.fg-info{min-height:2.8em;margin:4px 0;color:#333;font-size:13px;word-break:break-all}
.fg-legend{color:#555;font-size:13px}
.fg-note,.fg-cut{color:#8a5a00;font-size:13px}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
th{background:#f4f4f4}
.wide{overflow-x:auto;max-width:100%}
.regression{background:#fde2e2}.improvement{background:#e2f0fd}.inconclusive{background:#fff6d5}
pre{overflow-x:auto;background:#f7f7f7;padding:8px;font-size:12px}
@media (max-width:600px){body{margin:6px}.fg-frames{font-size:10px}}
@media print{body{margin:0}.fg-bar,.fg-info{display:none}.fg-frames{overflow:visible}*{-webkit-print-color-adjust:exact;print-color-adjust:exact}h2{break-after:avoid}}
)CSS";
}

std::string_view FlameGraphScript() {
  return R"JS((function () {
  'use strict';
  var H = 17;
  var ROWS = 1000;  // levels drawn below the zoomed frame: a deep recursion stays drawable
  function esc(s) {
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function num(v, digits) {
    var a = Math.abs(v);
    if (a >= 100) return v.toFixed(0);
    if (a >= 10) return v.toFixed(Math.max(0, digits - 2));
    return v.toFixed(digits);
  }
  function fmt(v, unit) {
    var a = Math.abs(v), s = v < 0 ? '-' : '';
    if (unit === 'nanoseconds') {
      if (a >= 1e9) return s + num(a / 1e9, 2) + 's';
      if (a >= 1e6) return s + num(a / 1e6, 2) + 'ms';
      if (a >= 1e3) return s + num(a / 1e3, 2) + '\u00b5s';
      return s + a.toFixed(0) + 'ns';
    }
    if (unit === 'bytes') {
      if (a >= 1073741824) return s + num(a / 1073741824, 2) + 'GiB';
      if (a >= 1048576) return s + num(a / 1048576, 2) + 'MiB';
      if (a >= 1024) return s + num(a / 1024, 2) + 'KiB';
      return s + a.toFixed(0) + 'B';
    }
    return s + (a >= 1e6 ? a.toExponential(3) : a.toFixed(0)) + (unit && unit !== 'count' ? ' ' + unit : '');
  }
  function pct(part, whole) {
    return whole ? (100 * part / whole).toFixed(2) + '%' : '-';
  }
  function hue(s) {
    var h = 0;
    for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
    return h >>> 0;
  }

  function Graph(el, names) {
    var d = JSON.parse(el.querySelector('script.fg-data').textContent);
    this.names = names;
    var stride = d.diff ? 4 : 3, raw = d.nodes, n = raw.length / stride;
    this.el = el;
    this.d = d;
    this.n = n;
    this.name = new Int32Array(n);
    this.depth = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.end = new Int32Array(n);
    this.val = new Float64Array(n);
    this.base = new Float64Array(n);
    this.x = new Float64Array(n);
    var cursor = new Float64Array(n), stack = [], i;
    for (i = 0; i < n; i++) {
      this.name[i] = raw[i * stride];
      this.depth[i] = raw[i * stride + 1];
      this.val[i] = raw[i * stride + 2] * d.scale;
      if (d.diff) this.base[i] = raw[i * stride + 3] * d.bscale;
      while (stack.length && this.depth[stack[stack.length - 1]] >= this.depth[i]) {
        this.end[stack.pop()] = i;
      }
      if (stack.length) {
        var p = stack[stack.length - 1];
        this.parent[i] = p;
        this.x[i] = cursor[p];
        cursor[p] += this.val[i];
      } else {
        this.parent[i] = -1;
      }
      cursor[i] = this.x[i];
      stack.push(i);
    }
    while (stack.length) this.end[stack.pop()] = n;
    this.ratio = d.diff && this.base[0] ? this.val[0] / this.base[0] : 1;
    var maxDelta = 0;
    if (d.diff) {
      for (i = 0; i < n; i++) maxDelta = Math.max(maxDelta, Math.abs(this.delta(i)));
    }
    this.maxDelta = maxDelta;
    this.zoom = 0;
    this.match = null;
    this.frames = el.querySelector('.fg-frames');
    this.info = el.querySelector('.fg-info');
    this.cut = el.querySelector('.fg-cut');
    this.status = el.querySelector('.fg-status');
    this.drawn = false;
    var self = this;
    this.frames.addEventListener('click', function (e) {
      var t = e.target.closest('.fg-f');
      if (t) self.setZoom(+t.getAttribute('data-i'));
    });
    this.frames.addEventListener('mouseover', function (e) {
      var t = e.target.closest('.fg-f');
      if (t) self.describe(+t.getAttribute('data-i'));
    });
    var input = el.querySelector('.fg-search');
    input.addEventListener('input', function () { self.search(input.value); });
    el.querySelector('.fg-reset').addEventListener('click', function () {
      input.value = '';
      self.search('');
      self.setZoom(0);
    });
  }
  Graph.prototype.delta = function (i) {  // NormalisedChange (flame_tree.h)
    return this.val[i] - this.base[i] * this.ratio;
  };
  Graph.prototype.fname = function (i) {
    return this.names[this.name[i]][0];
  };
  Graph.prototype.color = function (i) {
    if (this.match && this.match[i]) return '#d58cff';
    if (this.d.diff) {
      var a = this.maxDelta ? this.delta(i) / this.maxDelta : 0;
      var c = Math.round(235 - 190 * Math.min(1, Math.abs(a)));
      if (a > 0) return 'rgb(255,' + c + ',' + c + ')';
      if (a < 0) return 'rgb(' + c + ',' + c + ',255)';
      return 'rgb(235,235,235)';
    }
    var h = hue(this.fname(i));
    return 'hsl(' + (h % 55) + ',' + (70 + (h >> 8) % 20) + '%,' + (58 + (h >> 16) % 12) + '%)';
  };
  Graph.prototype.draw = function () {
    this.drawn = true;
    var z = this.zoom, W = this.frames.clientWidth || 1000, total = this.val[z];
    var html = [], maxDepth = 0, i, left, w, deepest = this.depth[z] + ROWS, cut = false;
    for (i = this.parent[z]; i >= 0; i = this.parent[i]) {
      html.push(this.frame(i, 0, 100, true));
    }
    for (i = z; i < this.end[z];) {
      w = total ? this.val[i] / total : 0;
      if (w * W < 0.5 || this.depth[i] > deepest) {
        if (this.depth[i] > deepest) cut = true;
        i = this.end[i];
        continue;
      }
      left = total ? (this.x[i] - this.x[z]) / total : 0;
      html.push(this.frame(i, 100 * left, 100 * w, false));
      if (this.depth[i] > maxDepth) maxDepth = this.depth[i];
      i++;
    }
    this.frames.style.height = (maxDepth + 1) * H + 'px';
    this.frames.innerHTML = html.join('');
    if (this.cut) {
      this.cut.textContent = cut ? 'Frames more than ' + ROWS + ' levels below ' + this.fname(z) +
          ' are not drawn: click a frame at the bottom to zoom to it.' : '';
    }
    if (cut) this.el.setAttribute('data-cut', String(ROWS));
    else this.el.removeAttribute('data-cut');
    this.el.setAttribute('data-zoom', this.fname(z));
    this.el.setAttribute('data-drawn', String(html.length));
    var root = document.documentElement;  // when the page became usable, for the cost test
    if (!root.hasAttribute('data-fg-ready-ms')) {
      root.setAttribute('data-fg-ready-ms', String(Math.round(performance.now())));
    }
  };
  Graph.prototype.frame = function (i, left, width, ancestor) {
    return '<div class="fg-f' + (ancestor ? ' fg-a' : '') + '" data-i="' + i + '" style="left:' +
        left.toFixed(4) + '%;width:' + width.toFixed(4) + '%;top:' + this.depth[i] * H +
        'px;background:' + this.color(i) + '">' + esc(this.fname(i)) + '</div>';
  };
  Graph.prototype.setZoom = function (i) {
    this.zoom = i;
    this.draw();
    this.describe(i);
  };
  Graph.prototype.describe = function (i) {
    var d = this.d, nm = this.names[this.name[i]], u = d.unit, all = this.val[0];
    var text = nm[0] + (nm[1] ? ' \u2014 ' + nm[1] : '') + ' \u2014 ' + fmt(this.val[i], u) +
        ' (' + pct(this.val[i], all) + ' of all';
    if (this.zoom) text += ', ' + pct(this.val[i], this.val[this.zoom]) + ' of ' + this.fname(this.zoom);
    text += ')';
    if (d.diff) {
      var delta = this.delta(i);
      text += '; base ' + fmt(this.base[i], u) + ', normalised ' + fmt(this.base[i] * this.ratio, u) +
          '; change ' + (delta > 0 ? '+' : '') + fmt(delta, u) + ' (' + (delta > 0 ? '+' : '') +
          pct(delta, all) + ' of all)';
    }
    this.info.textContent = text;
  };
  Graph.prototype.search = function (pattern) {
    var re = null;
    this.match = null;
    this.status.textContent = '';
    this.el.removeAttribute('data-matched');
    if (pattern) {
      try {
        re = new RegExp(pattern);
      } catch (e) {
        this.status.textContent = 'invalid regex';
      }
    }
    if (re) {
      var names = this.names, hit = new Uint8Array(names.length), i, sum = 0;
      for (i = 0; i < names.length; i++) hit[i] = re.test(names[i][0]) || re.test(names[i][1]) ? 1 : 0;
      this.match = new Uint8Array(this.n);
      for (i = 0; i < this.n; i++) {
        if (!hit[this.name[i]]) continue;
        this.match[i] = 1;
      }
      for (i = 0; i < this.n;) {  // count each matched path once: skip below a match
        if (this.match[i]) {
          sum += this.val[i];
          i = this.end[i];
        } else {
          i++;
        }
      }
      this.status.textContent = 'matched ' + fmt(sum, this.d.unit) + ' (' + pct(sum, this.val[0]) + ')';
      this.el.setAttribute('data-matched', String(sum));
    }
    if (this.drawn) this.draw();
  };

  var graphs = [];
  // A parameter of the URL fragment, or null; one that is not valid percent
  // encoding ("#click=%") is ignored, so the page still draws.
  function hashParam(key) {
    var parts = location.hash.replace(/^#/, '').split('&');
    for (var i = 0; i < parts.length; i++) {
      var kv = parts[i].split('=');
      if (kv[0] !== key || kv.length < 2) continue;
      try {
        return decodeURIComponent(kv.slice(1).join('='));
      } catch (e) {
        return null;
      }
    }
    return null;
  }
  function start() {
    var els = document.querySelectorAll('.fg'), i;
    var table = document.querySelector('script.fg-names');
    var names = table ? JSON.parse(table.textContent) : [];
    for (i = 0; i < els.length; i++) graphs.push(new Graph(els[i], names));
    var search = hashParam('search'), click = hashParam('click');
    var lazy = !search && !click && !/(^#|&)draw(&|$)/.test(location.hash) &&
        typeof IntersectionObserver === 'function';
    var observer = lazy ? new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        var g = graphs[+e.target.getAttribute('data-g')];
        if (!g.drawn) g.draw();
        observer.unobserve(e.target);
      });
    }, {rootMargin: '400px'}) : null;
    graphs.forEach(function (g, k) {
      g.el.setAttribute('data-g', String(k));
      if (observer) {
        observer.observe(g.el);
        return;
      }
      g.draw();
      if (search) {
        g.el.querySelector('.fg-search').value = search;
        g.search(search);
      }
      if (click) {  // a test hook and a way to link to a function: click its first frame
        for (var j = 0; j < g.n; j++) {
          if (g.fname(j) !== click) continue;
          var f = g.frames.querySelector('.fg-f[data-i="' + j + '"]');
          if (f) f.click(); else g.setZoom(j);
          break;
        }
      }
    });
    window.addEventListener('beforeprint', function () {
      graphs.forEach(function (g) { if (!g.drawn) g.draw(); });
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
)JS";
}

std::string_view SvgScript() {
  return R"JS((function () {
  'use strict';
  var svg = document.documentElement, NS = 'http://www.w3.org/2000/svg';
  var CHAR = 7.3;  // the width of a 12 px monospace character, as flame_svg.cc assumes
  var gs = document.querySelectorAll('g.f'), n = gs.length;
  if (!n) return;
  var rect = [], text = [], x = [], w = [], y = [], v = [], name = [], where = [];
  var parent = [], end = [], stack = [], last = '', i;
  for (i = 0; i < n; i++) {  // preorder: a frame's subtree is the frames below it up to `end`
    var r = gs[i].querySelector('rect'), lines = gs[i].querySelector('title').textContent.split('\n');
    gs[i].setAttribute('data-i', String(i));
    rect.push(r);
    text.push(gs[i].querySelector('text'));
    x.push(+r.getAttribute('x'));
    w.push(+r.getAttribute('width'));
    y.push(+r.getAttribute('y'));
    v.push(+gs[i].getAttribute('data-v'));
    name.push(lines[0]);
    where.push(lines[1] || '');
    while (stack.length && y[stack[stack.length - 1]] >= y[i]) end[stack.pop()] = i;
    parent.push(stack.length ? stack[stack.length - 1] : -1);
    stack.push(i);
  }
  while (stack.length) end[stack.pop()] = n;
  var X0 = x[0], W = w[0];
  var details = document.getElementById('fg-details');
  var reset = document.getElementById('fg-reset');
  var status = document.getElementById('fg-matched');

  function place(i, left, width, cls) {
    var fit = Math.floor((width - 6) / CHAR), s = name[i], t = text[i];
    if (fit < 3) s = '';
    else if (s.length > fit) s = s.slice(0, fit - 2) + '..';
    gs[i].style.display = '';
    gs[i].setAttribute('class', cls);
    rect[i].setAttribute('x', left.toFixed(2));
    rect[i].setAttribute('width', width.toFixed(2));
    if (!t && s) {
      t = text[i] = document.createElementNS(NS, 'text');
      t.setAttribute('y', String(y[i] + 12));
      gs[i].appendChild(t);
    }
    if (t) {
      t.setAttribute('x', (left + 3).toFixed(2));
      t.textContent = s;
    }
  }
  // The zoomed frame fills the width, its ancestors stay (faded), the rest hides.
  function zoom(z) {
    var scale = W / w[z], j;
    for (j = 0; j < n; j++) gs[j].style.display = 'none';
    for (j = parent[z]; j >= 0; j = parent[j]) place(j, X0, W, 'f a');
    for (j = z; j < end[z]; j++) place(j, X0 + (x[j] - x[z]) * scale, w[j] * scale, 'f');
    reset.setAttribute('display', z ? 'inline' : 'none');
    svg.setAttribute('data-zoom', name[z]);
  }
  // Highlights the frames whose function or file:line matches; sums their
  // values, each path once (a match's subtree is skipped).
  function search(pattern) {
    var re = null, hit = [], sum = 0, j;
    last = pattern;
    status.textContent = '';
    svg.removeAttribute('data-matched');
    if (pattern) {
      try {
        re = new RegExp(pattern);
      } catch (e) {
        status.textContent = 'invalid regex';
      }
    }
    for (j = 0; j < n; j++) {
      hit[j] = !!re && (re.test(name[j]) || re.test(where[j]));
      rect[j].style.fill = hit[j] ? '#d58cff' : '';
    }
    if (!re) return;
    for (j = 0; j < n;) {
      if (hit[j]) {
        sum += v[j];
        j = end[j];
      } else {
        j++;
      }
    }
    status.textContent = 'Matched: ' + (v[0] ? (100 * sum / v[0]).toFixed(2) : '-') + '% of all';
    svg.setAttribute('data-matched', String(sum));
  }
  function ask() {
    var pattern = window.prompt('Search (regex)', last);
    if (pattern !== null) search(pattern);
  }

  svg.addEventListener('click', function (e) {
    var g = e.target.closest('g.f');
    if (g) zoom(+g.getAttribute('data-i'));
  });
  svg.addEventListener('mouseover', function (e) {
    var g = e.target.closest('g.f');
    if (g) {
      details.textContent = g.querySelector('title').textContent.split('\n')
          .filter(function (s) { return s; }).join(' \u2014 ');
    }
  });
  reset.addEventListener('click', function () { zoom(0); });
  document.getElementById('fg-search').addEventListener('click', ask);
  document.addEventListener('keydown', function (e) {
    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) {
      e.preventDefault();
      ask();
    }
  });
  // As on the HTML page: "#search=REGEX", "#click=NAME" (clicks the first frame of NAME).
  var hash = location.hash.replace(/^#/, '').split('&'), k, kv;
  for (k = 0; k < hash.length; k++) {
    kv = hash[k].split('=');
    var value;
    try {
      value = decodeURIComponent(kv.slice(1).join('='));
    } catch (e) {
      continue;  // not valid percent encoding ("#click=%"): ignored
    }
    if (kv[0] === 'search') search(value);
    if (kv[0] !== 'click') continue;
    for (i = 0; i < n; i++) {
      if (name[i] !== value) continue;
      gs[i].dispatchEvent(new MouseEvent('click', {bubbles: true}));
      break;
    }
  }
})();
)JS";
}

}  // namespace benchprof::flamegraph
