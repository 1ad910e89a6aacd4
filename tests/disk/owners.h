// tests/disk/owners.h
//
// The owner a test gives its commands: it records each completion, in order;
// and a write command to give it.
#pragma once

#include <cstdint>
#include <vector>

#include "models/disk/device.h"

namespace ckptsim::disk::testing {

inline Command write_command(std::int64_t sector, std::int64_t bytes) {
  Command c;
  c.op = Op::Write;
  c.sector = sector;
  c.bytes = bytes;
  return c;
}

struct Sink final : CommandOwner {
  std::vector<Command*> done;
  void command_completed(Command& c) override { done.push_back(&c); }
};

}  // namespace ckptsim::disk::testing
