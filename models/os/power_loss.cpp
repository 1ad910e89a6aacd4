// models/os/power_loss.cpp
//
// What a power loss would take away now, block by block. Modelled: page
// cache contents (RAM), writes in flight (PG_writeback: a write that has not
// completed may be torn or missing), and device volatile write caches (a
// drive with WCE on that acknowledged a write still in its cache; with
// nobarrier, fsync did not make it flush). Left out: ext4 metadata (the
// journal is assumed to replay cleanly: file sizes and allocation survive).
#include <algorithm>

#include "models/os/kernel.h"

namespace ckptsim::os {

namespace {
// What a power loss takes from the device: the ranges its volatile cache
// holds, as the file's block ranges [first, last), sorted.
std::vector<std::pair<std::int64_t, std::int64_t>> volatile_blocks(const disk::Device& device, const Inode& ino) {
  std::vector<disk::SectorRange> ranges;
  device.volatile_ranges(ranges);
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  const std::int64_t file_end = ino.sector_of(ino.max_blocks);
  for (const disk::SectorRange& r : ranges) {
    const std::int64_t lo = std::max(r.sector, ino.first_sector), hi = std::min(r.sector + r.sectors, file_end);
    if (lo >= hi) continue;
    blocks.emplace_back((lo - ino.first_sector) / kSectorsPerBlock,
                        (hi - ino.first_sector + kSectorsPerBlock - 1) / kSectorsPerBlock);
  }
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}
}  // namespace

// The parts' losses together: the device's volatile cache and the page cache's RAM.
std::vector<std::int64_t> Kernel::unstable_blocks(FileId file, std::int64_t from, std::int64_t to) const {
  const Inode& ino = cache_.inode(file);
  to = std::min(to, ino.max_blocks);
  const auto volatile_ranges = volatile_blocks(devices_.of(ino).queue().device(), ino);
  std::vector<std::int64_t> unstable;
  auto next_range = volatile_ranges.begin();
  for (std::int64_t b = std::max<std::int64_t>(from, 0); b < to; ++b) {
    while (next_range != volatile_ranges.end() && next_range->second <= b) ++next_range;
    bool in_volatile = false;
    for (auto r = next_range; r != volatile_ranges.end() && r->first <= b; ++r) in_volatile |= b < r->second;
    if (in_volatile || ino.lost_with_ram(b)) unstable.push_back(b);
  }
  return unstable;
}

bool Kernel::fsync_is_durable(FileId file) const {
  const disk::Device& device = devices_.of(cache_.inode(file)).queue().device();
  return config_.barrier || !device.info().volatile_cache;
}

}  // namespace ckptsim::os
