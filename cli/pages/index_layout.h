// cli/pages/index_layout.h
//
// Where the results index's pages live and what every page shares. Under the
// indexed folder DIR:
//   DIR/index.html                   every run and grid, one table each
//   DIR/_index/compare.html          any two runs or grids side by side
//   DIR/_index/<run folder>/run.html a run's settings, figures, plots, log
//   DIR/_index/<grid folder>/grid.html
// The pages sit beside the results, not in the run folders, so that indexes
// of nested folders (a grid's own, and its parent tree's) never overwrite
// each other's pages and a run folder holds only the run's files. Every link
// is relative, so the tree can be opened from file:// or copied elsewhere.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "cli/pages/html.h"
#include "cli/pages/results_tree.h"

namespace ckptsim::cli {

// The pages' paths, relative to the indexed folder.
std::filesystem::path index_page();
std::filesystem::path compare_page();
std::filesystem::path run_page(const RunEntry& run);
std::filesystem::path grid_page(const GridEntry& grid);

// One page being written: <head> (title, the shared style sheet, the
// generator mark) is written on construction, then a navigation bar and the
// <h1>; body() is where the page's content goes.
class Page {
 public:
  Page(std::filesystem::path self, const std::string& title);

  // A URL from this page to `target` (a path relative to the indexed folder).
  std::string href(const std::filesystem::path& target) const;
  html::Writer& body() { return writer_; }
  // A link to `target` with `text`.
  void link(const std::filesystem::path& target, std::string_view text);
  // Closes <body> and returns the whole page.
  std::string finish();

  const std::filesystem::path& path() const { return self_; }

 private:
  std::filesystem::path self_;
  html::Writer writer_;
};

}  // namespace ckptsim::cli
