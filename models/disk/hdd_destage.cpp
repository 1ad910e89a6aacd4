// models/disk/hdd_destage.cpp
#include "models/disk/hdd_destage.h"

#include <algorithm>
#include <limits>

#include "models/disk/device.h"

namespace ckptsim::disk {

HddDestage::HddDestage(const DeviceConfig& config, const HddWriteCache& cache, const HddHead& head)
    : config_(config), cache_(cache), head_(head) {
  scratch_.reserve(cache_.extents().size());
}

HddDestage::Pick HddDestage::next(sim::Time ready) {
  const auto& extents = cache_.extents();
  const std::uint64_t limit = window_limit();
  Pick best;
  std::int64_t best_key = 0;
  for (int i = 0; i < static_cast<int>(extents.size()); ++i) {
    const auto& e = extents[static_cast<std::size_t>(i)];
    if (!e.used || e.destaging || e.born > limit) continue;
    std::int64_t key = 0;
    switch (config_.hdd.destage_order) {
      case DestageOrder::Positioning: key = head_.positioning_time(e.sector, true, ready); break;
      case DestageOrder::Lba:  // C-LOOK: LBAs behind the head come after the end of the disk
        key = e.sector >= head_.sector() ? e.sector : e.sector + config_.capacity / kSectorBytes;
        break;
      case DestageOrder::Fifo: key = static_cast<std::int64_t>(e.born); break;
    }
    if (best.extent < 0 || key < best_key) {
      best = Pick{i, 0};
      best_key = key;
    }
  }
  if (best.extent >= 0) {
    best.positioning = config_.hdd.destage_order == DestageOrder::Positioning
                           ? best_key
                           : head_.positioning_time(extents[static_cast<std::size_t>(best.extent)].sector, true, ready);
  }
  return best;
}

std::uint64_t HddDestage::window_limit() {
  const auto window = static_cast<std::size_t>(config_.hdd.destage_window);
  if (window == 0 || window >= static_cast<std::size_t>(cache_.idle_extents())) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  scratch_.clear();
  for (const auto& e : cache_.extents()) {
    if (e.used && !e.destaging) scratch_.push_back(e.born);
  }
  const auto nth = scratch_.begin() + static_cast<std::ptrdiff_t>(window - 1);
  std::nth_element(scratch_.begin(), nth, scratch_.end());
  return *nth;
}

}  // namespace ckptsim::disk
