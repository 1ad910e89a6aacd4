// models/os/flush_sequence.cpp
#include "models/os/flush_sequence.h"

namespace ckptsim::os {

FlushSequence::FlushSequence(sim::Simulator& sim, disk::CommandOwner& owner, bool volatile_cache)
    : volatile_cache_(volatile_cache), covered_{sim::Condition(sim), sim::Condition(sim)} {
  command_.op = disk::Op::Flush;
  command_.owner = &owner;
}

disk::Command& FlushSequence::issue(sim::Time now) {
  wanted_ = false;
  in_flight_ = true;
  ++issued_;
  started_ = now;
  return command_;
}

sim::Duration FlushSequence::completed(sim::Time now) {
  in_flight_ = false;
  ++done_;
  // Callers of this generation asked before it was issued; those of the next one after.
  covered(done_).notify_all();
  return now - started_;
}

}  // namespace ckptsim::os
