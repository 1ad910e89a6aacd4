// cli/pages/index_sections.h
//
// The parts that the run and grid pages share: a folder's plots, a text file
// in <pre>, a CSV file as a table, a key/value table, the list of a folder's
// files. `root` is the indexed folder; `dir` and `file` are relative to it.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/pages/index_layout.h"

namespace ckptsim::cli {

// Every PNG of `dir` as an image (an SVG of the same name linked beside it),
// then every SVG without a PNG. Writes "none" when there is no plot.
void plots_section(Page& page, const std::filesystem::path& root, const std::filesystem::path& dir);

// The file's text, escaped, in <pre>; at most `limit` bytes, with a link to the whole file.
void text_file_section(Page& page, const std::filesystem::path& root, const std::filesystem::path& file,
                       std::size_t limit = 1 << 20);

// summary.csv, report tables: a header row and one row per record, numbers
// right-aligned and sortable; the table's id is the file's stem. `row_links` (when not empty) links each row's
// first cell to the page at that path (one per row; an empty path: no link).
void csv_section(Page& page, const std::filesystem::path& root, const std::filesystem::path& file,
                 const std::vector<std::filesystem::path>& row_links = {});

// "key | value" rows.
void key_value_table(Page& page, const nlohmann::ordered_json& flat);

// Every file in `dir`, linked, with its size.
void files_section(Page& page, const std::filesystem::path& root, const std::filesystem::path& dir);

// The inline script that sorts a table.sortable by the clicked column
// (cells' data-sort numbers, else their text), and the cell that it sorts on.
void sort_script(Page& page);
void sortable_cell(html::Writer& w, const std::string& text, std::optional<double> number);

}  // namespace ckptsim::cli
