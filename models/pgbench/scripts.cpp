#include "models/pgbench/scripts.h"

#include <array>

namespace ckptsim::pgbench {

namespace {
using enum Statement;
constexpr std::array kTpcbLike{Begin, UpdateAccounts, SelectAccounts, UpdateTellers, UpdateBranches, InsertHistory,
                               End};
constexpr std::array kSimpleUpdate{Begin, UpdateAccounts, SelectAccounts, InsertHistory, End};
constexpr std::array kSelectOnly{SelectAccounts};
}  // namespace

std::span<const Statement> script_statements(Builtin builtin) {
  switch (builtin) {
    case Builtin::SelectOnly: return kSelectOnly;
    case Builtin::SimpleUpdate: return kSimpleUpdate;
    case Builtin::TpcbLike: break;
  }
  return kTpcbLike;
}

std::string script_title(Builtin builtin) {
  switch (builtin) {
    case Builtin::SelectOnly: return "<builtin: select only>";
    case Builtin::SimpleUpdate: return "<builtin: simple update>";
    case Builtin::TpcbLike: break;
  }
  return "<builtin: TPC-B (sort of)>";
}

bool script_writes(Builtin builtin) { return builtin != Builtin::SelectOnly; }

}  // namespace ckptsim::pgbench
