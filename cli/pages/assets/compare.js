(function () {
  var data = JSON.parse(document.getElementById('compare-data').textContent);
  var selects = [document.getElementById('a'), document.getElementById('b')];
  var hues = [210, 25];  // A blue, B orange
  if (data.items.length === 0) {
    document.getElementById('compare').textContent = 'No run or grid under this folder.';
    return;
  }
  selects.forEach(function (select) {
    ['grid', 'run'].forEach(function (kind) {
      var group = document.createElement('optgroup');
      group.label = kind === 'grid' ? 'Grids' : 'Runs';
      data.items.forEach(function (item, i) {
        if (item.kind !== kind) return;
        var option = document.createElement('option');
        option.value = String(i);
        option.textContent = item.label;
        group.appendChild(option);
      });
      if (group.children.length) select.appendChild(group);
    });
    select.addEventListener('change', render);
  });

  // ?a=ID&b=ID, decoded without turning '+' into a space (folder names may
  // hold one); a malformed %-escape selects nothing rather than stop the script.
  function param(name) {
    var found = null;
    location.search.replace(/^\?/, '').split('&').forEach(function (pair) {
      var eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq) === name) {
        try { found = decodeURIComponent(pair.slice(eq + 1)); } catch (e) { found = null; }
      }
    });
    return found;
  }
  function find(id) {
    for (var i = 0; i < data.items.length; ++i) if (data.items[i].id === id) return i;
    return -1;
  }
  var a = find(param('a')), b = find(param('b'));
  if (a < 0) a = 0;
  if (b < 0) {
    // The next item of the same kind, else any other.
    b = a;
    for (var k = 1; k < data.items.length; ++k) {
      var c = (a + k) % data.items.length;
      if (data.items[c].kind === data.items[a].kind) { b = c; break; }
      if (b === a) b = c;
    }
  }
  selects[0].value = String(a);
  selects[1].value = String(b);

  function element(tag, text, attributes) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    for (var name in attributes || {}) e.setAttribute(name, attributes[name]);
    return e;
  }
  function row(cells, header) {
    var tr = element('tr');
    cells.forEach(function (cell, i) {
      var td = element(i === 0 || header ? 'th' : 'td', cell);
      if (!header && i > 0 && typeof cell === 'string' && /^-?[0-9.]+%?$/.test(cell)) td.className = 'num';
      tr.appendChild(td);
    });
    return tr;
  }
  function clear(id) {
    var e = document.getElementById(id);
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }
  function shown(value, decimals) {
    if (value === null || value === undefined) return '';
    return decimals >= 0 ? value.toFixed(decimals) : String(value);
  }

  // Only a relative link to a page of the index: never one with a scheme
  // (javascript:, data:) or one that leaves the folder's own host (//, /, \).
  function relative(page) {
    return typeof page === 'string' && page !== '' && !/^([A-Za-z][A-Za-z0-9+.-]*:|[\/\\])/.test(page);
  }
  function links(x, y) {
    var p = clear('pages');
    [x, y].forEach(function (item, i) {
      p.appendChild(document.createTextNode((i ? '; B: ' : 'A: ') + item.kind + ' '));
      p.appendChild(relative(item.page) ? element('a', item.id, {href: item.page}) : element('span', item.id));
    });
  }

  function figures(x, y) {
    var table = clear('figures');
    table.appendChild(row(['figure', 'A', 'B', 'B against A'], true));
    data.figures.forEach(function (f, i) {
      var u = x.figures[i], v = y.figures[i];
      var change = u !== null && v !== null && u !== 0 ? ((v - u) / Math.abs(u) * 100).toFixed(1) + '%' : '';
      table.appendChild(row([f.label + (f.unit ? ' (' + f.unit + ')' : ''), shown(u, f.decimals), shown(v, f.decimals), change]));
    });
    var note = x.kind === 'grid' || y.kind === 'grid' ? "A grid's figures are the means of its points'." : '';
    document.getElementById('figures-note').textContent = note;
  }

  function settings(x, y) {
    var table = clear('settings');
    table.appendChild(row(['setting', 'A', 'B'], true));
    var keys = Object.keys(x.settings);
    Object.keys(y.settings).forEach(function (key) { if (!(key in x.settings)) keys.push(key); });
    var differing = 0;
    keys.forEach(function (key) {
      var u = key in x.settings ? x.settings[key] : '(not set)', v = key in y.settings ? y.settings[key] : '(not set)';
      if (u === v) return;
      ++differing;
      table.appendChild(row([key, u, v]));
    });
    document.getElementById('settings-note').textContent =
        differing === 0 ? 'All ' + keys.length + ' settings are the same.'
                        : differing + ' of ' + keys.length + ' settings differ; the others are the same.';
  }

  // A run is one line; a grid one line per point, in shades of its colour.
  function lines(item, which) {
    var runs = item.kind === 'run' ? [item] : item.points.map(function (id) {
      return data.items[find(id)];
    }).filter(function (r) { return r; });
    return runs.map(function (run, i) {
      var light = runs.length === 1 ? 45 : 30 + 40 * i / (runs.length - 1);
      return {name: (which ? 'B: ' : 'A: ') + run.id, tps: run.tps, interval: run.interval,
              colour: 'hsl(' + hues[which] + ', 75%, ' + light + '%)', dashed: which === 1};
    }).filter(function (line) { return line.tps.length > 0; });
  }
  function niceStep(range) {
    var raw = range / 5, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; ++i) if (raw <= steps[i] * power) return steps[i] * power;
    return 10 * power;
  }
  function chart(x, y) {
    var svg = clear('chart'), legend = clear('legend');
    var all = lines(x, 0).concat(lines(y, 1));
    var ns = 'http://www.w3.org/2000/svg';
    function add(tag, attributes, text) {
      var e = document.createElementNS(ns, tag);
      for (var name in attributes) e.setAttribute(name, attributes[name]);
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    }
    if (all.length === 0) {
      add('text', {x: 20, y: 40}, 'Neither has a per-interval tps series (@PROGRESS_CSV@).');
      return;
    }
    var width = 1200, height = 420, left = 60, right = 20, top = 15, bottom = 40;
    var maxT = 0, maxY = 0;
    all.forEach(function (line) {
      maxT = Math.max(maxT, line.tps.length * line.interval);
      line.tps.forEach(function (v) { maxY = Math.max(maxY, v); });
    });
    if (maxY <= 0) maxY = 1;
    var stepY = niceStep(maxY), stepT = niceStep(maxT);
    maxY = Math.ceil(maxY / stepY) * stepY;
    function px(t) { return left + (width - left - right) * t / maxT; }
    function py(v) { return top + (height - top - bottom) * (1 - v / maxY); }
    for (var v = 0; v <= maxY + 1e-9; v += stepY) {
      add('line', {x1: left, x2: width - right, y1: py(v), y2: py(v), stroke: '#ddd'});
      add('text', {x: left - 6, y: py(v) + 4, 'text-anchor': 'end'}, String(Math.round(v)));
    }
    for (var t = 0; t <= maxT + 1e-9; t += stepT) {
      add('line', {x1: px(t), x2: px(t), y1: top, y2: height - bottom, stroke: '#eee'});
      add('text', {x: px(t), y: height - bottom + 16, 'text-anchor': 'middle'}, String(Math.round(t)));
    }
    add('text', {x: (left + width) / 2, y: height - 6, 'text-anchor': 'middle'}, 'seconds');
    add('text', {x: 14, y: (top + height - bottom) / 2, 'text-anchor': 'middle',
                 transform: 'rotate(-90 14 ' + (top + height - bottom) / 2 + ')'}, 'tps');
    all.forEach(function (line) {
      var points = line.tps.map(function (value, i) {
        return px((i + 1) * line.interval).toFixed(1) + ',' + py(value).toFixed(1);
      });
      // B dashed: where A and B coincide, both still show.
      add('polyline', {points: points.join(' '), fill: 'none', stroke: line.colour, 'stroke-width': 1.3,
                       'stroke-dasharray': line.dashed ? '6 3' : 'none'});
      var item = element('li');
      item.appendChild(element('span', '\u25A0 ', {style: 'color: ' + line.colour}));
      item.appendChild(document.createTextNode(line.name));
      legend.appendChild(item);
    });
  }

  function render() {
    var x = data.items[+selects[0].value], y = data.items[+selects[1].value];
    links(x, y);
    figures(x, y);
    settings(x, y);
    chart(x, y);
  }
  render();
})();
