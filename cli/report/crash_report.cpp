#include "cli/report/crash_report.h"

#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "cli/folder/run_files.h"
#include "models/disk/read_cost.h"
#include "models/postgres/crash.h"
#include "models/postgres/log_format.h"

namespace ckptsim::cli {

using json = nlohmann::ordered_json;

void write_crash_report(const std::filesystem::path& dir, const scenarios::Scenario& sc, const Machine& m,
                        double crash_at_s) {
  const postgres::CrashState c = m.server.crash_state();
  const double read_s = disk::random_read_seconds(sc.device, os::kBlockBytes);
  const postgres::RecoveryEstimate r =
      postgres::estimate_recovery(c, disk::sequential_read_bytes_per_second(sc.wal_device), read_s);

  json report;
  report["crash_at_s"] = crash_at_s;
  report["unsynced_data_pages"] = c.unsynced_data_blocks;
  report["unflushed_wal_bytes"] = c.insert_lsn - c.durable_lsn;
  report["lost_committed_transactions"] = c.lost_committed_transactions;
  report["redo_distance_bytes"] = c.redo_bytes();
  // null when pg_control's checkpoint record did not survive: recovery cannot start at all.
  report["recovery_time_estimate_s"] = c.checkpoint_record_durable() ? json(r.total_s()) : json(nullptr);
  report["recovery_possible"] = c.checkpoint_record_durable();
  report["acknowledged_commits"] = c.acknowledged_commits;
  report["dirty_shared_buffers"] = c.dirty_shared_buffers;
  report["wal"] = {
      {"insert_lsn", postgres::format_lsn(c.insert_lsn)},       {"write_lsn", postgres::format_lsn(c.write_lsn)},
      {"flush_lsn", postgres::format_lsn(c.flush_lsn)},         {"durable_lsn", postgres::format_lsn(c.durable_lsn)},
      {"written_not_flushed_bytes", c.write_lsn - c.flush_lsn}, {"in_wal_buffers_bytes", c.insert_lsn - c.write_lsn}};
  report["checkpoint"] = {{"redo_lsn", postgres::format_lsn(c.redo_lsn)},
                          {"record_end_lsn", postgres::format_lsn(c.checkpoint_record_end)},
                          {"record_durable", c.checkpoint_record_durable()},
                          {"in_progress_phase", sim::enum_name(postgres::kCheckpointPhaseNames, c.phase)}};
  report["recovery"] = {
      {"records", c.redo.records},      {"full_page_writes", c.full_page_writes},
      {"page_reads", r.page_reads},     {"wal_read_s", r.wal_read_s},
      {"replay_cpu_s", r.replay_cpu_s}, {"page_reads_s", r.page_reads_s},
      {"random_read_ms", read_s * 1e3}, {"replay_cpu_us_per_record", postgres::kReplayCpuPerRecordS * 1e6}};
  analysis::write_file_atomically(dir / run_files::kCrashJson, report.dump(2) + "\n");
}

}  // namespace ckptsim::cli
