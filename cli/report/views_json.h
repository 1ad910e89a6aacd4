// cli/report/views_json.h
//
// The models' end-of-run figures as summary.json holds them: PostgreSQL's
// statistics views in the shape of the scenario's version, the measured
// run's checkpoints, and the kernel's and devices' totals. The models give
// plain figures; their JSON lives here, in the layer that writes outputs.
#pragma once

#include <nlohmann/json.hpp>

#include "models/os/kernel_report.h"
#include "models/postgres/server.h"

namespace ckptsim::cli {

// {"pg_stat_bgwriter"} (<= 15), {"pg_stat_bgwriter", "pg_stat_io"} (16) or
// {"pg_stat_checkpointer", "pg_stat_bgwriter", "pg_stat_io"} (17; pg_stat_io an array of rows
// per backend type), then "pg_stat_wal", "pg_stat_database", "checkpoints".
// Times (checkpoints' start_s) count from `origin`, the measured run's start, as the CSVs do.
nlohmann::ordered_json server_views_json(const postgres::Server& server, sim::Time origin);
// {"os": {...}, "devices": {"data": {...}[, "wal": {...}]}}.
nlohmann::ordered_json kernel_json(const os::KernelReport& report);

}  // namespace ckptsim::cli
