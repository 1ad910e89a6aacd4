// `ckptsim index DIR` over a small tree (one run in a folder named a&b<c>,
// one 4-point grid): every link of every page resolves, every page is
// well-formed, the index has a row per run with summary.json's figures, the
// comparison page embeds the runs' data, and run and plot refresh indexes
// that ckptsim wrote above their folder, and only those (cli/pages/results_index.h).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <regex>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

const char* kRun = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
  "postgres": {"shared_buffers": "64MB", "checkpoint_timeout": "30s", "max_wal_size": "32MB", "log_checkpoints": true},
  "pgbench": {"scale": 10, "clients": 2, "duration": "12s"},
  "seed": 5
})";

const char* kFourPoints = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"shared_buffers": "64MB", "checkpoint_timeout": "30s"},
  "pgbench": {"scale": 20, "clients": 2, "duration": "8s"},
  "grid": {"postgres.checkpoint_sorting": [true, false], "postgres.checkpoint_flush_after": [0, "256kB"]},
  "seed": 9
})";

const std::string kOddName = "a&b<c>";

// tree/a&b<c> (a run) and tree/grid (4 points), indexed; built once for every test here.
const TempDir& indexed_tree() {
  static const TempDir dir("index");
  static const bool built = [] {
    write_text(dir / "run.json", kRun);
    write_text(dir / "grid.json", kFourPoints);
    const fs::path tree = dir / "tree";
    REQUIRE(run_ckptsim("run " + quoted(dir / "run.json") + " -q --out " + quoted(tree / kOddName), dir).exit_code ==
            0);
    REQUIRE(run_ckptsim("run " + quoted(dir / "grid.json") + " -q --out " + quoted(tree / "grid"), dir).exit_code == 0);
    const auto indexed = run_ckptsim("index " + quoted(tree), dir);
    REQUIRE(indexed.exit_code == 0);
    REQUIRE(indexed.out.find("5 runs, 1 grid,") != std::string::npos);
    return true;
  }();
  REQUIRE(built);
  return dir;
}

fs::path tree_root() { return indexed_tree() / "tree"; }

std::vector<fs::path> pages_under(const fs::path& dir) {
  std::vector<fs::path> pages;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".html") pages.push_back(entry.path());
  std::sort(pages.begin(), pages.end());
  return pages;
}

std::string unescape(std::string text) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (const auto& [entity, c] : entities) {
    for (std::size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1))
      text.replace(at, std::string_view(entity).size(), c);
  }
  return text;
}

std::string percent_decoded(const std::string& url) {
  std::string out;
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (url[i] == '%' && i + 2 < url.size()) {
      out += static_cast<char>(std::stoi(url.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += url[i];
    }
  }
  return out;
}

// What is wrong with a page's tags, or "" when every non-void element is
// closed in the order it was opened and html, head, body and title occur once.
std::string tag_problem(const std::string& page) {
  static const std::set<std::string> kVoid = {"area",  "base", "br",   "col",    "embed", "hr", "img",
                                              "input", "link", "meta", "source", "track", "wbr"};
  static const std::regex kTag(R"(<(/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>)");
  std::vector<std::string> open;
  std::map<std::string, int> seen;
  std::size_t at = 0;
  if (!page.starts_with("<!DOCTYPE html>")) return "no <!DOCTYPE html>";
  at = page.find('>') + 1;
  while ((at = page.find('<', at)) != std::string::npos) {
    std::smatch m;
    const auto from = page.begin() + static_cast<std::ptrdiff_t>(at);
    if (!std::regex_search(from, page.end(), m, kTag, std::regex_constants::match_continuous))
      return fmt::format("a '<' that starts no tag at {}: {}", at, page.substr(at, 40));
    const std::string name = m[2];
    at += static_cast<std::size_t>(m.length(0));
    if (m[1] == "/") {
      if (open.empty() || open.back() != name)
        return fmt::format("</{}> closes <{}>", name, open.empty() ? "nothing" : open.back());
      open.pop_back();
      continue;
    }
    ++seen[name];
    if (kVoid.contains(name)) continue;
    if (m[3].str().ends_with("/")) return fmt::format("<{} /> is not a void element", name);
    open.push_back(name);
    if (name == "script" || name == "style") {  // raw text up to its end tag
      at = page.find("</" + name + ">", at);
      if (at == std::string::npos) return "<" + name + "> never closed";
    }
  }
  if (!open.empty()) return "<" + open.back() + "> left open";
  for (const char* name : {"html", "head", "body", "title"})
    if (seen[name] != 1) return fmt::format("{} <{}> elements", seen[name], name);
  return "";
}

// The text of each cell of each row in <tbody> of the table with this id.
std::vector<std::vector<std::string>> table_rows(const std::string& page, const std::string& id) {
  const std::size_t start = page.find("id=\"" + id + "\"");
  REQUIRE(start != std::string::npos);
  const std::size_t body = page.find("<tbody>", start), end = page.find("</tbody>", start);
  const std::string rows_text = page.substr(body, end - body);
  static const std::regex kRow(R"(<tr>([\s\S]*?)</tr>)"), kCell(R"(<td[^>]*>([\s\S]*?)</td>)"), kTags("<[^>]*>");
  std::vector<std::vector<std::string>> rows;
  for (std::sregex_iterator r(rows_text.begin(), rows_text.end(), kRow), none; r != none; ++r) {
    const std::string row = (*r)[1];
    std::vector<std::string> cells;
    for (std::sregex_iterator c(row.begin(), row.end(), kCell); c != none; ++c)
      cells.push_back(unescape(std::regex_replace((*c)[1].str(), kTags, "")));
    rows.push_back(cells);
  }
  return rows;
}

nlohmann::json compare_data() {
  const std::string page = slurp(tree_root() / "_index" / "compare.html");
  const std::string open = "<script type=\"application/json\" id=\"compare-data\">";
  const std::size_t start = page.find(open);
  REQUIRE(start != std::string::npos);
  const std::size_t end = page.find("</script>", start);
  return nlohmann::json::parse(page.substr(start + open.size(), end - start - open.size()));
}

double mean_tps_of(const fs::path& run) {
  return nlohmann::json::parse(slurp(run / "summary.json"))["stability"]["tps_mean"].get<double>();
}

}  // namespace

TEST_CASE("the tag checker finds what it is meant to find") {
  const std::string head = "<!DOCTYPE html>\n<html><head><title>t</title></head><body>";
  CHECK(tag_problem(head + "<p>a</p></body></html>") == "");
  CHECK(tag_problem(head + "<div><p></div></p></body></html>") == "</div> closes <p>");
  CHECK(tag_problem(head + "<p>a < b</p></body></html>").starts_with("a '<' that starts no tag"));
  CHECK(tag_problem(head + "<script>if (a<b) x();</script></body></html>") == "");
  CHECK(tag_problem(head + "<p></body></html>") == "</body> closes <p>");
  CHECK(tag_problem("<!DOCTYPE html>\n<html><head></head><body></body></html>") == "0 <title> elements");
}

TEST_CASE("index writes index.html, compare.html and a page per run and per grid under _index/") {
  const fs::path root = tree_root();
  CHECK(fs::is_regular_file(root / "index.html"));
  CHECK(fs::is_regular_file(root / "_index" / "compare.html"));
  CHECK(fs::is_regular_file(root / "_index" / kOddName / "run.html"));
  CHECK(fs::is_regular_file(root / "_index" / "grid" / "grid.html"));
  for (const char* point :
       {"checkpoint_sorting=true,checkpoint_flush_after=0", "checkpoint_sorting=false,checkpoint_flush_after=256kB"})
    CHECK(fs::is_regular_file(root / "_index" / "grid" / point / "run.html"));
  // The run folders hold only the run's files.
  CHECK_FALSE(fs::exists(root / kOddName / "run.html"));
}

TEST_CASE("every href and src of every page resolves to a file, by a relative link") {
  static const std::regex kLink(R"re(\s(href|src)="([^"]*)")re");
  int links = 0;
  for (const fs::path& page : pages_under(tree_root())) {
    const std::string text = slurp(page);
    for (std::sregex_iterator it(text.begin(), text.end(), kLink), none; it != none; ++it) {
      std::string url = unescape((*it)[2]);
      CAPTURE(page);
      CAPTURE(url);
      CHECK(url.find(':') == std::string::npos);  // no scheme: file:// and copies work
      CHECK_FALSE(url.starts_with("/"));
      url = url.substr(0, url.find_first_of("?#"));
      CHECK(fs::exists(page.parent_path() / percent_decoded(url)));
      ++links;
    }
  }
  CHECK(links > 100);
}

TEST_CASE("every page is well-formed") {
  const auto pages = pages_under(tree_root());
  // The tree's index: 1 + compare + 5 runs + 1 grid; each run's and grid's own index besides.
  CHECK(pages.size() >= 8);
  for (const fs::path& page : pages) {
    CAPTURE(page);
    CHECK(tag_problem(slurp(page)) == "");
  }
}

TEST_CASE("the index has one row per run with summary.json's mean tps and whole-run latency percentiles") {
  const auto rows = table_rows(slurp(tree_root() / "index.html"), "runs");
  REQUIRE(rows.size() == 5);
  std::set<std::string> names;
  for (const auto& row : rows) {
    REQUIRE(row.size() > 3);
    names.insert(row[0]);
    // Columns: run, grid, mean tps, ...
    CHECK(row[2] == fmt::format("{:.1f}", mean_tps_of(tree_root() / row[0])));
    CHECK(row[1] == (row[0] == kOddName ? "" : "grid"));
    // ... tps stddev, below threshold, worst p99, then the whole run's latency percentiles.
    REQUIRE(row.size() > 9);
    const auto latency = nlohmann::json::parse(slurp(tree_root() / row[0] / "summary.json"))["pgbench"]["latency_ms"];
    CHECK(row[6] == fmt::format("{:.1f}", latency["p50"].get<double>()));
    CHECK(row[7] == fmt::format("{:.1f}", latency["p90"].get<double>()));
    CHECK(row[8] == fmt::format("{:.1f}", latency["p99"].get<double>()));
    CHECK(row[9] == fmt::format("{:.1f}", latency["p99_9"].get<double>()));
  }
  CHECK(names.contains(kOddName));
  CHECK(names.contains("grid/checkpoint_sorting=false,checkpoint_flush_after=0"));
  CHECK(table_rows(slurp(tree_root() / "index.html"), "grids").size() == 1);
}

TEST_CASE("the grid page shows summary.csv as a table, a row per point linked to its page") {
  const std::string page = slurp(tree_root() / "_index" / "grid" / "grid.html");
  const auto csv = ckptsim::analysis::read_csv(tree_root() / "grid" / "summary.csv");
  const auto rows = table_rows(page, "summary");
  REQUIRE(rows.size() == 4);
  for (std::size_t r = 0; r < rows.size(); ++r) CHECK(rows[r] == csv.rows[r]);
  CHECK(page.find("src=\"../../grid/tps-grid.png\"") != std::string::npos);
  CHECK(page.find("href=\"checkpoint_sorting=true,checkpoint_flush_after=0/run.html\"") != std::string::npos);
}

TEST_CASE("the grid page of a sort x flush grid shows the E1 thread's table, as report.txt prints it") {
  const std::string page = slurp(tree_root() / "_index" / "grid" / "grid.html");
  const std::string report = slurp(tree_root() / "grid" / "report.txt");
  CHECK(page.find("<p>sort/flush : tps avg &amp; stddev (percent of time below 10.0 tps)</p>") != std::string::npos);
  const auto rows = table_rows(page, "sort-flush");
  REQUIRE(rows.size() == 4);  // on/on, on/off, off/on, off/off: one cell each (one test type)
  for (const auto& cells : rows) {
    REQUIRE(cells.size() == 1);
    CHECK(report.find(" | " + cells[0] + "\n") != std::string::npos);
  }
  CHECK(page.find("<th>on  / on</th>") < page.find("<th>off / off</th>"));
}

TEST_CASE("a run page shows its plots, its postgres.log escaped and its summary") {
  const fs::path run = tree_root() / kOddName;
  const std::string page = slurp(tree_root() / "_index" / kOddName / "run.html");
  CHECK(page.find("src=\"../../a%26b%3Cc%3E/tps.png\"") != std::string::npos);
  const std::string log = slurp(run / "postgres.log");
  REQUIRE(log.find("\"max_wal_size\"") != std::string::npos);  // a HINT line quotes the setting
  CHECK(page.find("<pre>" + log.substr(0, log.find('"'))) != std::string::npos);
  CHECK(page.find("&quot;max_wal_size&quot;") != std::string::npos);
  CHECK(page.find("\"max_wal_size\"") == std::string::npos);
  CHECK(page.find(fmt::format("<td class=\"num\" data-sort=\"{}\">{:.1f}</td>", mean_tps_of(run), mean_tps_of(run))) !=
        std::string::npos);
}

TEST_CASE("the compare page embeds every run's settings, figures and tps, and each grid's points") {
  const nlohmann::json data = compare_data();
  REQUIRE(data["items"].size() == 6);  // 1 grid, 5 runs
  CHECK(data["figures"][0]["label"] == "mean tps");
  std::map<std::string, nlohmann::json> items;
  for (const auto& item : data["items"])
    items[item["kind"].get<std::string>() + ":" + item["id"].get<std::string>()] = item;
  for (const std::string& id : {kOddName, std::string("grid/checkpoint_sorting=true,checkpoint_flush_after=256kB")}) {
    CAPTURE(id);
    REQUIRE(items.contains("run:" + id));
    const nlohmann::json& run = items["run:" + id];
    CHECK(run["tps"].get<std::vector<double>>() ==
          ckptsim::analysis::read_tps_series(tree_root() / id / "progress.csv"));
    CHECK(run["figures"][0].get<double>() == mean_tps_of(tree_root() / id));
    CHECK(run["settings"]["postgres.shared_buffers"] == "64MB");
  }
  CHECK(items["run:" + kOddName]["settings"]["hardware.device"] == "nvme");
  const nlohmann::json& grid = items["grid:grid"];
  CHECK(grid["points"].size() == 4);
  CHECK(grid["settings"]["postgres.checkpoint_sorting"] == "varies: false | true");
  CHECK(grid["settings"]["hardware.device"] == "hdd-7200-sata");
}

TEST_CASE("a folder name's special characters are escaped in text and percent-encoded in links") {
  const std::string index = slurp(tree_root() / "index.html");
  CHECK(index.find(">a&amp;b&lt;c&gt;</a>") != std::string::npos);
  CHECK(index.find("href=\"_index/a%26b%3Cc%3E/run.html\"") != std::string::npos);
  CHECK(index.find(kOddName) == std::string::npos);
  const std::string compare = slurp(tree_root() / "_index" / "compare.html");
  CHECK(compare.find(kOddName) == std::string::npos);  // the JSON writes '<' as \u003c
  CHECK(compare.find("a&b\\u003cc>") != std::string::npos);
}

TEST_CASE("run and plot refresh the index of their folder and the indexes that ckptsim wrote above it, no others") {
  TempDir tmp("index-refresh");
  write_text(tmp / "run.json", kRun);
  const fs::path tree = tmp / "tree";
  REQUIRE(run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "first"), tmp).exit_code == 0);
  CHECK(fs::is_regular_file(tree / "first" / "index.html"));
  CHECK_FALSE(fs::exists(tree / "index.html"));  // never indexed: left alone
  REQUIRE(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  REQUIRE(table_rows(slurp(tree / "index.html"), "runs").size() == 1);

  REQUIRE(run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "deeper" / "second"), tmp)
              .exit_code == 0);
  CHECK(table_rows(slurp(tree / "index.html"), "runs").size() == 2);
  CHECK(fs::is_regular_file(tree / "_index" / "deeper" / "second" / "run.html"));

  // plot redraws a folder's outputs, the index above included.
  fs::remove(tree / "_index" / "deeper" / "second" / "run.html");
  REQUIRE(run_ckptsim("plot " + quoted(tree / "deeper" / "second"), tmp).exit_code == 0);
  CHECK(fs::is_regular_file(tree / "_index" / "deeper" / "second" / "run.html"));

  // A run folder gone: its page goes at the next refresh, the other pages stay.
  fs::remove_all(tree / "first");
  REQUIRE(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  CHECK_FALSE(fs::exists(tree / "_index" / "first"));
  CHECK(fs::is_regular_file(tree / "_index" / "deeper" / "second" / "run.html"));
  CHECK(table_rows(slurp(tree / "index.html"), "runs").size() == 1);
}

TEST_CASE("index refuses what is not a folder") {
  TempDir tmp("index-bad");
  const auto result = run_ckptsim("index " + quoted(tmp / "missing"), tmp);
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("not a folder") != std::string::npos);
}

TEST_CASE("index replaces only pages it wrote: a user's index.html or _index page is refused and left alone") {
  TempDir tmp("index-foreign");
  write_text(tmp / "run.json", kRun);
  const fs::path tree = tmp / "tree";
  REQUIRE(run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "a"), tmp).exit_code == 0);
  write_text(tree / "index.html", "<html><body>my own notes</body></html>\n");
  const auto result = run_ckptsim("index " + quoted(tree), tmp);
  CHECK(result.exit_code == 2);
  CHECK(result.err.find((tree / "index.html").string() + ": not a page that ckptsim index wrote") != std::string::npos);
  CHECK(slurp(tree / "index.html") == "<html><body>my own notes</body></html>\n");
  CHECK_FALSE(fs::exists(tree / "_index"));  // refused before any page was written

  // Its own index, then a user's page where a run page goes: refused too, and kept.
  fs::remove(tree / "index.html");
  REQUIRE(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  write_text(tree / "_index" / "a" / "run.html", "mine\n");
  write_text(tree / "_index" / "notes.html", "mine too\n");  // no run's page: a refresh would remove its own
  CHECK(run_ckptsim("index " + quoted(tree), tmp).exit_code == 2);
  CHECK(slurp(tree / "_index" / "a" / "run.html") == "mine\n");
  fs::remove(tree / "_index" / "a" / "run.html");
  CHECK(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  CHECK(slurp(tree / "_index" / "notes.html") == "mine too\n");
}

TEST_CASE("a FIFO under a run folder's file name is never opened: index and a run's refresh end, the page says so") {
  TempDir tmp("index-fifo");
  write_text(tmp / "run.json", kRun);
  const fs::path tree = tmp / "tree";
  REQUIRE(run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "a"), tmp).exit_code == 0);
  REQUIRE(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  fs::remove(tree / "a" / "postgres.log");
  REQUIRE(::mkfifo((tree / "a" / "postgres.log").c_str(), 0600) == 0);
  // Opening the FIFO for reading would block until a writer came: `timeout` ends a hung process with 124.
  const auto ran =
      run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "b"), tmp, "timeout 60");
  CHECK(ran.exit_code == 0);
  CHECK(table_rows(slurp(tree / "index.html"), "runs").size() == 2);  // the refresh above reached the end
  CHECK_FALSE(fs::exists(tree / "b" / ".ckptsim.lock"));
  const auto indexed = run_ckptsim("index " + quoted(tree), tmp, "timeout 60");
  CHECK(indexed.exit_code == 0);
  CHECK(slurp(tree / "_index" / "a" / "run.html").find("missing (or not a regular file)") != std::string::npos);
}

TEST_CASE("index never lists ckptsim's own temporary folders: a staged run or point, or a previous set moved aside") {
  TempDir tmp("index-staging");
  write_text(tmp / "run.json", kRun);
  const fs::path tree = tmp / "tree";
  REQUIRE(run_ckptsim("run " + quoted(tmp / "run.json") + " -q --out " + quoted(tree / "a"), tmp).exit_code == 0);
  // What a running (or killed) run stages beside its folder, and the exchange's aside name.
  for (const std::string name : {"a.tmp.4194000", "b.tmp.77", "a.tmp.4194000.0"})
    fs::copy(tree / "a", tree / name, fs::copy_options::recursive);
  fs::create_directories(tree / "g");
  fs::copy(tree / "a", tree / "g" / "p.tmp.77", fs::copy_options::recursive);
  const auto indexed = run_ckptsim("index " + quoted(tree), tmp);
  REQUIRE(indexed.exit_code == 0);
  CHECK(indexed.out.find("1 run, 0 grids") != std::string::npos);
  CHECK(table_rows(slurp(tree / "index.html"), "runs").size() == 1);
  CHECK_FALSE(fs::exists(tree / "_index" / "b.tmp.77"));
}
