#include "models/pgbench/scripts.h"

#include <array>

namespace ckptsim::pgbench {

namespace {
using enum Statement;
constexpr std::array kTpcbLike{Begin, UpdateAccounts, SelectAccounts, UpdateTellers, UpdateBranches, InsertHistory, End};
constexpr std::array kSimpleUpdate{Begin, UpdateAccounts, SelectAccounts, InsertHistory, End};
constexpr std::array kSelectOnly{SelectAccounts};
}  // namespace

std::span<const Statement> script_statements(std::string_view builtin) {
  if (builtin == "select-only") return kSelectOnly;
  if (builtin == "simple-update") return kSimpleUpdate;
  return kTpcbLike;
}

std::string script_title(std::string_view builtin) {
  if (builtin == "select-only") return "<builtin: select only>";
  if (builtin == "simple-update") return "<builtin: simple update>";
  return "<builtin: TPC-B (sort of)>";
}

bool script_writes(std::string_view builtin) { return builtin != "select-only"; }

}  // namespace ckptsim::pgbench
