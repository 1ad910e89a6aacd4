// cli/commands/calibrate.cpp
//
// Exit status: 0 when the preset is written, 1 when the fit misses a job's
// IOPS by more than kMaxMiss (the table says which; nothing is written: such
// a preset does not describe the drive) or the file cannot be written, 2 for
// bad input (the fio file, a figure out of bounds, the name, an existing
// output file).
#include "cli/commands/calibrate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "cli/calibrate/device_fit.h"
#include "cli/commands/commands.h"
#include "cli/folder/printable.h"
#include "scenarios/scenario.h"
#include "scenarios/settings.h"

namespace ckptsim::cli {

namespace {

bool plain_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
                     }) &&
         name.front() != '.';
}

}  // namespace

int command_calibrate(const CalibrateArgs& args) {
  if (!plain_name(args.name)) {
    std::cerr << "error: --name: \"" << printable(args.name)
              << "\" (expected 1 to 64 letters, digits, '-', '_' or '.', not starting with '.')\n";
    return 2;
  }
  const std::filesystem::path out =
      args.out.empty() ? std::filesystem::path(args.name + ".json") : std::filesystem::path(args.out);
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(out, ec))) {
    std::cerr << "error: " << printable(out.string()) << ": exists (calibrate never overwrites a file; "
              << (args.out.empty() ? "give --out" : "choose another --out") << ")\n";
    return 2;
  }
  FioReport report;
  try {
    report = read_fio_report(args.fio_json);
  } catch (const FioReportError& e) {
    for (const std::string& m : e.messages) std::cerr << "error: " << printable(m) << '\n';
    return 2;
  }
  // The kernel devbench runs by default, so the check below is what `devbench --preset-file` shows.
  const scenarios::Plan plan = scenarios::load_plan(scenarios::json::object());
  const scenarios::Scenario& base = plan.points.at(0).scenario;
  const DeviceFit fit = fit_device(report, base.os, base.seed);

  // The table first: it says how far the fit is, written or not.
  const auto print_table = [&fit] {
    std::cout << fmt::format("{:<18} {:>11} {:>11} {:>8} {:>10} {:>10}\n", "job", "fio IOPS", "model IOPS", "diff",
                             "fio p50", "model p50");
    for (const JobCheck& c : fit.checks) {
      std::cout << fmt::format("{:<18} {:>11.0f} {:>11.0f} {:>7.1f}% {:>8.3f}ms {:>8.3f}ms\n", c.job->name,
                               c.fio_iops, c.model_iops, 100 * c.difference(), c.fio_p50_ms, c.model_p50_ms);
    }
  };
  constexpr double kMaxMiss = 0.5;
  const auto worst = std::max_element(fit.checks.begin(), fit.checks.end(), [](const JobCheck& a, const JobCheck& b) {
    return std::abs(a.difference()) < std::abs(b.difference());
  });
  if (worst != fit.checks.end() && std::abs(worst->difference()) > kMaxMiss) {
    print_table();
    std::cerr << fmt::format("error: the fit misses {} by {:+.0f} % (more than {:.0f} %): no preset written, since no "
                             "{} drive the model knows gives these figures; check the fio run (its file, its "
                             "runtime, another load on the disk)\n",
                             worst->job->name, 100 * worst->difference(), 100 * kMaxMiss, shape_name(fit.shape));
    return 1;
  }
  nlohmann::ordered_json preset;
  preset["description"] = fmt::format("{}: {} fitted by `ckptsim calibrate` to {} ({})", args.name,
                                      shape_name(fit.shape), std::filesystem::path(args.fio_json).filename().string(),
                                      report.fio_version.empty() ? "fio" : report.fio_version);
  preset["device"] = scenarios::make_schemas().device.normalise(fit.device);
  try {
    analysis::AtomicFile file(out);
    file.out() << preset.dump(2) << '\n';
    file.commit();
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 1;
  }
  std::cout << fmt::format("{}: {} ({})\n", printable(out.string()), shape_name(fit.shape), printable(fit.reason));
  print_table();
  return 0;
}

Command add_calibrate(CLI::App& app) {
  auto calibrate = std::make_shared<CalibrateArgs>();
  auto* cmd = app.add_subcommand(
      "calibrate", "Fit a device preset to fio's JSON output of scripts/calibrate.fio and write it as a preset file");
  cmd->add_option("fio_json", calibrate->fio_json, "fio --output-format=json output")->required();
  cmd->add_option("--name", calibrate->name, "The preset's name (default: calibrated)");
  cmd->add_option("--out", calibrate->out, "The preset file to write (default: NAME.json; never overwritten)");
  return {cmd, [calibrate] { return command_calibrate(*calibrate); }};
}

}  // namespace ckptsim::cli
