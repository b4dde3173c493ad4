/*
 * capstream page script: draws the charts of a capstream report page with uPlot (embedded in the page).
 *
 * Global: capstreamChart(container, chart) draws one chart into the element `container` (replacing what
 * it held; to redraw, call it again, or u.destroy() first) and returns its uPlot instance (or null when
 * the chart has no x values). `chart` is one element of the page's
 * <script type="application/json" id="capstream-charts"> {"charts": [...]}:
 *   {id, title, xLabel, yLabel, kind: "LINE"|"STEP"|"POINTS"|"BARS", x: [number],
 *    series: [{label, style: "DEFAULT"|"DASHED"|"MARKERS", y: [number|null]}],
 *    xLog: boolean, categories: [string]|null}
 * null y values are gaps. The chart follows the container's width; after each draw the container's
 * data-points attribute holds the number of finite y values drawn (all series).
 * On load, every chart of the page's JSON is drawn into its element [data-chart="<id>"].
 */
(function () {
  'use strict';
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#7f7f7f', '#bcbd22'];
  var HEIGHT = 300;

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

  function seriesOptions(chart, s, i) {
    var color = COLORS[i % COLORS.length];
    var o = {label: s.label, stroke: color, width: 1.5, spanGaps: false,
      value: function (u, v) { return fmt(v); }};
    var style = s.style || 'DEFAULT';
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
        o.fill = color + 'aa';
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
      values: function (u, splits) { return splits.map(fmt); }};
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
    }
    var yScale = {};
    if (chart.kind === 'BARS') {
      yScale.range = function (u, min, max) { return [0, max > 0 ? max * 1.05 : 1]; };
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
        ticks: {stroke: '#ccc'}, values: function (u, splits) { return splits.map(fmt); }}],
      series: series,
      legend: {show: true, live: true},
      cursor: chart.kind === 'POINTS' ? {points: {show: false}} : {},
      hooks: {draw: [function (u) {
        container.setAttribute('data-points', String(finiteCount(u.data)));
      }]}
    };
  }

  function capstreamChart(container, chart) {
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
