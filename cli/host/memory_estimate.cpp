#include "cli/host/memory_estimate.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <optional>
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

namespace {

// A "Name: value kB" line of a /proc file, in MB; nullopt when absent.
std::optional<double> proc_kb_mb(const char* file, const std::string& field) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    double kb = 0;
    if (fields >> name >> kb && name == field) return kb / 1024.0;
  }
  return std::nullopt;
}

// A number of bytes in a cgroup file ("max" or missing: no limit), in MB.
std::optional<double> cgroup_mb(const char* file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  try {
    const double bytes = std::stod(text);
    return bytes >= 9e18 ? std::nullopt : std::optional<double>(bytes / kMB);  // v1's "no limit" is near 2^63
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

double host_available_mb() {
  double mb = proc_kb_mb("/proc/meminfo", "MemAvailable:")
                  .value_or(static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                            static_cast<double>(::sysconf(_SC_PAGESIZE)) / kMB);
  // ulimit -v (RLIMIT_AS): the address space left to this process, which a
  // run's allocations come out of before MemAvailable is reached.
  struct rlimit as {};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const double used = proc_kb_mb("/proc/self/status", "VmSize:").value_or(0);
    mb = std::min(mb, std::max(0.0, static_cast<double>(as.rlim_cur) / kMB - used));
  }
  // The cgroup's memory limit less what the group already uses (v2, then v1).
  if (const auto max = cgroup_mb("/sys/fs/cgroup/memory.max")) {
    mb = std::min(mb, std::max(0.0, *max - cgroup_mb("/sys/fs/cgroup/memory.current").value_or(0)));
  } else if (const auto limit = cgroup_mb("/sys/fs/cgroup/memory/memory.limit_in_bytes")) {
    mb = std::min(mb, std::max(0.0, *limit - cgroup_mb("/sys/fs/cgroup/memory/memory.usage_in_bytes").value_or(0)));
  }
  return mb;
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
      "this run needs about {:.0f} MB of memory, more than the {:.0f} MB available to it (MemAvailable, ulimit -v "
      "and the cgroup's memory limit, whichever leaves least): {} at once, "
      "the largest {:.0f} MB ({:.0f} MB for shared_buffers, {:.0f} MB for the pgbench tables at their scale, "
      "{:.0f} MB fixed){}",
      need, available_mb, at_once == 1 ? std::string("1 point") : fmt::format("{} points", at_once), largest.total_mb(),
      largest.shared_buffers_mb, largest.tables_mb, largest.fixed_mb,
      at_once > 1 ? "; a smaller --jobs runs fewer at once" : "");
}

}  // namespace ckptsim::cli
