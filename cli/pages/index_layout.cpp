#include "cli/pages/index_layout.h"

#include "cli/folder/index_mark.h"
#include "cli/folder/run_files.h"
#include "cli/pages/assets.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

fs::path index_page() { return run_files::kIndexHtml; }
fs::path compare_page() { return fs::path(run_files::kIndexFolder) / run_files::kCompareHtml; }
fs::path run_page(const RunEntry& run) {
  return (fs::path(run_files::kIndexFolder) / run.dir / run_files::kRunHtml).lexically_normal();
}
fs::path grid_page(const GridEntry& grid) {
  return (fs::path(run_files::kIndexFolder) / grid.dir / run_files::kGridHtml).lexically_normal();
}

Page::Page(fs::path self, const std::string& title) : self_(std::move(self)) {
  writer_.open("head")
      .empty("meta", {{"charset", "utf-8"}})
      .empty("meta", {{"name", "generator"}, {"content", std::string(kGenerator)}})
      .element("title", title)
      .raw_block("style", assets::index_css)  // plain, printable, readable without colour
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

void Page::link(const fs::path& target, std::string_view text) { writer_.element("a", text, {{"href", href(target)}}); }

std::string Page::finish() {
  writer_.close("body");
  return writer_.finish();
}

}  // namespace ckptsim::cli
