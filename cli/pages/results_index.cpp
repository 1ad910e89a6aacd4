#include "cli/pages/results_index.h"

#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/index_mark.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/stop.h"
#include "cli/pages/index_layout.h"
#include "cli/pages/index_pages.h"
#include "cli/pages/results_tree.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// A page may be written only where nothing is, or over a page that the index
// wrote itself (its generator mark); a symbolic link is never written through.
void refuse_foreign_page(const fs::path& page) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(page, ec);
  if (!fs::exists(status)) return;
  if (fs::is_regular_file(status) && is_ckptsim_index(page)) return;
  throw FolderRefused(
      fmt::format("{}: not a page that ckptsim index wrote (no <meta name=\"generator\" content=\"{}\">); it is left "
                  "alone: move it away, or index another folder",
                  page.string(), kGenerator));
}

// Removes the .html files under DIR/_index that this refresh did not write
// (a run folder deleted since) and that the index wrote, then the folders left empty.
void remove_stale_pages(const fs::path& root, const std::set<fs::path>& written) {
  const fs::path folder = root / run_files::kIndexFolder;
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory()) {
      dirs.push_back(it->path());
    } else if (it->path().extension() == run_files::kPageExtension &&
               !written.contains(it->path().lexically_relative(root)) && fs::is_regular_file(it->symlink_status()) &&
               is_ckptsim_index(it->path())) {
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
  const SignalWatch signals;  // a signal stops the index as it stops a run
  const ResultsTree tree = scan_results(dir);
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir / run_files::kIndexFolder, ec)))
    throw FolderRefused(
        fmt::format("{}: is a symbolic link; the index writes its pages only into a folder of "
                    "its own",
                    (dir / run_files::kIndexFolder).string()));
  refuse_foreign_page(dir / index_page());  // before any page is written
  std::set<fs::path> written;
  auto write = [&](const fs::path& page, const std::string& text) {
    signals.throw_if_signalled();
    refuse_foreign_page(dir / page);
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
    std::cerr << "warning: the results index was not refreshed: " << printable(e.what()) << '\n';
  }
}

}  // namespace ckptsim::cli
