#include "cli/results_index.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>

#include "analysis/atomic_file.h"
#include "cli/index_layout.h"
#include "cli/index_pages.h"
#include "cli/results_tree.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// Removes the .html files under DIR/_index that this refresh did not write
// (a run folder deleted since), then the folders left empty.
void remove_stale_pages(const fs::path& root, const std::set<fs::path>& written) {
  const fs::path folder = root / kIndexFolder;
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory()) {
      dirs.push_back(it->path());
    } else if (it->path().extension() == ".html" && !written.contains(it->path().lexically_relative(root))) {
      fs::remove(it->path(), ec);
    }
  }
  std::sort(dirs.rbegin(), dirs.rend());  // deepest first
  for (const fs::path& dir : dirs) {
    if (fs::is_empty(dir, ec)) fs::remove(dir, ec);
  }
}

}  // namespace

IndexWritten write_results_index(const fs::path& dir) {
  const ResultsTree tree = scan_results(dir);
  std::set<fs::path> written;
  auto write = [&](const fs::path& page, const std::string& text) {
    fs::create_directories((dir / page).parent_path());
    analysis::write_file_atomically(dir / page, text);
    written.insert(page);
  };
  for (const RunEntry& run : tree.runs) write(run_page(run), run_html(tree, run));
  for (const GridEntry& grid : tree.grids) write(grid_page(grid), grid_html(tree, grid));
  write(compare_page(), compare_html(tree));
  write(index_page(), index_html(tree));
  remove_stale_pages(dir, written);
  return {.runs = tree.runs.size(), .grids = tree.grids.size(), .pages = written.size()};
}

bool is_ckptsim_index(const fs::path& index_html) {
  std::ifstream in(index_html);
  std::string head(2048, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("<meta name=\"generator\" content=\"" + std::string(kGenerator) + "\"") != std::string::npos;
}

void refresh_indexes(const fs::path& dir) {
  std::error_code ec;
  const fs::path start = fs::weakly_canonical(dir, ec);
  if (ec) return;
  try {
    write_results_index(start);
    for (fs::path above = start.parent_path(); !above.empty(); above = above.parent_path()) {
      if (is_ckptsim_index(above / index_page())) write_results_index(above);
      if (above == above.root_path()) break;
    }
  } catch (const std::exception& e) {
    std::cerr << "warning: the results index was not refreshed: " << e.what() << '\n';
  }
}

}  // namespace ckptsim::cli
