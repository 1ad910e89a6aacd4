#include "cli/report/run_profile.h"

#include <chrono>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace ckptsim::cli {

namespace {

enum Component { kEngine, kPgbench, kPostgres, kKernel, kBlockLayer, kDevice };

bool starts_with_any(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (name.substr(0, p.size()) == p) return true;
  return false;
}

int classify(std::string_view type_name) {
  if (type_name.starts_with("ckptsim::pgbench::")) return kPgbench;
  if (type_name.starts_with("ckptsim::postgres::")) return kPostgres;
  if (type_name.starts_with("ckptsim::disk::")) return kDevice;
  if (type_name.starts_with("ckptsim::os::")) {
    const std::string_view cls = type_name.substr(std::string_view("ckptsim::os::").size());
    return starts_with_any(cls, {"Block", "Bio", "Elevator", "Request", "MdRaid", "Plug", "FlushSequence"})
               ? kBlockLayer
               : kKernel;
  }
  return kEngine;
}

struct Share {
  std::string_view name;
  std::uint64_t events;
  double wall_s;
};

// Per component, with the engine's time as what the events' time leaves of the run's.
std::vector<Share> shares(const sim::Profile& profile, double wall_seconds) {
  std::vector<Share> out;
  double charged = 0;
  for (const auto& c : profile.components()) {
    out.push_back({c.name, c.events, std::chrono::duration<double>(c.wall).count()});
    charged += out.back().wall_s;
  }
  if (!out.empty() && wall_seconds > charged) out[kEngine].wall_s += wall_seconds - charged;
  return out;
}

}  // namespace

sim::Profile make_run_profile() {
  return sim::Profile({"engine", "pgbench", "postgres", "kernel", "block layer", "device"}, classify);
}

nlohmann::ordered_json profile_json(const sim::Profile& profile, double wall_seconds) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const Share& s : shares(profile, wall_seconds))
    out[std::string(s.name)] = {{"events", s.events},
                                {"wall_seconds", s.wall_s},
                                {"wall_share", wall_seconds > 0 ? s.wall_s / wall_seconds : 0.0}};
  return out;
}

std::string profile_table(const sim::Profile& profile, double wall_seconds) {
  std::string out = fmt::format("{:<12} {:>12} {:>10} {:>7}\n", "component", "events", "wall s", "share");
  for (const Share& s : shares(profile, wall_seconds))
    out += fmt::format("{:<12} {:>12} {:>10.2f} {:>6.1f}%\n", s.name, s.events, s.wall_s,
                       wall_seconds > 0 ? 100 * s.wall_s / wall_seconds : 0.0);
  return out;
}

}  // namespace ckptsim::cli
