#include "cli/host/memory_estimate.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "models/os/file_system.h"
#include "models/pgbench/tables.h"

namespace ckptsim::cli {

namespace {

constexpr double kMB = 1024.0 * 1024.0;
constexpr double kFixedMb = 24;
constexpr double kBytesPerBuffer = 96;
// 37 measured before hint bits, plus pgbench's bit per accounts row (61 rows
// to an accounts page, most of the database's pages): about 7 more.
constexpr double kBytesPerTableBlock = 44;

}  // namespace

MemoryEstimate estimate_memory(const scenarios::Scenario& sc) {
  MemoryEstimate e;
  e.fixed_mb = kFixedMb;
  e.shared_buffers_mb = kBytesPerBuffer * static_cast<double>(sc.postgres.shared_buffers / os::kBlockBytes) / kMB;
  e.tables_mb =
      kBytesPerTableBlock * static_cast<double>(pgbench::PgbenchTables::database_blocks(sc.pgbench.scale)) / kMB;
  return e;
}

double host_available_mb() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string name;
    double kb = 0;
    if (fields >> name >> kb && name == "MemAvailable:") return kb / 1024.0;
  }
  return static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / kMB;
}

std::optional<std::string> memory_refusal(const scenarios::Plan& plan, int jobs, double available_mb) {
  std::vector<MemoryEstimate> estimates;
  for (const auto& point : plan.points) estimates.push_back(estimate_memory(point.scenario));
  std::sort(estimates.begin(), estimates.end(),
            [](const MemoryEstimate& a, const MemoryEstimate& b) { return a.total_mb() > b.total_mb(); });
  const std::size_t at_once = std::min<std::size_t>(estimates.size(), static_cast<std::size_t>(std::max(jobs, 1)));
  double need = 0;
  for (std::size_t i = 0; i < at_once; ++i) need += estimates[i].total_mb();
  if (need <= available_mb) return std::nullopt;
  const MemoryEstimate& largest = estimates.front();
  return fmt::format(
      "this run needs about {:.0f} MB of memory, more than the {:.0f} MB available on this machine: {} at once, "
      "the largest {:.0f} MB ({:.0f} MB for shared_buffers, {:.0f} MB for the pgbench tables at their scale, "
      "{:.0f} MB fixed){}",
      need, available_mb, at_once == 1 ? std::string("1 point") : fmt::format("{} points", at_once), largest.total_mb(),
      largest.shared_buffers_mb, largest.tables_mb, largest.fixed_mb,
      at_once > 1 ? "; a smaller --jobs runs fewer at once" : "");
}

}  // namespace ckptsim::cli
