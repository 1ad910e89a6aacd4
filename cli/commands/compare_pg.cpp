#include "cli/commands/compare_pg.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/run/run_point.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

namespace {

using json = nlohmann::json;

double number(const json& counters, const char* name) {
  return counters.contains(name) && counters[name].is_number() ? counters[name].get<double>() : 0.0;
}

double per_transaction(const json& counters, const char* name) {
  const double tx = number(counters, "transactions");
  return tx > 0 ? number(counters, name) / tx : 0.0;
}

double hit_ratio_pct(const json& c) {
  const double hit = number(c, "blks_hit"), read = number(c, "blks_read");
  return hit + read > 0 ? 100.0 * hit / (hit + read) : 0.0;
}

}  // namespace

bool Comparison::within() const {
  if (points) return std::abs(sim - real) <= tolerance;
  // Counters that are (near) zero on both sides agree; relative error is meaningless there.
  if (std::abs(real) < 1e-3 && std::abs(sim) < 1e-3) return true;
  return std::abs(difference()) <= tolerance;
}

double Comparison::difference() const {
  if (points) return sim - real;
  return real != 0 ? (sim - real) / real : (sim == 0 ? 0.0 : INFINITY);
}

std::vector<Comparison> compare_case(const std::string& name, const std::string& builtin, const json& real,
                                     const json& sim) {
  std::vector<Comparison> rows;
  rows.push_back({name, "hit ratio %", hit_ratio_pct(real), hit_ratio_pct(sim), true, 2.0});
  auto relative = [&](const char* metric, const char* counter) {
    rows.push_back({name, metric, per_transaction(real, counter), per_transaction(sim, counter), false, 0.20});
  };
  relative("buffers_alloc / tx", "buffers_alloc");
  if (builtin != "select-only") {
    relative("buffers_checkpoint / tx", "buffers_checkpoint");
    relative("buffers_clean / tx", "buffers_clean");
    relative("buffers_backend / tx", "buffers_backend");
    relative("wal_fpi / tx", "wal_fpi");
    rows.push_back({name, "checkpoints", number(real, "checkpoints_timed") + number(real, "checkpoints_req"),
                    number(sim, "checkpoints_timed") + number(sim, "checkpoints_req"), false, 0.20});
  }
  return rows;
}

json counters_from_summary(const json& summary) {
  json c;
  c["transactions"] = summary.at("pgbench").at("transactions");
  for (const char* view : {"pg_stat_bgwriter", "pg_stat_checkpointer", "pg_stat_database", "pg_stat_wal"}) {
    if (!summary.contains(view)) continue;
    for (const auto& [key, value] : summary[view].items()) c[key] = value;
  }
  return c;
}

std::string format_comparisons(const std::vector<Comparison>& rows) {
  std::string out = fmt::format("{:<36} {:<24} {:>12} {:>12} {:>10}  {}\n", "case", "figure", "PostgreSQL 15",
                                "ckptsim", "diff", "target");
  out += std::string(36 + 24 + 12 + 12 + 10 + 16, '-') + '\n';
  int within = 0;
  for (const auto& r : rows) {
    const std::string diff =
        r.points ? fmt::format("{:+.2f} pp", r.difference())
                 : (std::isinf(r.difference()) ? std::string("inf") : fmt::format("{:+.1f}%", 100 * r.difference()));
    const std::string target =
        r.points ? fmt::format("±{:g} pp", r.tolerance) : fmt::format("±{:g}%", 100 * r.tolerance);
    out += fmt::format("{:<36} {:<24} {:>12.4f} {:>12.4f} {:>10}  {} {}\n", r.case_name, r.metric, r.real, r.sim, diff,
                       target, r.within() ? "ok" : "MISS");
    within += r.within();
  }
  out += fmt::format("{} of {} figures within target\n", within, rows.size());
  return out;
}

int command_compare_pg(const std::string& recorded_path) {
  json recorded;
  try {
    std::ifstream in(recorded_path);
    if (!in) throw std::runtime_error("cannot open " + recorded_path);
    recorded = json::parse(in);
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(recorded_path) << ": " << printable(e.what()) << '\n';
    return 2;
  }
  // The shape scripts/validate-pg writes: {"scale": N, "cases": [{"name", "postgres", "pgbench", "real"}, ...]}.
  const auto case_ok = [](const json& c) {
    return c.is_object() && c.contains("name") && c["name"].is_string() && c.contains("postgres") &&
           c.contains("pgbench") && c["pgbench"].is_object() && c["pgbench"].contains("builtin") &&
           c.contains("real") && c["real"].is_object();
  };
  const bool shaped = recorded.is_object() && recorded.contains("scale") && recorded["scale"].is_number_integer() &&
                      recorded.contains("cases") && recorded["cases"].is_array() && !recorded["cases"].empty() &&
                      std::all_of(recorded["cases"].begin(), recorded["cases"].end(), case_ok);
  if (!shaped) {
    std::cerr << "error: " << printable(recorded_path)
              << ": not a recording of scripts/validate-pg (expected {\"scale\": N, \"cases\": [{\"name\", "
                 "\"postgres\", \"pgbench\", \"real\"}, ...]})\n";
    return 2;
  }
  const auto out = std::filesystem::temp_directory_path() / fmt::format("ckptsim-compare-{}", ::getpid());
  std::vector<Comparison> rows;
  try {
    for (const auto& c : recorded.at("cases")) {
      const std::string name = c.at("name");
      std::cerr << "ckptsim: " << printable(name) << '\n';
      // The same settings, on PostgreSQL 15, at the recorded scale; the hardware does not enter these figures.
      nlohmann::ordered_json doc = {{"hardware", {{"cpus", 2}, {"ram", "24GB"}, {"device", "nvme"}}},
                                    {"postgres", c.at("postgres")},
                                    {"pgbench", c.at("pgbench")},
                                    {"seed", 1}};
      doc["postgres"]["version"] = "15";
      doc["pgbench"]["scale"] = recorded.at("scale");
      const scenarios::Plan plan = scenarios::load_plan(doc);
      const auto dir = out / std::to_string(rows.size());
      run_point(plan.points.front().scenario, dir, RunOptions{});
      std::ifstream summary_in(dir / run_files::kSummaryJson);
      const json sim = counters_from_summary(json::parse(summary_in));
      const auto case_rows = compare_case(name, c.at("pgbench").at("builtin"), c.at("real"), sim);
      rows.insert(rows.end(), case_rows.begin(), case_rows.end());
    }
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& m : e.messages) std::cerr << "error: " << printable(m) << '\n';
    std::filesystem::remove_all(out);
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    std::filesystem::remove_all(out);
    return 1;
  }
  std::filesystem::remove_all(out);
  std::cout << format_comparisons(rows);
  return 0;
}

Command add_compare_pg(CLI::App& app) {
  auto recorded = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "compare-pg", "Run the cases recorded from a real PostgreSQL 15 (scripts/validate-pg) and compare the counters");
  cmd->add_option("recorded", *recorded, "JSON written by scripts/validate-pg")->required();
  return {cmd, [recorded] { return command_compare_pg(*recorded); }};
}

}  // namespace ckptsim::cli
