#include "cli/run/warmup_group.h"

#include <map>

namespace ckptsim::cli {

namespace {

// What a point's host and warmup depend on (warmup_group.h).
std::string host_key(const scenarios::GridPoint& point) {
  scenarios::json key = point.host().resolved;
  const scenarios::json load = key.at("pgbench");
  key["pgbench"] = {{"scale", load.at("scale")}, {"progress", load.at("progress")}};
  return key.dump();
}

}  // namespace

std::vector<WarmupGroup> warmup_groups(const scenarios::Plan& plan) {
  std::vector<WarmupGroup> groups;
  std::map<std::string, std::size_t> by_key;
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    const auto [at, fresh] = by_key.emplace(plan.chained ? std::to_string(i) : host_key(plan.points[i]), groups.size());
    if (fresh) groups.emplace_back();
    groups[at->second].points.push_back(i);
  }
  return groups;
}

std::vector<std::string> warmup_shared_with(const scenarios::Plan& plan) {
  std::vector<std::string> first(plan.points.size());
  for (const WarmupGroup& group : warmup_groups(plan)) {
    if (group.points.size() < 2) continue;
    for (const std::size_t i : group.points) first[i] = plan.points[group.points.front()].name;
  }
  return first;
}

}  // namespace ckptsim::cli
