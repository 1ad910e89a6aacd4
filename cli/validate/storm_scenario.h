// cli/validate/storm_scenario.h
//
// The ckptsim scenario of a storm recording, built from its recording.json
// and nothing else: the throttle it set (os.blkio_throttle), the server's
// settings as given to pg_ctl (postgres.conf), the measured pgbench command
// and the select-only warmup before it (pgbench.command, warmup.command),
// the machine's cpus, RAM, vm.dirty_* sysctls and the loop device's queue
// (scheduler, nr_requests, max_sectors_kb, read_ahead_kb). The disk under
// the loop device is one shipped preset, kStormBackingDevice, measured once
// on the machine the recordings were made on; CPU costs are the shipped
// ones. Nothing is fitted to the recording.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

// scenarios/presets/device/virtio-this-machine.json
inline constexpr char kStormBackingDevice[] = "virtio-this-machine";

// Throws RecordingError (storm_run.h) naming the key recording.json lacks.
nlohmann::ordered_json storm_scenario(const nlohmann::ordered_json& recording, const std::string& name);

}  // namespace ckptsim::cli
