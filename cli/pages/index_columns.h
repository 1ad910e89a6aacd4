// cli/pages/index_columns.h
//
// What the results index shows of a run: the settings an engineer tells runs
// apart by (version, shared_buffers, the checkpoint GUCs, the load, the
// device) and the figures they are judged by (the per-second tps of
// pgsql-hackers' checkpoint threads: mean, stddev, share of seconds below the
// stall threshold; the worst second's p99 latency; the whole run's latency
// p50 / p90 / p99 / p99.9; checkpoints). Settings are
// read by JSON pointer from run.json, figures from summary.json or, for the
// p99, from progress.csv. The same columns make the index's rows, the run
// pages' tables and the comparison page's figures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/pages/results_tree.h"

namespace ckptsim::cli {

struct IndexColumn {
  enum class Source { setting, summary, worst_p99, checkpoints };
  std::string label;  // header text
  Source source;
  std::string pointer;  // setting: into run.json's "settings"; summary: into summary.json
  int decimals = -1;    // a number shown with this many decimals (-1: as written)
  std::string unit;     // shown in the header

  bool figure() const { return source != Source::setting; }
};

const std::vector<IndexColumn>& index_columns();

// The cell's text ("" when the run lacks it) and, for sorting, its number
// (sizes in bytes, durations in seconds).
std::string cell_text(const RunEntry& run, const IndexColumn& column);
std::optional<double> cell_number(const RunEntry& run, const IndexColumn& column);

// Every setting of run.json as "postgres.shared_buffers" -> "128MB", by name.
nlohmann::ordered_json flat_settings(const RunEntry& run);

// Every scalar of a JSON document as "a.b[2].c" -> text (objects by key).
nlohmann::ordered_json flatten_json(const nlohmann::json& value);

// A setting's value as the scenario would spell it: strings as they are, true/false, numbers.
std::string setting_text(const nlohmann::json& value);

}  // namespace ckptsim::cli
