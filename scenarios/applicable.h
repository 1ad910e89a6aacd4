// scenarios/applicable.h
//
// The settings `ckptsim check` shows: the resolved ones (Scenario::resolved)
// less those the scenario's models never read, with enum GUCs spelled as
// PostgreSQL spells them. A user reads `check` to see what the run will use,
// so an HDD shows no flash keys and 9.6 no checkpoint_segments.
//
// Left out: a device's keys by its preset (all HDDs show every HDD key), the
// kernel-dependent os keys. run.json and summary.json keep every resolved key.
#pragma once

#include "scenarios/scenario.h"

namespace ckptsim::scenarios {

// The device keys of the parts it has, from each part's rows
// (settings_device.cpp): no HDD mechanics and cache on an SSD, no flash
// geometry on an HDD, no controller keys but controller_cache when there is
// none, no volume_* keys without a volume.
json applicable_device_settings(const json& device, const disk::DeviceConfig& config);

// The postgres keys the release has, as the rows give each one's releases
// (settings_postgres.cpp): checkpoint_segments until 9.4, max_wal_size and
// min_wal_size from 9.5, the *_flush_after from 9.6, track_wal_io_timing from
// 14, ...; synchronous_commit as on or off, PostgreSQL's enum words.
json applicable_postgres_settings(const json& postgres, const postgres::PostgresConfig& config);

// The keys of rows marked resolved_drops (data_checksums from 9.3,
// wal_log_hints from 9.4, io_method and io_workers from 18: modelled after the
// others), erased for a release without them: the resolved settings (run.json,
// summary.json) keep only the ones the release has.
void erase_settings_release_lacks(json& postgres, const postgres::PostgresConfig& config);

json applicable_settings(const Scenario& s);

}  // namespace ckptsim::scenarios
