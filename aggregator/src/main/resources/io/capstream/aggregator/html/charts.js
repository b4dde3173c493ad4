/*
 * capstream page script: draws the charts of a capstream report page with uPlot (embedded in the page).
 *
 * Global: capstreamChart(container, chart) draws one chart into the element `container` (replacing what
 * it held; to redraw, call it again, or u.destroy() first) and returns its uPlot instance (or null when
 * the chart has no x values). `chart` is one element of the page's
 * <script type="application/json" id="capstream-charts"> {"charts": [...]}:
 *   {id, title, xLabel, yLabel, kind: "LINE"|"STEP"|"POINTS"|"BARS", x: [number],
 *    series: [{label, style: "DEFAULT"|"DASHED"|"MARKERS"|"FAILURE", y: [number|null],
 *              errors: [[low, high]|null] (optional)}],
 *    xLog: boolean, categories: [string]|null}
 * null y values are gaps; FAILURE series are drawn as crosses above the others, in colours no other
 * series of the chart uses. Tick labels carry the decimals of the tick increment, so neighbouring ticks
 * never read the same. The chart follows the container's width; after each draw the container's
 * data-points attribute holds the number of finite y values drawn (all series). A series with errors (issue 32: a
 * percentile's 95% interval) gets a vertical error bar with caps at each x that has one, in its colour; the y scale
 * then covers the bars, and the container's data-error-bars attribute holds how many were drawn.
 * On load, every chart of the page's JSON is drawn into its element [data-chart="<id>"].
 */
(function () {
  'use strict';
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#7f7f7f', '#bcbd22'];
  /** Colours of FAILURE series (crosses); the chart's other series then leave out red. */
  var FAILURE_COLORS = ['#d62728', '#000000', '#e377c2', '#8c564b'];
  var HEIGHT = 300;
  /** Half the width of a failure cross, CSS px. */
  var CROSS = 5;

  function isNum(v) {
    return typeof v === 'number' && isFinite(v);
  }

  function finiteCount(data) {
    var n = 0;
    for (var s = 1; s < data.length; s++) {
      var y = data[s];
      for (var i = 0; i < y.length; i++) {
        if (isNum(y[i])) {
          n++;
        }
      }
    }
    return n;
  }

  /** [x, y1, y2, ...] with x ascending (POINTS charts may come in any order) and non-numbers as null. */
  function chartData(chart) {
    var x = chart.x.map(function (v) { return isNum(v) ? v : null; });
    var ys = chart.series.map(function (s) {
      return s.y.map(function (v) { return isNum(v) ? v : null; });
    });
    var ascending = true;
    for (var i = 1; i < x.length; i++) {
      if (!(x[i] >= x[i - 1])) {
        ascending = false;
        break;
      }
    }
    if (!ascending) {
      var idx = [];
      for (var j = 0; j < x.length; j++) {
        if (x[j] !== null) {
          idx.push(j);
        }
      }
      idx.sort(function (a, b) { return x[a] - x[b]; });
      x = idx.map(function (k) { return chart.x[k]; });
      ys = ys.map(function (y) { return idx.map(function (k) { return y[k]; }); });
    }
    return [x].concat(ys);
  }

  function fmt(v) {
    if (v === null || v === undefined || !isFinite(v)) {
      return '';
    }
    var a = Math.abs(v);
    if (a >= 1000) {
      return v.toLocaleString('en-US', {maximumFractionDigits: 0});
    }
    if (a >= 10) {
      return String(+v.toFixed(1));
    }
    return String(+v.toPrecision(3));
  }

  /** The fewest decimals that show the tick increment exactly (0.05 -> 2, 2.5 -> 1, 200 -> 0); -1 if unknown. */
  function decimalsOf(incr) {
    if (!isNum(incr) || incr <= 0) {
      return -1;
    }
    for (var d = 0; d <= 10; d++) {
      var m = incr * Math.pow(10, d);
      if (Math.abs(m - Math.round(m)) < 1e-6 * Math.max(1, m)) {
        return d;
      }
    }
    return 10;
  }

  /**
   * Tick labels of a linear axis: every label with the decimals of the tick increment, so that neighbouring
   * ticks never read the same (16.75 and 16.80, not 16.8 twice); thousands grouped.
   */
  function tickValues(u, splits, axisIdx, space, incr) {
    var d = decimalsOf(incr);
    if (d < 0) {
      return splits.map(fmt);
    }
    return splits.map(function (v) {
      if (v === null || v === undefined || !isFinite(v)) {
        return '';
      }
      return (Math.abs(v) < Math.pow(10, -d) / 2 ? 0 : v).toLocaleString('en-US',
        {minimumFractionDigits: d, maximumFractionDigits: d});
    });
  }

  function hasFailures(chart) {
    return chart.series.some(function (s) { return s.style === 'FAILURE'; });
  }

  /** Colour of the chart's i-th series: failures in FAILURE_COLORS, the others in COLORS (without red if failures). */
  function colorOf(chart, i) {
    var failures = hasFailures(chart);
    var f = 0;
    var o = 0;
    for (var k = 0; k < i; k++) {
      if (chart.series[k].style === 'FAILURE') {
        f++;
      } else {
        o++;
      }
    }
    if (chart.series[i].style === 'FAILURE') {
      return FAILURE_COLORS[f % FAILURE_COLORS.length];
    }
    var palette = failures ? COLORS.filter(function (c) { return FAILURE_COLORS.indexOf(c) < 0; }) : COLORS;
    return palette[o % palette.length];
  }

  function hasErrors(chart) {
    return chart.series.some(function (s) { return Array.isArray(s.errors); });
  }

  /** The [low, high] of an error bar, or null when it is not two finite numbers. */
  function errorBar(e) {
    return Array.isArray(e) && e.length === 2 && isNum(e[0]) && isNum(e[1]) ? e : null;
  }

  /** Draws each visible series' error bars (vertical, with caps); returns how many were drawn. */
  function drawErrorBars(u, chart) {
    var ctx = u.ctx;
    var cap = 4 * uPlot.pxRatio;
    var drawn = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    chart.series.forEach(function (s, k) {
      if (!Array.isArray(s.errors) || !u.series[k + 1].show) {
        return;
      }
      ctx.beginPath();
      s.errors.forEach(function (e, i) {
        var bar = errorBar(e);
        if (bar === null || !isNum(chart.x[i])) {
          return;
        }
        var px = Math.round(u.valToPos(chart.x[i], 'x', true));
        var lo = u.valToPos(bar[0], 'y', true);
        var hi = u.valToPos(bar[1], 'y', true);
        ctx.moveTo(px, lo);
        ctx.lineTo(px, hi);
        ctx.moveTo(px - cap, lo);
        ctx.lineTo(px + cap, lo);
        ctx.moveTo(px - cap, hi);
        ctx.lineTo(px + cap, hi);
        drawn++;
      });
      ctx.strokeStyle = colorOf(chart, k);
      ctx.lineWidth = 1.5 * uPlot.pxRatio;
      ctx.stroke();
    });
    ctx.restore();
    return drawn;
  }

  /** A y range covering the values and every error bar, from 0 when all are positive. */
  function errorRange(chart) {
    return function (u, min, max) {
      var lo = min;
      var hi = max;
      chart.series.forEach(function (s) {
        (s.errors || []).forEach(function (e) {
          var bar = errorBar(e);
          if (bar !== null) {
            lo = lo === null ? bar[0] : Math.min(lo, bar[0]);
            hi = hi === null ? bar[1] : Math.max(hi, bar[1]);
          }
        });
      });
      if (lo === null || hi === null) {
        return [0, 1];
      }
      var pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
      return [lo >= 0 ? 0 : lo - pad, hi + pad];
    };
  }

  /** Draws each visible FAILURE series' points as crosses, above everything else. */
  function drawCrosses(u, chart) {
    var ctx = u.ctx;
    var r = CROSS * uPlot.pxRatio;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    chart.series.forEach(function (s, k) {
      var series = u.series[k + 1];
      if (s.style !== 'FAILURE' || !series.show) {
        return;
      }
      var xs = u.data[0];
      var ys = u.data[k + 1];
      ctx.beginPath();
      for (var i = 0; i < xs.length; i++) {
        if (isNum(xs[i]) && isNum(ys[i])) {
          var px = u.valToPos(xs[i], 'x', true);
          var py = u.valToPos(ys[i], 'y', true);
          ctx.moveTo(px - r, py - r);
          ctx.lineTo(px + r, py + r);
          ctx.moveTo(px - r, py + r);
          ctx.lineTo(px + r, py - r);
        }
      }
      ctx.lineCap = 'round';
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 5 * uPlot.pxRatio;
      ctx.stroke();
      ctx.strokeStyle = colorOf(chart, k);
      ctx.lineWidth = 2.5 * uPlot.pxRatio;
      ctx.stroke();
    });
    ctx.restore();
  }

  function seriesOptions(chart, s, i) {
    var color = colorOf(chart, i);
    var o = {label: s.label, stroke: color, width: 1.5, spanGaps: false,
      value: function (u, v, si, idx) { return s.segment ? (idx == null ? '' : fmt(s.segment[idx])) : fmt(v); }};
    var style = s.style || 'DEFAULT';
    if (style === 'FAILURE') {
      // drawn as crosses by the draw hook; the legend marker keeps the colour
      o.paths = function () { return null; };
      o.points = {show: false};
      o.fill = color;
      o.width = 2.5;
      return o;
    }
    if (style === 'DASHED') {
      o.dash = [8, 5];
      o.points = {show: false};
      return o;
    }
    if (style === 'MARKERS') {
      o.paths = function () { return null; };
      o.points = {show: true, size: 13, width: 2, stroke: '#000', fill: color};
      return o;
    }
    switch (chart.kind) {
      case 'STEP':
        o.paths = uPlot.paths.stepped({align: 1});
        o.points = {show: false};
        break;
      case 'POINTS':
        o.paths = function () { return null; };
        o.points = {show: true, size: 4, width: 1, stroke: color, fill: color};
        break;
      case 'BARS':
        o.paths = uPlot.paths.bars({size: [0.85, 80], align: chart.categories ? 0 : 1});
        o.fill = s.segment ? color : color + 'aa';
        o.points = {show: false};
        break;
      default:
        o.points = {show: chart.x.length <= 60, size: 6};
    }
    return o;
  }

  function options(chart, width, container) {
    var cats = chart.categories;
    var xScale = {time: false};
    var xAxis = {label: chart.xLabel, stroke: '#333', grid: {stroke: '#eceff1'}, ticks: {stroke: '#ccc'},
      values: tickValues};
    if (cats) {
      xScale.range = function () { return [-0.5, cats.length - 0.5]; };
      xAxis.splits = function () { return cats.map(function (c, k) { return k; }); };
      xAxis.values = function (u, splits) {
        return splits.map(function (v) { return cats[v] === undefined ? '' : cats[v]; });
      };
      xAxis.grid = {show: false};
    } else if (chart.xLog) {
      xScale.distr = 3;
      xScale.log = 10;
      xAxis.values = function (u, splits) { return splits.map(fmt); };
    }
    var yScale = {};
    if (chart.kind === 'BARS') {
      yScale.range = function (u, min, max) { return [0, max > 0 ? max * 1.05 : 1]; };
    } else if (hasErrors(chart)) {
      yScale.range = errorRange(chart);
    }
    var series = [{label: chart.xLabel, value: function (u, v) {
      return cats ? (cats[v] === undefined ? '' : cats[v]) : fmt(v);
    }}];
    chart.series.forEach(function (s, i) { series.push(seriesOptions(chart, s, i)); });
    return {
      title: chart.title,
      width: width,
      height: HEIGHT,
      scales: {x: xScale, y: yScale},
      axes: [xAxis, {label: chart.yLabel, stroke: '#333', size: 64, grid: {stroke: '#eceff1'},
        ticks: {stroke: '#ccc'}, values: tickValues}],
      series: series,
      legend: {show: true, live: true},
      cursor: chart.kind === 'POINTS' ? {points: {show: false}} : {},
      hooks: {draw: [function (u) {
        if (hasErrors(chart)) {
          container.setAttribute('data-error-bars', String(drawErrorBars(u, chart)));
        }
        if (hasFailures(chart)) {
          drawCrosses(u, chart);
        }
        container.setAttribute('data-points', String(finiteCount(u.data)));
      }]}
    };
  }

  // STACKED (issue 30's HTTP phases): each series is one segment of a bar per x, the first at the bottom. Drawn as
  // opaque bars of the running sums, the top one first so that each segment shows; the legend gives each segment's
  // own value.
  function stacked(chart) {
    var sums = chart.x.map(function () { return 0; });
    var layers = chart.series.map(function (s) {
      var y = s.y.map(function (v, k) {
        sums[k] += isNum(v) ? v : 0;
        return sums[k];
      });
      return {label: s.label, y: y, segment: s.y, style: 'DEFAULT'};
    });
    var out = {};
    Object.keys(chart).forEach(function (k) { out[k] = chart[k]; });
    out.kind = 'BARS';
    out.series = layers.reverse();
    return out;
  }

  function capstreamChart(container, chart) {
    if (chart.kind === 'STACKED') {
      chart = stacked(chart);
    }
    container.textContent = '';
    container.setAttribute('data-points', '0');
    if (!chart.x || chart.x.length === 0) {
      container.textContent = 'no data';
      return null;
    }
    var width = container.clientWidth || 640;
    var u = new uPlot(options(chart, width, container), chartData(chart), container);
    var last = width;
    var observer = null;
    var resize = function () {
      if (!u.root.isConnected) {
        if (observer) {
          observer.disconnect();
        } else {
          window.removeEventListener('resize', resize);
        }
        return;
      }
      var w = container.clientWidth;
      if (w > 0 && Math.abs(w - last) > 1) {
        last = w;
        u.setSize({width: w, height: HEIGHT});
      }
    };
    if (typeof ResizeObserver === 'function') {
      observer = new ResizeObserver(resize);
      observer.observe(container);
    } else {
      window.addEventListener('resize', resize);
    }
    return u;
  }

  window.capstreamChart = capstreamChart;

  function drawPage() {
    var el = document.getElementById('capstream-charts');
    if (!el) {
      return;
    }
    var charts = JSON.parse(el.textContent).charts || [];
    charts.forEach(function (chart) {
      var container = document.querySelector('[data-chart="' + chart.id + '"]');
      if (!container) {
        return;
      }
      try {
        capstreamChart(container, chart);
      } catch (e) {
        container.textContent = 'chart could not be drawn: ' + e;
        console.error('capstream chart ' + chart.id + ':', e);
      }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', drawPage);
  } else {
    drawPage();
  }
}());
