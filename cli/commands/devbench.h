// cli/commands/devbench.h
//
// `ckptsim devbench [PRESET] [--set device.KEY=VALUE] [--preset-file PATH]
// [--json]`: fio-like jobs (8 kB, random and sequential, read and write,
// queue depth 1 and 32) against a device through the block layer of the
// default kernel, with O_DIRECT semantics (no page cache), so that a device
// can be compared with one's own fio figures. The device is described as a
// scenario describes it: the preset, then the user's preset files, then the
// --set values, through the same loader as `run`, so any device a scenario
// can run on can be measured.
#pragma once

#include <string>
#include <vector>

#include "models/os/direct_io_bench.h"

namespace ckptsim::cli {

// The fio-like jobs, in table order. A -qdN job keeps at most N 8 kB I/Os
// outstanding, as `fio --bs=8k --iodepth=N --direct=1` does: the sequential
// qd1 jobs submit one bio and wait for it (batch 1), so no merging turns
// them into deeper queues; seqread-stream is the plugged 512 kB batch of
// contiguous bios that a buffered sequential reader's readahead sends.
std::vector<os::DirectJob> devbench_jobs();

struct DevbenchArgs {
  std::string preset;                     // "" : the device of the preset files, else the default
  std::vector<std::string> sets;          // "device.command_setup=0.3ms", "os.scheduler=deadline"
  std::vector<std::string> preset_files;  // --preset-file, in order
  bool json = false;
};

int command_devbench(const DevbenchArgs& args);

}  // namespace ckptsim::cli
