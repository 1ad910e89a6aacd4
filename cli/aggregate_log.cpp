#include "cli/aggregate_log.h"

#include "models/pgbench/report.h"

namespace ckptsim::cli {

AggregateLog::AggregateLog(sim::Simulator& sim, const std::filesystem::path& path, pgbench::TransactionStats& stats,
                           sim::Time origin, sim::Duration interval)
    : sim_(sim), file_(path), stats_(stats), interval_(interval), interval_start_(origin),
      timer_(sim, [this] { close_interval(); }) {
  timer_.schedule_at(origin + interval);
}

void AggregateLog::close_interval() {
  file_.out() << pgbench::aggregate_line(sim::kEpochUnixSeconds + interval_start_ / sim::kSecond,
                                         stats_.take_aggregate())
              << '\n';
  interval_start_ = sim_.now();
  timer_.schedule_in(interval_);
}

}  // namespace ckptsim::cli
