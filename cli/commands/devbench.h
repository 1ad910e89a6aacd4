// cli/commands/devbench.h
//
// `ckptsim devbench PRESET [--json]`: fio-like jobs (8 kB, random and
// sequential, read and write, queue depth 1 and 32) against a device preset
// through the block layer of the preset's default kernel, with O_DIRECT
// semantics (no page cache), so that a preset can be compared with one's own
// fio figures.
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

int command_devbench(const std::string& preset, bool json);

}  // namespace ckptsim::cli
