/*
 * capstream live dashboard. Polls the same-origin API every 5 s through relative URLs only
 * (api/slos, api/runs, api/summaries, api/alerts?active=true) and redraws the SLO line, the runs table (the
 * newest RUNS_PAGE runs, "show more" adds as many, and a line says how many there are), one uPlot chart per
 * window metric (one series per target | model | context bucket; TTFT, E2E, completed requests/s, output
 * throughput, goodput, requests, error rate, and any other percentile an SLO names), each SLO drawn as a
 * dashed red line on its metric's chart, and the active alerts.
 * Issue 32: each percentile series carries error bars, its windows' 95% intervals (Quantiles pNN_ci); the alert
 * history (api/alerts?from=) and the change points (api/changes?from=) are marked on the charts: an alert's firing
 * period (BREACH to RECOVERED, or to now) as a shaded red band on the chart of its metric (burn-rate alerts on goodput),
 * a change point as a dashed purple line at the change's window on the chart of its metric, each also listed in text
 * under the chart (li.mark.alert, li.mark.change). The chart container's data-error-bars, data-alert-marks and
 * data-change-marks say how many of each uPlot's draw hook drew.
 * Every chart container is a div of class "chart" with attributes data-chart (the metric's id) and
 * data-points (the number of finite values uPlot drew, 0 until it drew) and data-gaps (the idle spans between
 * windows, drawn as breaks in the lines); a metric without values gets no chart container.
 * All text from the API is set with textContent (never parsed as HTML).
 */
(function () {
  'use strict';

  var REFRESH_MS = 5000;
  var CHART_HEIGHT = 240;
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#7f7f7f', '#bcbd22'];

  function quantile(field, q) {
    return function (s) { return s[field] == null ? null : num(s[field][q]); };
  }

  /** The window's 95% interval of that percentile, [low, high], or null (too few values, or none sent). */
  function interval(field, q) {
    return function (s) {
      var ci = s[field] == null ? null : s[field][q + '_ci'];
      if (!Array.isArray(ci) || ci.length !== 2) {
        return null;
      }
      var lo = num(ci[0]);
      var hi = num(ci[1]);
      return lo === null || hi === null ? null : [lo, hi];
    };
  }

  /** The chart a change point's metric (ttft_p95_ms, e2e_p95_ms) is drawn on. */
  var CHANGE_METRIC_CHART = {ttft_p95_ms: 'ttft-p95', e2e_p95_ms: 'e2e-p95'};
  var ALERT_FILL = 'rgba(214, 39, 40, 0.12)';
  var CHANGE_STROKE = '#9467bd';

  /** How many runs the runs table shows at first, and how many more each "show more" adds. */
  var RUNS_PAGE = 20;

  function windowSeconds(s) {
    var a = num(s.window_start_ms);
    var b = num(s.window_end_ms);
    return a === null || b === null || b <= a ? null : (b - a) / 1000;
  }

  /**
   * The charted window metrics: id (the container's data-chart), title, y-axis label, value of a summary, and
   * the SLO metric drawn on it as a threshold line (slo). A metric with needsSlos is charted only when the
   * aggregator has SLOs (goodput is computed against them).
   */
  var BASE_METRICS = [
    {id: 'ttft-p50', title: 'TTFT p50 per window', unit: 'TTFT p50 (ms)', value: quantile('ttft_ms', 'p50'), ci: interval('ttft_ms', 'p50'),
      slo: 'ttft_p50_ms'},
    {id: 'ttft-p95', title: 'TTFT p95 per window', unit: 'TTFT p95 (ms)', value: quantile('ttft_ms', 'p95'), ci: interval('ttft_ms', 'p95'),
      slo: 'ttft_p95_ms'},
    {id: 'ttft-p99', title: 'TTFT p99 per window', unit: 'TTFT p99 (ms)', value: quantile('ttft_ms', 'p99'), ci: interval('ttft_ms', 'p99'),
      slo: 'ttft_p99_ms'},
    {id: 'e2e-p95', title: 'E2E p95 per window', unit: 'E2E p95 (ms)', value: quantile('e2e_ms', 'p95'), ci: interval('e2e_ms', 'p95'),
      slo: 'e2e_p95_ms'},
    {id: 'throughput', title: 'Completed requests/s per window', unit: 'completed req/s',
      value: function (s) {
        var w = windowSeconds(s);
        var c = num(s.completed);
        return w === null || c === null ? null : c / w;
      }},
    {id: 'output-throughput', title: 'Output throughput per window', unit: 'output tokens/s',
      value: function (s) { return num(s.output_throughput_tok_s); }, slo: 'output_throughput_tok_s'},
    {id: 'goodput', title: 'Goodput per window (requests meeting every SLO)', unit: 'goodput (share of requests)',
      value: function (s) { return num(s.goodput); }, slo: 'goodput', needsSlos: true},
    {id: 'requests', title: 'Requests per window', unit: 'requests', value: function (s) { return num(s.requests); }},
    {id: 'error-rate', title: 'Error rate per window', unit: 'failed / requests',
      value: function (s) { return num(s.error_rate); }, slo: 'error_rate'}
  ];
  var PERCENTILE_SLO = /^([a-z0-9]+)_p(50|95|99)_(ms|tok_s)$/;

  /** The SLOs of the aggregator (api/slos), [] until known. */
  var slos = [];
  /** How many runs the runs table shows now. */
  var runLimit = RUNS_PAGE;
  /** The last runs answer, to redraw the table when "show more" is clicked. */
  var lastRuns = [];

  /** The charted metrics: the base ones, plus one per percentile SLO on a quantity they do not chart. */
  function metrics() {
    var list = BASE_METRICS.slice();
    slos.forEach(function (o) {
      var m = PERCENTILE_SLO.exec(String(o.metric));
      if (m && !list.some(function (x) { return x.slo === o.metric; })) {
        list.push({id: String(o.metric).replace(/_/g, '-'), title: m[1].toUpperCase() + ' p' + m[2] + ' per window',
          unit: m[1].toUpperCase() + ' p' + m[2] + (m[3] === 'ms' ? ' (ms)' : ' (tokens/s)'),
          value: quantile(m[1] + '_' + m[3], 'p' + m[2]), ci: interval(m[1] + '_' + m[3], 'p' + m[2]),
          slo: o.metric});
      }
    });
    return list;
  }

  /** The SLOs drawn on a metric's chart. */
  function slosOf(m) {
    return slos.filter(function (o) { return m.slo && o.metric === m.slo && isNum(num(o.threshold)); });
  }

  /** chart id -> {plot: uPlot, signature: series labels, points: finite values, ci, marks} */
  var plots = {};
  /** The alert history and the change points of the span shown, [] until known. */
  var alertHistory = [];
  var changePoints = [];

  var timer = null;

  function num(v) {
    if (v === null || v === undefined || v === '') {
      return null;
    }
    var n = Number(v);
    return isFinite(n) ? n : null;
  }

  function isNum(v) {
    return typeof v === 'number' && isFinite(v);
  }

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) {
      e.className = className;
    }
    if (text !== undefined && text !== null) {
      e.textContent = String(text);
    }
    return e;
  }

  function note(text) {
    return el('p', 'empty', text);
  }

  function fmtNumber(v) {
    var n = num(v);
    if (n === null) {
      return '–';
    }
    return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(4)));
  }

  function fmtTime(ms) {
    var n = num(ms);
    return n === null ? '–' : new Date(n).toISOString().replace('T', ' ').slice(0, 19) + 'Z';
  }

  function fmtText(v) {
    return v === null || v === undefined ? '–' : String(v);
  }

  /** A table: header labels and rows of cells, each cell a string, a number (right-aligned) or a Node. */
  function table(header, rows, rowClass) {
    var t = el('table');
    var head = el('tr');
    header.forEach(function (h) { head.appendChild(el('th', null, h)); });
    t.appendChild(el('thead')).appendChild(head);
    var body = t.appendChild(el('tbody'));
    rows.forEach(function (cells, i) {
      var tr = el('tr', rowClass ? rowClass(i) : null);
      cells.forEach(function (c) {
        var td;
        if (c instanceof Node) {
          td = el('td');
          td.appendChild(c);
        } else if (typeof c === 'number') {
          td = el('td', 'num', fmtNumber(c));
        } else {
          td = el('td', null, fmtText(c));
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    return t;
  }

  function getJson(url) {
    return fetch(url, {cache: 'no-store', headers: {accept: 'application/json'}}).then(function (res) {
      return res.text().then(function (text) {
        if (!res.ok) {
          var message = text;
          try {
            message = JSON.parse(text).error || text;
          } catch (notJson) {
            // the body is the message
          }
          throw new Error(url + ': HTTP ' + res.status + ' ' + message);
        }
        return JSON.parse(text);
      });
    }, function (e) {
      throw new Error(url + ': ' + (e && e.message ? e.message : String(e)));
    });
  }

  function renderRuns(runs) {
    var box = document.getElementById('runs');
    lastRuns = Array.isArray(runs) ? runs : [];
    if (lastRuns.length === 0) {
      box.replaceChildren(note('no runs yet'));
      return;
    }
    var shown = lastRuns.slice(0, runLimit);
    var rows = shown.map(function (r) {
      var link = el('a', null, r.run_id);
      link.href = 'runs/' + encodeURIComponent(String(r.run_id));
      return [link, r.model, r.base_url, r.started_at, num(r.requests), num(r.completed), num(r.failed),
        r.kind, r.complete === null || r.complete === undefined ? null : (r.complete ? 'yes' : 'no')];
    });
    var count = el('p', 'note', 'showing ' + shown.length + ' of ' + lastRuns.length + ' run'
      + (lastRuns.length === 1 ? '' : 's') + ', newest first');
    count.id = 'runs-count';
    var parts = [count, table(['run', 'model', 'base_url', 'started', 'requests', 'completed', 'failed', 'kind',
      'complete'], rows)];
    if (shown.length < lastRuns.length) {
      var more = el('button', null, 'show ' + Math.min(RUNS_PAGE, lastRuns.length - shown.length) + ' more');
      more.type = 'button';
      more.id = 'runs-more';
      more.addEventListener('click', function () {
        runLimit += RUNS_PAGE;
        renderRuns(lastRuns);
      });
      parts.push(more);
    }
    box.replaceChildren.apply(box, parts);
  }

  function renderSlos(list) {
    slos = Array.isArray(list) ? list : [];
    var box = document.getElementById('slos');
    if (slos.length === 0) {
      box.textContent = 'SLOs: none set (start the aggregator with --slo to get SLO lines, alerts and goodput)';
    } else {
      box.textContent = 'SLOs: ' + slos.map(function (o) { return o.slo; }).join(', ')
        + ' (dashed red lines on the charts)';
    }
  }

  function renderAlerts(alerts) {
    var box = document.getElementById('alerts');
    if (!Array.isArray(alerts) || alerts.length === 0) {
      box.replaceChildren(note('no active alerts'));
      return;
    }
    var rows = alerts.map(function (a) {
      return [a.target, a.model, a.context_bucket, a.slo, a.metric, num(a.observed), a.comparison, num(a.threshold),
        a.state, fmtTime(a.window_start_ms) + ' – ' + fmtTime(a.window_end_ms), fmtTime(a.detected_at_ms)];
    });
    box.replaceChildren(table(['target', 'model', 'context bucket', 'SLO', 'metric', 'observed', 'comparison',
      'threshold', 'state', 'window', 'detected'], rows, function () { return 'breach'; }));
  }

  function keyOf(s) {
    return fmtText(s.target) + ' | ' + fmtText(s.model) + ' | ' + fmtText(s.context_bucket);
  }

  function destroyPlot(id) {
    if (plots[id]) {
      plots[id].plot.destroy();
      delete plots[id];
    }
  }

  function destroyAllPlots() {
    Object.keys(plots).forEach(destroyPlot);
  }

  function chartWidth(box) {
    return Math.max(240, box.clientWidth - 12);
  }

  /** The metric's box (title, then a chart container or a note), created on first use. */
  function metricBox(grid, m) {
    var box = document.getElementById('box-' + m.id);
    if (!box) {
      box = el('div', 'chart-box');
      box.id = 'box-' + m.id;
      box.appendChild(el('h3', null, m.title));
      grid.appendChild(box);
    }
    return box;
  }

  function showNote(box, m, text) {
    destroyPlot(m.id);
    box.replaceChildren(el('h3', null, m.title), el('p', 'note', text));
  }

  function draw(box, m, xs, series, points, marks, gaps) {
    var lines = slosOf(m).map(function (o) {
      return {label: 'SLO ' + o.slo, slo: true, y: xs.map(function () { return num(o.threshold); })};
    });
    series = series.concat(lines);
    var data = [xs].concat(series.map(function (s) { return s.y; }));
    var signature = series.map(function (s) { return s.label; }).join('\n');
    var existing = plots[m.id];
    var ci = series.map(function (s) { return s.ci || null; });
    if (existing && existing.signature === signature) {
      existing.points = points;
      existing.gaps = gaps;
      existing.ci = ci;
      existing.marks = marks;
      existing.plot.setData(data);
      markList(box, m, marks);
      return;
    }
    destroyPlot(m.id);
    var container = el('div', 'chart');
    container.setAttribute('data-chart', m.id);
    container.setAttribute('data-points', '0');
    box.replaceChildren(el('h3', null, m.title), container);
    var state = {plot: null, signature: signature, points: points, ci: ci, marks: marks, gaps: gaps};
    var opts = {
      width: chartWidth(box),
      height: CHART_HEIGHT,
      scales: {x: {time: true}, y: {range: yRange(state)}},
      axes: [{label: 'window start'}, {label: m.unit}],
      series: [{label: 'window start'}].concat(series.map(function (s, i) {
        if (s.slo) {
          return {label: s.label, stroke: '#d62728', width: 1.5, dash: [8, 5], points: {show: false}};
        }
        return {label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false};
      })),
      hooks: {
        draw: [function (u) {
          drawExtras(u, state, container);
          container.setAttribute('data-points', String(state.points));
          container.setAttribute('data-gaps', String(state.gaps));
        }]
      }
    };
    state.plot = new uPlot(opts, data, container);
    plots[m.id] = state;
    markList(box, m, marks);
  }

  function alertKey(a) {
    return keyOf(a) + ' | ' + fmtText(a.rule ? 'burn:' + a.rule : a.slo);
  }

  /** The chart an alert is marked on: that of its SLO's metric; burn-rate alerts on goodput. */
  function alertChart(a, charted) {
    if (a.metric === 'burn_rate') {
      return 'goodput';
    }
    var m = charted.filter(function (x) { return x.slo === a.metric; })[0];
    return m ? m.id : null;
  }

  /**
   * The marks per chart id: {alerts: [{from, to, label}], changes: [{at, label}]}, times in seconds (uPlot's x).
   * An alert's firing period runs from the window start of its BREACH to that of the RECOVERED that ends it, or to
   * the end of the last window shown while it still fires.
   */
  function marksByChart(charted, lastEnd) {
    var out = {};
    function of(id) {
      if (!out[id]) {
        out[id] = {alerts: [], changes: []};
      }
      return out[id];
    }
    var open = {};
    var sorted = alertHistory.slice().sort(function (a, b) {
      return num(a.window_start_ms) - num(b.window_start_ms) || num(a.detected_at_ms) - num(b.detected_at_ms);
    });
    function close(k, to) {
      var a = open[k];
      delete open[k];
      var id = alertChart(a, charted);
      if (id !== null) {
        of(id).alerts.push({from: num(a.window_start_ms) / 1000, to: to / 1000,
          label: 'alert ' + (a.rule ? a.rule + ' (burn rate ' + fmtNumber(a.burn_rate) + '×)' : a.slo) + ' on '
            + keyOf(a) + ': firing ' + fmtTime(a.window_start_ms) + ' – '
            + (to === lastEnd ? 'now' : fmtTime(to))});
      }
    }
    sorted.forEach(function (a) {
      var k = alertKey(a);
      if (a.state === 'BREACH' && !open[k]) {
        open[k] = a;
      } else if (a.state === 'RECOVERED' && open[k]) {
        close(k, num(a.window_start_ms));
      }
    });
    Object.keys(open).forEach(function (k) { close(k, Math.max(lastEnd, num(open[k].window_end_ms))); });
    changePoints.forEach(function (c) {
      var id = CHANGE_METRIC_CHART[c.metric];
      var at = num(c.change_window_start_ms);
      if (id && at !== null) {
        of(id).changes.push({at: at / 1000, label: 'change ' + c.metric + ' ' + c.direction + ' '
          + (num(c.relative_change) >= 0 ? '+' : '') + fmtNumber(num(c.relative_change) * 100) + '% ('
          + fmtNumber(c.before) + ' → ' + fmtNumber(c.after) + ') on ' + keyOf(c) + ' at ' + fmtTime(at)});
      }
    });
    return out;
  }

  /** The text list of a chart's marks under it (one li per mark), or nothing when it has none. */
  function markList(box, m, marks) {
    var old = box.querySelector('ul.marks');
    if (old) {
      old.remove();
    }
    if (!marks || marks.alerts.length + marks.changes.length === 0) {
      return;
    }
    var ul = el('ul', 'marks');
    ul.setAttribute('data-marks-of', m.id);
    marks.alerts.forEach(function (a) { ul.appendChild(el('li', 'mark alert', a.label)); });
    marks.changes.forEach(function (c) { ul.appendChild(el('li', 'mark change', c.label)); });
    box.appendChild(ul);
  }

  /** uPlot draw hook: the alert bands, change lines and error bars of the chart, counted on its container. */
  function drawExtras(u, state, container) {
    var ctx = u.ctx;
    var box = u.bbox;
    var counts = {alerts: 0, changes: 0, bars: 0};
    var xMin = u.scales.x.min;
    var xMax = u.scales.x.max;
    ctx.save();
    ctx.beginPath();
    ctx.rect(box.left, box.top, box.width, box.height);
    ctx.clip();
    var marks = state.marks || {alerts: [], changes: []};
    marks.alerts.forEach(function (a) {
      if (a.to < xMin || a.from > xMax) {
        return;
      }
      var x0 = u.valToPos(Math.max(a.from, xMin), 'x', true);
      var x1 = u.valToPos(Math.min(a.to, xMax), 'x', true);
      ctx.fillStyle = ALERT_FILL;
      ctx.fillRect(x0, box.top, Math.max(2, x1 - x0), box.height);
      counts.alerts++;
    });
    marks.changes.forEach(function (c) {
      if (c.at < xMin || c.at > xMax) {
        return;
      }
      var x = Math.round(u.valToPos(c.at, 'x', true));
      ctx.strokeStyle = CHANGE_STROKE;
      ctx.lineWidth = 2 * devicePixelRatio;
      ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(x, box.top);
      ctx.lineTo(x, box.top + box.height);
      ctx.stroke();
      counts.changes++;
    });
    ctx.setLineDash([]);
    var cap = 3 * devicePixelRatio;
    (state.ci || []).forEach(function (bars, i) {
      if (!bars || !u.series[i + 1] || u.series[i + 1].show === false) {
        return;
      }
      ctx.strokeStyle = COLORS[i % COLORS.length];
      ctx.lineWidth = 1 * devicePixelRatio;
      bars.forEach(function (ci, j) {
        if (!ci) {
          return;
        }
        var x = Math.round(u.valToPos(u.data[0][j], 'x', true));
        var y0 = u.valToPos(ci[0], 'y', true);
        var y1 = u.valToPos(ci[1], 'y', true);
        ctx.beginPath();
        ctx.moveTo(x, y0);
        ctx.lineTo(x, y1);
        ctx.moveTo(x - cap, y0);
        ctx.lineTo(x + cap, y0);
        ctx.moveTo(x - cap, y1);
        ctx.lineTo(x + cap, y1);
        ctx.stroke();
        counts.bars++;
      });
    });
    ctx.restore();
    container.setAttribute('data-alert-marks', String(counts.alerts));
    container.setAttribute('data-change-marks', String(counts.changes));
    container.setAttribute('data-error-bars', String(counts.bars));
  }

  /** The y range of a chart: its values, their intervals and its SLO lines, from 0 when all are positive. */
  function yRange(state) {
    return function (u, dataMin, dataMax) {
      var lo = dataMin;
      var hi = dataMax;
      (state.ci || []).forEach(function (bars) {
        (bars || []).forEach(function (ci) {
          if (ci) {
            lo = lo === null ? ci[0] : Math.min(lo, ci[0]);
            hi = hi === null ? ci[1] : Math.max(hi, ci[1]);
          }
        });
      });
      if (lo === null || hi === null) {
        return [0, 1];
      }
      var pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
      return [lo >= 0 ? Math.max(0, lo - pad) : lo - pad, hi + pad];
    };
  }

  function renderSummaries(summaries) {
    var section = document.getElementById('summaries');
    if (!Array.isArray(summaries) || summaries.length === 0) {
      destroyAllPlots();
      section.replaceChildren(note('no window summaries yet: a window is summarised once it has closed, i.e. when later events (another run, or the heartbeats of generate --continuous) move the stream past its end and grace period'));
      return;
    }
    var grid = section.querySelector('.charts');
    if (!grid) {
      grid = el('div', 'charts');
      section.replaceChildren(grid);
    }
    var keys = [];
    var starts = [];
    var seenKey = {};
    var seenStart = {};
    summaries.forEach(function (s) {
      var k = keyOf(s);
      var x = num(s.window_start_ms);
      if (!seenKey[k]) {
        seenKey[k] = true;
        keys.push(k);
      }
      if (x !== null && !seenStart[x]) {
        seenStart[x] = true;
        starts.push(x);
      }
    });
    keys.sort();
    starts.sort(function (a, b) { return a - b; });
    // A window without any traffic has no summary: a gap (null in every series) goes at the first such window after
    // each run of windows, so that no line joins the windows either side of an idle span as if there had been traffic
    // between them (a fresh user's 16-minute idle span was drawn as traffic). A window only some series lack stays
    // undefined in those series and is spanned.
    var widthMs = Infinity;
    summaries.forEach(function (s) {
      var a = num(s.window_start_ms);
      var b = num(s.window_end_ms);
      if (a !== null && b !== null && b > a) {
        widthMs = Math.min(widthMs, b - a);
      }
    });
    var gapAt = {};
    var gaps = 0;
    if (isFinite(widthMs)) {
      var withGaps = [];
      starts.forEach(function (x, i) {
        if (i > 0 && x - starts[i - 1] > widthMs) {
          gapAt[starts[i - 1] + widthMs] = true;
          withGaps.push(starts[i - 1] + widthMs);
          gaps++;
        }
        withGaps.push(x);
      });
      starts = withGaps;
    }
    var keyIndex = {};
    keys.forEach(function (k, i) { keyIndex[k] = i; });
    var xIndex = {};
    starts.forEach(function (x, i) { xIndex[x] = i; });
    var xs = starts.map(function (ms) { return ms / 1000; });   // uPlot time scales are in seconds

    var charted = metrics();
    var lastEnd = 0;
    summaries.forEach(function (s) { lastEnd = Math.max(lastEnd, num(s.window_end_ms) || 0); });
    var marks = marksByChart(charted, lastEnd);
    Array.prototype.slice.call(grid.children).forEach(function (box) {
      if (!charted.some(function (m) { return 'box-' + m.id === box.id; })) {
        destroyPlot(box.id.substring(4));
        box.remove();
      }
    });
    charted.forEach(function (m) {
      var ys = keys.map(function () { return starts.map(function (x) { return gapAt[x] ? null : undefined; }); });
      var cis = keys.map(function () { return starts.map(function () { return null; }); });
      summaries.forEach(function (s) {
        var x = num(s.window_start_ms);
        var v = m.value(s);
        if (x !== null && v !== null) {
          ys[keyIndex[keyOf(s)]][xIndex[x]] = v;
          if (m.ci) {
            cis[keyIndex[keyOf(s)]][xIndex[x]] = m.ci(s);
          }
        }
      });
      var series = [];
      var points = 0;
      keys.forEach(function (k, i) {
        var finite = ys[i].filter(isNum).length;
        if (finite > 0) {
          series.push({label: k, y: ys[i], ci: m.ci ? cis[i] : null});
          points += finite;
        }
      });
      var box = metricBox(grid, m);
      if (m.needsSlos && slos.length === 0) {
        showNote(box, m, 'no goodput: it counts the requests meeting every SLO, and the aggregator has none'
          + ' (aggregate --slo)');
      } else if (points === 0) {
        showNote(box, m, 'no values in these windows');
      } else {
        draw(box, m, xs, series, points, marks[m.id], gaps);
      }
    });
  }

  function setError(messages) {
    var e = document.getElementById('error');
    if (messages.length === 0) {
      e.hidden = true;
      e.textContent = '';
    } else {
      e.hidden = false;
      e.textContent = 'API unreachable or not ready: ' + messages.join('; ') + ' (showing the last data, retrying every '
        + (REFRESH_MS / 1000) + ' s)';
    }
  }

  function refresh() {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    var span = num(document.getElementById('span').value) || 86400000;
    var from = Date.now() - span;
    // the alert history and the change points first: the summaries' charts draw their marks
    var parts = [
      {url: 'api/alerts?from=' + from, render: function (list) { alertHistory = Array.isArray(list) ? list : []; }},
      {url: 'api/changes?from=' + from, render: function (list) { changePoints = Array.isArray(list) ? list : []; }},
      {url: 'api/slos', render: renderSlos},
      {url: 'api/runs', render: renderRuns},
      {url: 'api/summaries?from=' + from, render: renderSummaries},
      {url: 'api/alerts?active=true', render: renderAlerts}
    ];
    Promise.allSettled(parts.map(function (p) { return getJson(p.url); })).then(function (results) {
      var errors = [];
      results.forEach(function (r, i) {
        if (r.status === 'fulfilled') {
          try {
            parts[i].render(r.value);
          } catch (e) {
            errors.push(parts[i].url + ': cannot show the answer: ' + (e && e.message ? e.message : String(e)));
          }
        } else {
          errors.push(r.reason && r.reason.message ? r.reason.message : String(r.reason));
        }
      });
      setError(errors);
      if (errors.length < parts.length) {
        document.getElementById('updated').textContent = 'last updated ' + new Date().toLocaleTimeString();
      }
    }).finally(function () {
      timer = setTimeout(refresh, REFRESH_MS);
    });
  }

  window.addEventListener('resize', function () {
    Object.keys(plots).forEach(function (id) {
      var box = document.getElementById('box-' + id);
      if (box) {
        plots[id].plot.setSize({width: chartWidth(box), height: CHART_HEIGHT});
      }
    });
  });
  document.getElementById('span').addEventListener('change', refresh);
  refresh();
}());
