#include "cli/index_layout.h"

#include <fmt/format.h>

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// Plain, printable, readable without colour: the pages are read by people
// comparing numbers, so tables come first.
constexpr std::string_view kStyle = R"(
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 14px; margin: 0 1.5em 2em; color: #222; }
nav { padding: .6em 0; border-bottom: 1px solid #ccc; margin-bottom: .5em; }
nav a { margin-right: 1.2em; }
h1 { font-size: 1.5em; margin: .4em 0; }
h2 { font-size: 1.2em; margin: 1.4em 0 .4em; }
table { border-collapse: collapse; margin: .3em 0; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th.sortable { cursor: pointer; user-select: none; }
.wide { overflow-x: auto; }
#runs { font-size: .88em; }
#runs th, #runs td { padding: .2em .35em; }
td.run { min-width: 12em; }
th.sortable::after { content: " \2195"; color: #999; }
th.sorted-asc::after { content: " \2191"; color: #222; }
th.sorted-desc::after { content: " \2193"; color: #222; }
tr:nth-child(even) td { background: #fafbfc; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: .6em; overflow-x: auto; max-height: 40em; }
img.plot { max-width: 100%; border: 1px solid #ddd; margin: .3em 0; display: block; }
figure { margin: 1em 0; }
figcaption { color: #555; }
.differs td { background: #fff4d6 !important; }
.muted { color: #777; }
select { font-size: 1em; max-width: 40em; }
svg text { font-size: 12px; fill: #333; }
)";

}  // namespace

fs::path index_page() { return "index.html"; }
fs::path compare_page() { return fs::path(kIndexFolder) / "compare.html"; }
fs::path run_page(const RunEntry& run) { return (fs::path(kIndexFolder) / run.dir / "run.html").lexically_normal(); }
fs::path grid_page(const GridEntry& grid) {
  return (fs::path(kIndexFolder) / grid.dir / "grid.html").lexically_normal();
}

Page::Page(fs::path self, const std::string& title) : self_(std::move(self)) {
  writer_.open("head")
      .empty("meta", {{"charset", "utf-8"}})
      .empty("meta", {{"name", "generator"}, {"content", std::string(kGenerator)}})
      .element("title", title)
      .raw_text("style", kStyle)
      .close("head")
      .open("body")
      .open("nav");
  link(index_page(), "Index");
  link(compare_page(), "Compare");
  writer_.close("nav").element("h1", title);
}

std::string Page::href(const fs::path& target) const {
  return html::url_of(target.lexically_normal().lexically_relative(self_.parent_path()));
}

void Page::link(const fs::path& target, std::string_view text) {
  writer_.element("a", text, {{"href", href(target)}});
}

std::string Page::finish() {
  writer_.close("body");
  return writer_.finish();
}

std::string shown_number(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

}  // namespace ckptsim::cli
