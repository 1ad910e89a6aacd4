// scenarios/chain.cpp
//
// Reading a grid's "chain" and "order", and which settings may vary along a
// chain (see chain.h).
#include "scenarios/chain.h"

#include <algorithm>

#include "scenarios/settings.h"

namespace ckptsim::scenarios {

namespace {

std::string joined_quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "\"" : ", \"") + name + "\"";
  return out;
}

}  // namespace

bool is_chain_key(const std::string& key) { return key == "chain" || key == "order"; }

ChainSpec read_chain(const json& grid, Errors& errors) {
  ChainSpec spec;
  if (!grid.is_object()) return spec;
  if (grid.contains("chain")) {
    const json& chain = grid.at("chain");
    if (chain.is_boolean()) {
      spec.chained = chain.get<bool>();
    } else {
      errors.add("/grid/chain",
                 shown(chain) + " is not a boolean (true runs the points one after another on one host)");
    }
  }
  if (grid.contains("order")) {
    const json& order = grid.at("order");
    if (!order.is_array()) {
      errors.add("/grid/order", shown(order) + " is not a list of point names or 0-based point indices");
    } else if (!spec.chained) {
      errors.add("/grid/order", "an order is for a chained grid only; add \"chain\": true");
    } else {
      spec.order = order;
    }
  }
  return spec;
}

std::string chain_refusal(const std::string& section, const std::string& key) {
  if (section == "postgres") {
    // A reload applies what the row's context allows (Server::reload).
    const SettingFacts* facts = postgres_rows().facts(key);
    if (facts != nullptr && facts->reloadable()) return "";
    if (facts != nullptr && !facts->start_only.empty()) return facts->start_only;
    const std::string context = facts != nullptr && facts->context != Context::Unset
                                    ? std::string(" (context ") + context_name(facts->context) + ")"
                                    : "";
    return "a change of " + key + context + " needs a server restart, which would not carry the state over";
  }
  if (section == "pgbench") {
    if (key == "scale") return "a change of scale needs pgbench -i, which would not carry the state over";
    return "";
  }
  if (section == "warmup") return "a chain has one warmup, before its first point";
  if (section == "init") return "the start state is made once, before the chain's first point";
  return "a change of " + section + " settings needs another host or a reboot, which would not carry the state over";
}

std::vector<std::size_t> chain_order(const ChainSpec& spec, const std::vector<std::string>& names, Errors& errors) {
  std::vector<std::size_t> order;
  if (spec.order.is_null()) {
    for (std::size_t i = 0; i < names.size(); ++i) order.push_back(i);
    return order;
  }
  const std::string allowed =
      " (the points: " + joined_quoted(names) + ", or their indices 0.." + std::to_string(names.size() - 1) + ")";
  std::vector<std::string> where_of(names.size());
  bool ok = true;
  for (std::size_t i = 0; i < spec.order.size(); ++i) {
    const std::string where = "/grid/order/" + std::to_string(i);
    const json& item = spec.order[i];
    std::size_t at = names.size();
    if (item.is_string()) {
      at = static_cast<std::size_t>(std::find(names.begin(), names.end(), item.get<std::string>()) - names.begin());
    } else if (item.is_number_integer() && item.get<std::int64_t>() >= 0 &&
               static_cast<std::uint64_t>(item.get<std::int64_t>()) < names.size()) {
      at = static_cast<std::size_t>(item.get<std::int64_t>());
    }
    if (at == names.size()) {
      errors.add(where, shown(item) + " is not a point of the grid" + allowed);
      ok = false;
    } else if (!where_of[at].empty()) {
      errors.add(where, shown(item) + " names point \"" + names[at] + "\" again (first at " + where_of[at] + ")");
      ok = false;
    } else {
      where_of[at] = where;
      order.push_back(at);
    }
  }
  if (!ok) return {};
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (where_of[i].empty()) missing.push_back(names[i]);
  }
  if (!missing.empty()) {
    errors.add("/grid/order", "leaves out " + joined_quoted(missing) + "; a chain runs every point once" + allowed);
    return {};
  }
  return order;
}

}  // namespace ckptsim::scenarios
