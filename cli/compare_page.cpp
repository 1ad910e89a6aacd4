// compare.html: any two runs or grids chosen in two selectors. Every run's
// and grid's settings, figures and per-interval tps are embedded as JSON; a
// plain script shows the settings that differ, the figures side by side and
// the tps overlaid as SVG polylines. A grid stands for its points: its
// settings are those they share (the varied ones listed by value), its
// figures their means, its tps one line per point. compare.html?a=ID&b=ID
// preselects two (the index links each row as ?a=ID). Each item links its
// run's or grid's page by a relative URL that html::url_of percent-encodes
// (':' included, so a folder named "javascript:..." is a path, not a scheme),
// and the script links nothing else.
#include <map>
#include <set>

#include <fmt/format.h>

#include "cli/index_columns.h"
#include "cli/index_layout.h"
#include "cli/index_pages.h"

namespace ckptsim::cli {

namespace {

constexpr std::string_view kCompareScript = R"(
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
      add('text', {x: 20, y: 40}, 'Neither has a per-interval tps series (progress.csv).');
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
)";

// What a grid's points share, and each varied setting as "varies: v1 | v2".
nlohmann::ordered_json shared_settings(const ResultsTree& tree, const GridEntry& grid) {
  std::map<std::string, std::set<std::string>> values;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const std::size_t r : grid.runs) {
    const nlohmann::ordered_json settings = flat_settings(tree.runs[r]);
    for (const auto& [key, value] : settings.items()) {
      if (!out.contains(key)) out[key] = value;
      values[key].insert(value.get<std::string>());
    }
  }
  for (auto& [key, value] : out.items()) {
    const auto& seen = values[key];
    if (seen.size() == 1) continue;
    std::string text = "varies:";
    for (const std::string& v : seen) text += (text.size() > 7 ? " | " : " ") + v;
    value = text;
  }
  return out;
}

nlohmann::ordered_json run_item(const Page& page, const RunEntry& run) {
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    const auto number = cell_number(run, column);
    figures.push_back(number ? nlohmann::ordered_json(*number) : nlohmann::ordered_json());
  }
  nlohmann::ordered_json item = nlohmann::ordered_json::object();
  item["id"] = run.id();
  item["kind"] = "run";
  item["label"] = run.id();
  item["page"] = page.href(run_page(run));
  item["settings"] = flat_settings(run);
  item["figures"] = std::move(figures);
  item["interval"] = run.interval_s;
  item["tps"] = run.tps;
  return item;
}

nlohmann::ordered_json grid_item(const Page& page, const ResultsTree& tree, const GridEntry& grid) {
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    double sum = 0;
    int count = 0;
    for (const std::size_t r : grid.runs) {
      if (const auto number = cell_number(tree.runs[r], column)) {
        sum += *number;
        ++count;
      }
    }
    figures.push_back(count ? nlohmann::ordered_json(sum / count) : nlohmann::ordered_json());
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const std::size_t r : grid.runs) points.push_back(tree.runs[r].id());
  nlohmann::ordered_json item = nlohmann::ordered_json::object();
  item["id"] = grid.id();
  item["kind"] = "grid";
  item["label"] = fmt::format("{} ({}, {} points)", grid.id(), grid.title, grid.runs.size());
  item["page"] = page.href(grid_page(grid));
  item["settings"] = shared_settings(tree, grid);
  item["figures"] = std::move(figures);
  item["points"] = std::move(points);
  return item;
}

}  // namespace

std::string compare_html(const ResultsTree& tree) {
  Page page(compare_page(), "Compare two runs or grids");
  nlohmann::ordered_json data = nlohmann::ordered_json::object();
  data["figures"] = nlohmann::ordered_json::array();
  data["items"] = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    nlohmann::ordered_json figure = nlohmann::ordered_json::object();
    figure["label"] = column.label;
    figure["unit"] = column.unit;
    figure["decimals"] = column.decimals;
    data["figures"].push_back(std::move(figure));
  }
  for (const GridEntry& grid : tree.grids) data["items"].push_back(grid_item(page, tree, grid));
  for (const RunEntry& run : tree.runs) data["items"].push_back(run_item(page, run));

  html::Writer& w = page.body();
  w.open("div", {{"id", "compare"}});
  w.open("p").open("label").text("A ").open("select", {{"id", "a"}}).close("select").close("label");
  w.text(" ").open("label").text("B ").open("select", {{"id", "b"}}).close("select").close("label").close("p");
  w.element("p", "", {{"id", "pages"}});
  w.element("h2", "Figures").open("table", {{"id", "figures"}}).close("table");
  w.element("p", "", {{"id", "figures-note"}, {"class", "muted"}});
  w.element("h2", "tps per interval");
  w.open("svg", {{"id", "chart"}, {"viewBox", "0 0 1200 420"}, {"width", "100%"},
                 {"xmlns", "http://www.w3.org/2000/svg"}, {"role", "img"}, {"aria-label", "tps of A and B"}})
      .close("svg");
  w.open("ul", {{"id", "legend"}}).close("ul");
  w.element("h2", "Settings that differ");
  w.element("p", "", {{"id", "settings-note"}, {"class", "muted"}});
  w.open("table", {{"id", "settings"}}).close("table");
  w.close("div");
  w.raw_text("script", html::json_for_script(data), {{"type", "application/json"}, {"id", "compare-data"}});
  w.raw_text("script", kCompareScript);
  return page.finish();
}

}  // namespace ckptsim::cli
