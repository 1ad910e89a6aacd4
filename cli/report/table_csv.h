// cli/report/table_csv.h
//
// Streams a sampler table into a CSV file that appears under its final name
// only when the run commits it (a killed run leaves no half-written CSV).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "sim/sampler.h"

namespace ckptsim::cli {

class TableCsv {
 public:
  TableCsv(sim::Table& table, std::filesystem::path path);
  TableCsv(const TableCsv&) = delete;
  TableCsv& operator=(const TableCsv&) = delete;
  void commit();

 private:
  std::filesystem::path path_;
  const sim::Table* table_;
  std::unique_ptr<analysis::CsvWriter> writer_;  // opened at the first row, or at commit
  std::vector<std::string> line_;
};

}  // namespace ckptsim::cli
