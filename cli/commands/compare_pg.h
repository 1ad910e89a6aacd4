// cli/commands/compare_pg.h
//
// `ckptsim compare-pg RECORDED.json`: the simulator's side of
// scripts/validate-pg. RECORDED.json holds, per case, the settings and the
// counters a real PostgreSQL 15 server reported after real pgbench ran a
// fixed number of transactions. This runs the same cases in ckptsim and
// prints both side by side with the relative difference and the target:
// hit ratio within 2 percentage points, per-transaction counters within 20%.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

struct Comparison {
  std::string case_name;
  std::string metric;
  double real = 0;
  double sim = 0;
  bool points = false;   // compared in percentage points, else relatively
  double tolerance = 0;  // points, or a fraction of the real figure
  bool within() const;
  double difference() const;  // points, or relative (sim - real) / real
};

// The figures a case is judged on, from flat counters (blks_hit, blks_read,
// buffers_*, wal_fpi, checkpoints_timed/req, transactions) of both sides.
std::vector<Comparison> compare_case(const std::string& case_name, const std::string& builtin,
                                     const nlohmann::json& real, const nlohmann::json& sim);

// The flat counters of a run, from its summary.json.
nlohmann::json counters_from_summary(const nlohmann::json& summary);

std::string format_comparisons(const std::vector<Comparison>& rows);

int command_compare_pg(const std::string& recorded_path);

}  // namespace ckptsim::cli
