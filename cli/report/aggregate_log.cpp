#include "cli/report/aggregate_log.h"

#include "cli/folder/run_files.h"
#include "models/pgbench/report.h"

namespace ckptsim::cli {

AggregateLog::AggregateLog(sim::Simulator& sim, const std::filesystem::path& dir, int pgbench_pid, int version_num,
                           pgbench::TransactionStats& stats, const pgbench::PgbenchConfig& config, sim::Time origin)
    : sim_(sim),
      version_num_(version_num),
      stats_(stats),
      config_(config),
      interval_start_(origin),
      timer_(sim, [this] { close_interval(); }) {
  for (std::size_t t = 0; t < stats.threads(); ++t) {
    files_.push_back(std::make_unique<analysis::AtomicFile>(dir / run_files::aggregate_log_name(pgbench_pid, t)));
  }
  timer_.schedule_at(origin + config.aggregate_interval);
}

void AggregateLog::close_interval() {
  const std::int64_t start = sim::kEpochUnixSeconds + interval_start_ / sim::kSecond;
  for (std::size_t t = 0; t < files_.size(); ++t) {
    files_[t]->out() << pgbench::aggregate_line(version_num_, start, stats_.take_aggregate(t), config_) << '\n';
  }
  interval_start_ = sim_.now();
  timer_.schedule_in(config_.aggregate_interval);
}

void AggregateLog::commit() {
  for (auto& file : files_) file->commit();
}

}  // namespace ckptsim::cli
