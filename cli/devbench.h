// cli/devbench.h
//
// `ckptsim devbench PRESET [--json]`: fio-like jobs (8 kB, random and
// sequential, read and write, queue depth 1 and 32) against a device preset
// through the block layer of the preset's default kernel, with O_DIRECT
// semantics (no page cache), so that a preset can be compared with one's own
// fio figures.
#pragma once

#include <string>

namespace ckptsim::cli {

int command_devbench(const std::string& preset, bool json);

}  // namespace ckptsim::cli
