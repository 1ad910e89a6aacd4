// models/pgbench/scripts.h
//
// pgbench's built-in scripts (-b), as the sequence of round trips each
// transaction makes. The SQL has been the same since 8.x:
//   tpcb-like      BEGIN; UPDATE accounts; SELECT accounts; UPDATE tellers;
//                  UPDATE branches; INSERT history; END
//   simple-update  (-N) the same without the tellers and branches updates
//   select-only    (-S) SELECT accounts alone, in autocommit (read-only: no
//                  commit record, no WAL flush)
// Variables: aid in [1, 100000 s], bid in [1, s], tid in [1, 10 s], drawn
// independently and uniformly (the teller need not belong to the branch).
#pragma once

#include <span>
#include <string>

#include "models/pgbench/pgbench_config.h"

namespace ckptsim::pgbench {

enum class Statement { Begin, UpdateAccounts, SelectAccounts, UpdateTellers, UpdateBranches, InsertHistory, End };

std::span<const Statement> script_statements(Builtin builtin);
// As pgbench's summary names it: "<builtin: TPC-B (sort of)>".
std::string script_title(Builtin builtin);
bool script_writes(Builtin builtin);

}  // namespace ckptsim::pgbench
