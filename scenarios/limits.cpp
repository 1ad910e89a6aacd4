// scenarios/limits.cpp
#include "scenarios/limits.h"

#include "scenarios/settings.h"

#include <fmt/format.h>

#include "models/pgbench/tables.h"
#include "models/postgres/version.h"
#include "models/postgres/wal.h"
#include "scenarios/resolve.h"

namespace ckptsim::scenarios {

namespace {

// Where a data-device value came from: the scenario's "device" section, or the preset file.
std::string device_origin(const Layers& layers, const disk::DeviceConfig& device, const std::string& key) {
  if (layers.has("device", key)) return layers.origins("device").of(key);
  return PresetFiles::label("device", device.name) + ": /device/" + key;
}

// The WAL PostgreSQL keeps between checkpoints: max_wal_size from 9.5 (a soft
// limit, the usual peak), before (2 + checkpoint_completion_target) x
// checkpoint_segments + 1 segments (the 9.4 documentation's bound).
struct WalRoom {
  sim::Bytes bytes;
  std::string setting;  // the setting it follows from
};
WalRoom wal_room(const postgres::PostgresConfig& pg) {
  const postgres::Version version(pg.version);
  if (version.has_max_wal_size()) return {std::max(pg.max_wal_size, pg.min_wal_size), "max_wal_size"};
  const auto segments =
      static_cast<sim::Bytes>((2 + pg.checkpoint_completion_target) * static_cast<double>(pg.checkpoint_segments)) + 1;
  return {segments * postgres::kWalSegmentBytes, "checkpoint_segments"};
}

// A size for a message, to a tenth of its unit ("14.6GB"): the exact figure
// would be a count of kB no one reads.
std::string about(sim::Bytes bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes >= sim::kTiB) return fmt::format("{:.1f}TB", b / static_cast<double>(sim::kTiB));
  if (bytes >= sim::kGiB) return fmt::format("{:.1f}GB", b / static_cast<double>(sim::kGiB));
  return format_bytes(bytes);
}

}  // namespace

void check_device_figures(const Layers& layers, const Scenario& s, Errors& errors) {
  const disk::DeviceConfig& d = s.device;
  // Lee's seek curve (models/disk/seek_curve.h) runs through t1, ta and tf
  // in that order; out of order it has no shape an arm could have.
  if (d.hdd.seek_single > d.hdd.seek_full) {
    // Blame the figure the scenario wrote, not the preset's.
    if (layers.has("device", "seek_full") && !layers.has("device", "seek_single")) {
      errors.add(device_origin(layers, d, "seek_full"),
                 format_duration(d.hdd.seek_full) + " is below seek_single (" + format_duration(d.hdd.seek_single) +
                     ", " + device_origin(layers, d, "seek_single") +
                     "): a full stroke cannot take less time than a one-cylinder seek");
    } else {
      errors.add(device_origin(layers, d, "seek_single"),
                 format_duration(d.hdd.seek_single) + " is above seek_full (" + format_duration(d.hdd.seek_full) +
                     ", " + device_origin(layers, d, "seek_full") +
                     "): a one-cylinder seek cannot take longer than a full stroke");
    }
  } else if (d.hdd.seek_average < d.hdd.seek_single || d.hdd.seek_average > d.hdd.seek_full) {
    errors.add(device_origin(layers, d, "seek_average"),
               format_duration(d.hdd.seek_average) + " is out of range (seek_single " +
                   format_duration(d.hdd.seek_single) + " .. seek_full " + format_duration(d.hdd.seek_full) + ")");
  }
}

void check_database_fits(const Layers& layers, const Scenario& s, Errors& errors) {
  const sim::Bytes database = pgbench::PgbenchTables::database_blocks(s.pgbench.scale) * 8 * sim::kKiB;
  const WalRoom wal = wal_room(s.postgres);
  const bool wal_apart = !s.hardware.wal_device.empty();
  const sim::Bytes on_data = database + (wal_apart ? 0 : wal.bytes);
  const std::string wal_text = format_bytes(wal.bytes) + " of WAL (" + wal.setting + ")";
  if (on_data > s.device.capacity) {
    const std::string needs = "the database at scale " + std::to_string(s.pgbench.scale) + " (" + about(database) +
                              " of pgbench tables and indexes)" + (wal_apart ? "" : " and " + wal_text);
    const std::string wal_origin = layers.origins("postgres").of(wal.setting);
    if (database <= s.device.capacity && layers.has("postgres", wal.setting) && !wal_origin.starts_with("presets/")) {
      // The tables fit; the WAL the user asked for is what does not (a pasted max_wal_size = 1TB).
      errors.add(wal_origin,
                 wal_text + " does not fit beside the database at scale " + std::to_string(s.pgbench.scale) + " (" +
                     about(database) + ") on the data device " + s.device.name + " (capacity " +
                     format_bytes(s.device.capacity) + ")");
    } else if (layers.has("device", "capacity")) {
      errors.add(
          device_origin(layers, s.device, "capacity"),
          format_bytes(s.device.capacity) + " cannot hold " + needs + "; at least " + about(on_data) + " is needed");
    } else {
      errors.add(layers.origins("pgbench").of("scale"), std::to_string(s.pgbench.scale) + " needs " + about(on_data) +
                                                            " for " + needs + ", more than the data device " +
                                                            s.device.name + " holds (capacity " +
                                                            format_bytes(s.device.capacity) + ")");
    }
  }
  if (wal_apart && wal.bytes > s.wal_device.capacity) {
    errors.add(layers.origins("postgres").of(wal.setting), wal_text + " does not fit on the WAL device " +
                                                               s.wal_device.name + " (capacity " +
                                                               format_bytes(s.wal_device.capacity) + ")");
  }
}

void check_os_limits(const Layers& layers, const Scenario& s, Errors& errors) {
  // queue_requests_store (block/blk-sysfs.c) raises a value below
  // BLKDEV_MIN_RQ to it; 0 here would silently mean the kernel's default instead.
  constexpr std::int64_t kBlkdevMinRq = 4;
  if (layers.has("os", "nr_requests") && s.os.nr_requests < kBlkdevMinRq) {
    errors.add(layers.origins("os").of("nr_requests"),
               std::to_string(s.os.nr_requests) +
                   " is below BLKDEV_MIN_RQ (the kernel would raise it to 4): give 4..100000, or leave "
                   "nr_requests out for the kernel's default (legacy 128; blk-mq 2 x min(queue_depth, 128))");
  }
  // dirty_bytes_handler's table entry has extra1 = &dirty_bytes_min, two
  // pages (mm/page-writeback.c, kernel/sysctl.c before 5.19): a smaller
  // write fails with EINVAL. 0 is what /proc reads while vm.dirty_ratio rules.
  constexpr sim::Bytes kDirtyBytesMin = 2 * 4096;
  if (s.os.dirty_bytes > 0 && s.os.dirty_bytes < kDirtyBytesMin) {
    errors.add(layers.origins("os").of("vm.dirty_bytes"),
               std::to_string(s.os.dirty_bytes) +
                   " is below the kernel's minimum, two pages (8192 bytes, dirty_bytes_min): give 0 (vm.dirty_ratio "
                   "applies) or at least 8kB");
  }
  // The WAL's own throttle needs the WAL's own device: on the data device the data's limit is the WAL's too.
  if (s.os.wal_blkio_throttle.enabled() && s.hardware.wal_device.empty()) {
    for (const std::string& key : part_keys(describe_blkio_throttle, kWalBlkioThrottlePrefix)) {
      if (!layers.has("os", key)) continue;
      errors.add(layers.origins("os").of(key),
                 "the WAL has no device of its own (hardware.wal_device is not set): the data device's "
                 "os.blkio_throttle limits the WAL's I/O as well");
      break;
    }
  }
}

}  // namespace ckptsim::scenarios
