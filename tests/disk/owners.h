// tests/disk/owners.h
//
// The owner a test gives its commands: it records each completion, in order.
#pragma once

#include <vector>

#include "models/disk/device.h"

namespace ckptsim::disk::testing {

struct Sink final : CommandOwner {
  std::vector<Command*> done;
  void command_completed(Command& c) override { done.push_back(&c); }
};

}  // namespace ckptsim::disk::testing
