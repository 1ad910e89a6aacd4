// cli/commands/validate.cpp
//
// `ckptsim validate RECORDING... [--out DIR] [--print-scenario] [--json]`:
// each storm recording of scripts/record-storm (tests/data/storm/NAME) is
// turned into a scenario from its recording.json alone (cli/validate/
// storm_scenario.h), run into its folder (--out for one recording,
// DIR/NAME for several; default out/validate/NAME, under run's folder
// rules), and judged figure by figure against the real run
// (cli/validate/storm_figures.h); compare.png puts both tps series on one
// axis with the simulated checkpoints' phases, validate.json holds the
// verdicts. Given runs that differ only in checkpoint_flush_after, the one
// that stalls more of its seconds in reality must stall more in ckptsim.
// Exit status: 0 when every band and ordering holds, 1 when one is missed
// (or a run failed), 2 for a recording it cannot read.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "cli/commands/commands.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/run/run_plan.h"
#include "cli/validate/storm_figures.h"
#include "cli/validate/storm_run.h"
#include "cli/validate/storm_scenario.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

struct ValidateArgs {
  std::vector<std::string> recordings;
  std::string out;
  bool print_scenario = false;
  bool json = false;
};

struct Validated {
  StormRecording recording;
  json scenario;
  fs::path out;
  StormFigures real, sim;
  std::vector<Verdict> verdicts;
};

std::string shown(const Verdict& v, double value, bool known) {
  if (!known) return "-";
  return v.key == "buffers" ? fmt::format("{:.0f}", value) : fmt::format("{:.1f}", value);
}

std::string table(const Validated& v) {
  std::string out = fmt::format("{}: real against simulated ({})\n", v.recording.name, v.out.string());
  out += fmt::format("  {:<26} {:>9} {:>9}  {:<20} {}\n", "figure", "real", "simulated", "band", "verdict");
  for (const Verdict& row : v.verdicts) {
    const bool known = row.compared || row.real != 0 || row.sim != 0;  // a side without the phase has none
    out += fmt::format("  {:<26} {:>9} {:>9}  {:<20} {}\n", row.figure, shown(row, row.real, known),
                       shown(row, row.sim, known), row.band,
                       !row.compared ? "not compared: " + row.note : row.held ? "ok" : "MISSED");
  }
  return out;
}

json verdicts_json(const Validated& v) {
  json rows = json::array();
  for (const Verdict& row : v.verdicts) {
    rows.push_back({{"key", row.key}, {"figure", row.figure}, {"real", row.real}, {"simulated", row.sim},
                    {"band", row.band}, {"compared", row.compared}, {"held", row.held}, {"note", row.note}});
  }
  return {{"recording", v.recording.name}, {"out", v.out.string()}, {"figures", rows}};
}

// What two recordings share when they differ only in checkpoint_flush_after.
json setup_without_flush_after(const json& recording) {
  json setup = {{"blkio_throttle", recording.value("blkio_throttle", json())},
                {"scale", recording.value("scale", json())},
                {"postgres", recording.value("postgres", json::object())},
                {"sysctl", recording.contains("machine") ? recording["machine"].value("sysctl", json()) : json()}};
  if (recording.contains("pgbench")) {
    const json& p = recording["pgbench"];
    setup["pgbench"] = {{"options", p.value("options", json())},
                        {"duration_s", p.value("duration_s", json())},
                        {"warmup_select_only_s", p.value("warmup_select_only_s", json())}};
  }
  setup["postgres"].erase("checkpoint_flush_after");
  return setup;
}

std::string flush_after(const json& recording) {
  const json postgres = recording.value("postgres", json::object());
  return postgres.contains("checkpoint_flush_after") ? postgres["checkpoint_flush_after"].dump() : "default";
}

struct Ordering {
  std::string more, less;  // the recording that stalls more in reality, and the other
  double real_more, real_less, sim_more, sim_less;
  bool held() const { return sim_more > sim_less; }
};

std::vector<Ordering> orderings(const std::vector<Validated>& runs) {
  std::vector<Ordering> out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      const json& a = runs[i].recording.recording;
      const json& b = runs[j].recording.recording;
      if (flush_after(a) == flush_after(b) || setup_without_flush_after(a) != setup_without_flush_after(b)) continue;
      const Validated* more = &runs[i];
      const Validated* less = &runs[j];
      if (more->real.pct_below_10 == less->real.pct_below_10) continue;  // no order to keep
      if (more->real.pct_below_10 < less->real.pct_below_10) std::swap(more, less);
      out.push_back({more->recording.name, less->recording.name, more->real.pct_below_10, less->real.pct_below_10,
                     more->sim.pct_below_10, less->sim.pct_below_10});
    }
  }
  return out;
}

fs::path out_folder(const ValidateArgs& args, const std::string& name) {
  if (args.out.empty()) return fs::path(run_files::kDefaultOutFolder) / "validate" / name;
  return args.recordings.size() == 1 ? fs::path(args.out) : fs::path(args.out) / name;
}

analysis::CompareSeries series(const std::string& who, const StormFigures& f, const StormRun& run) {
  analysis::CompareSeries s;
  s.title = fmt::format("{}: mean {:.0f} tps, {:.0f} % of seconds < 10 tps", who, f.mean, f.pct_below_10);
  s.tps = run.tps;
  return s;
}

// Runs one recording's scenario into its folder and judges it; false when the run failed.
bool run_one(Validated& v, const scenarios::Plan& plan) {
  const ClaimedOutput claimed = claim_output(
      v.out, true, "validate runs only into a folder of ckptsim's outputs, so choose another --out or move them away");
  v.out = claimed.dir;
  std::cerr << "ckptsim validate: " << printable(v.recording.name) << " into " << printable(v.out.string()) << '\n';
  PlanOptions options;
  options.quiet = true;
  options.title = "validate " + v.recording.name;
  const int rc = run_plan(plan, v.out, options);
  if (rc != 0) return false;
  const StormRun sim = read_simulated_run(v.out);
  v.real = storm_figures(v.recording.real);
  v.sim = storm_figures(sim);
  v.verdicts = judge(v.real, v.sim);
  analysis::write_file_atomically(v.out / run_files::kValidateJson, verdicts_json(v).dump(2) + "\n");
  analysis::plot_compare(v.out, series("real " + v.recording.name, v.real, v.recording.real),
                         series("ckptsim", v.sim, sim), v.out / run_files::kCheckpointsCsv,
                         "tps per second, the real recording and ckptsim (shaded: ckptsim's checkpoints)",
                         {.script = run_files::kCompareScript, .png = run_files::kComparePng,
                          .svg = run_files::kCompareSvg});
  return true;
}

int command_validate(const ValidateArgs& args) {
  std::vector<Validated> runs;
  std::vector<scenarios::Plan> plans;
  for (const std::string& path : args.recordings) {
    try {
      Validated v;
      v.recording = read_storm_recording(path);
      v.scenario = storm_scenario(v.recording.recording, v.recording.name);
      v.out = out_folder(args, v.recording.name);
      plans.push_back(scenarios::load_plan(v.scenario));
      runs.push_back(std::move(v));
    } catch (const RecordingError& e) {
      std::cerr << "error: " << printable(e.what()) << '\n';
      return 2;
    } catch (const scenarios::ScenarioError& e) {
      for (const auto& m : e.messages) std::cerr << "error: " << printable(path) << ": " << printable(m) << '\n';
      return 2;
    }
  }
  if (args.print_scenario) {
    if (runs.size() == 1) {
      std::cout << runs.front().scenario.dump(2) << '\n';
    } else {
      json all = json::object();
      for (const Validated& v : runs) all[v.recording.name] = v.scenario;
      std::cout << all.dump(2) << '\n';
    }
    return 0;
  }
  int missed = 0;
  try {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!run_one(runs[i], plans[i])) {
        std::cerr << "error: the simulated run of " << printable(runs[i].recording.name) << " failed\n";
        return 1;
      }
      for (const Verdict& row : runs[i].verdicts) missed += row.compared && !row.held;
      if (!args.json) std::cout << table(runs[i]) << '\n';
    }
  } catch (const std::exception& e) {
    return report_failure(e);
  }
  const std::vector<Ordering> order = orderings(runs);
  json order_json = json::array();
  for (const Ordering& o : order) {
    missed += !o.held();
    order_json.push_back({{"stalls_more", o.more}, {"stalls_less", o.less}, {"real_pct", {o.real_more, o.real_less}},
                          {"simulated_pct", {o.sim_more, o.sim_less}}, {"held", o.held()}});
    if (!args.json) {
      std::cout << fmt::format("ordering: {} stalls more than {} (real {:.1f} % against {:.1f} %; ckptsim {:.1f} % "
                               "against {:.1f} %): {}\n",
                               o.more, o.less, o.real_more, o.real_less, o.sim_more, o.sim_less,
                               o.held() ? "ok" : "MISSED");
    }
  }
  if (args.json) {
    json all = {{"recordings", json::array()}, {"orderings", order_json}, {"missed", missed}};
    for (const Validated& v : runs) all["recordings"].push_back(verdicts_json(v));
    std::cout << all.dump(2) << '\n';
  } else {
    std::cout << fmt::format("{}: {} missed\n", missed == 0 ? "all bands hold" : "not all bands hold", missed);
  }
  return missed == 0 ? 0 : 1;
}

}  // namespace

Command add_validate(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand(
      "validate", "Predict real storm recordings (scripts/record-storm) from their recording.json and judge each figure");
  cmd->add_option("recordings", args->recordings, "Recording folders (tests/data/storm/NAME)")->required();
  cmd->add_option("--out", args->out,
                  fmt::format("Output folder for one recording, parent folder for several (default: {}/validate/NAME)",
                              run_files::kDefaultOutFolder));
  cmd->add_flag("--print-scenario", args->print_scenario,
                "Print the scenario built from the recording (what `ckptsim run` would run) and stop");
  cmd->add_flag("--json", args->json, "Print the verdicts as JSON");
  return {cmd, [args] { return command_validate(*args); }};
}

}  // namespace ckptsim::cli
