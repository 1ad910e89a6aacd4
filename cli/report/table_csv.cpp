#include "cli/report/table_csv.h"

#include <utility>
#include <variant>

namespace ckptsim::cli {

namespace {
std::string cell_text(const sim::Cell& cell) {
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&cell)) return analysis::format_fixed(*d, 3);
  return std::get<std::string>(cell);
}
}  // namespace

TableCsv::TableCsv(sim::Table& table, std::filesystem::path path) : path_(std::move(path)), table_(&table) {
  table.add_sink([this](const sim::Table& t, const std::vector<sim::Cell>& row) {
    if (!writer_) writer_ = std::make_unique<analysis::CsvWriter>(path_, t.columns());
    line_.clear();
    for (const auto& cell : row) line_.push_back(cell_text(cell));
    writer_->row(line_);
  });
}

void TableCsv::commit() {
  if (!writer_) writer_ = std::make_unique<analysis::CsvWriter>(path_, table_->columns());
  writer_->commit();
}

}  // namespace ckptsim::cli
