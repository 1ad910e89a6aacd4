#include "cli/run/crash_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "cli/run/run_files.h"
#include "models/postgres/log_format.h"

namespace ckptsim::cli {

namespace {

using json = nlohmann::ordered_json;

constexpr auto kPageBytes = static_cast<double>(os::kBlockBytes);
// An assumption, not a measurement: the startup process's CPU per pgbench
// record when its page is in shared buffers (redo of a heap update or insert,
// an index insert, a commit: a few microseconds each on current hardware).
constexpr double kReplayCpuPerRecordS = 5e-6;

const char* phase_name(postgres::CheckpointPhase phase) {
  switch (phase) {
    case postgres::CheckpointPhase::Write: return "write";
    case postgres::CheckpointPhase::Sync: return "sync";
    case postgres::CheckpointPhase::Idle: break;
  }
  return "idle";
}

}  // namespace

double random_read_seconds(const disk::DeviceConfig& d) {
  double s = 0;
  if (d.kind == disk::Kind::Hdd) {
    const double half_turn = 30.0 / static_cast<double>(d.hdd.rpm);
    const double media = static_cast<double>(d.hdd.media_rate_outer + d.hdd.media_rate_inner) / 2;
    s = sim::to_seconds(d.hdd.command_overhead + d.hdd.seek_average) + half_turn + kPageBytes / media;
  } else {
    s = sim::to_seconds(d.ssd.host_overhead + d.ssd.ftl_overhead + d.ssd.read_time) +
        kPageBytes / static_cast<double>(d.ssd.channel_rate);
  }
  if (d.controller.cache > 0) s += sim::to_seconds(d.controller.overhead);
  return s;
}

double sequential_read_bytes_per_second(const disk::DeviceConfig& d) {
  const double link = static_cast<double>(d.link_rate);
  if (d.kind == disk::Kind::Hdd)
    return std::min(link, static_cast<double>(d.hdd.media_rate_outer + d.hdd.media_rate_inner) / 2);
  return std::min(link, static_cast<double>(d.ssd.channels * d.ssd.channel_rate));
}

void write_crash_report(const std::filesystem::path& dir, const scenarios::Scenario& sc, const Machine& m,
                        double crash_at_s) {
  const postgres::CrashState c = m.server.crash_state();
  const double redo_bytes = static_cast<double>(c.redo_bytes());
  const std::int64_t reads = c.full_page_writes ? 0 : c.redo.first_changes;
  const double wal_read_s = redo_bytes / sequential_read_bytes_per_second(sc.wal_device);
  const double replay_cpu_s = static_cast<double>(c.redo.records) * kReplayCpuPerRecordS;
  const double read_s = random_read_seconds(sc.device);
  const double page_reads_s = static_cast<double>(reads) * read_s;

  json report;
  report["crash_at_s"] = crash_at_s;
  report["unsynced_data_pages"] = c.unsynced_data_blocks;
  report["unflushed_wal_bytes"] = c.insert_lsn - c.durable_lsn;
  report["lost_committed_transactions"] = c.lost_committed_transactions;
  report["redo_distance_bytes"] = c.redo_bytes();
  // null when pg_control's checkpoint record did not survive: recovery cannot start at all.
  report["recovery_time_estimate_s"] =
      c.checkpoint_record_durable() ? json(wal_read_s + replay_cpu_s + page_reads_s) : json(nullptr);
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
                          {"in_progress_phase", phase_name(c.phase)}};
  report["recovery"] = {{"records", c.redo.records},
                        {"full_page_writes", c.full_page_writes},
                        {"page_reads", reads},
                        {"wal_read_s", wal_read_s},
                        {"replay_cpu_s", replay_cpu_s},
                        {"page_reads_s", page_reads_s},
                        {"random_read_ms", read_s * 1e3},
                        {"replay_cpu_us_per_record", kReplayCpuPerRecordS * 1e6}};
  analysis::write_file_atomically(dir / run_files::kCrashJson, report.dump(2) + "\n");
}

}  // namespace ckptsim::cli
