// models/os/r1bio.h
//
// md RAID1's per-write bookkeeping: struct r1bio and the r1bio_pool mempool
// of drivers/md/raid1.c (r1bio_pool_alloc, free_r1bio; 3.2). One R1Bio
// carries an array write as its clones, one per member, and counts the
// clones not yet completed (remaining) and not yet at their device
// (dispatched). The pool grows on demand and never frees, so a warm array
// allocates nothing per write.
//
// Left out: the bad-block and behind-write state of r1bio, bio splitting.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "models/os/bio.h"

namespace ckptsim::os {

struct R1Bio;

// A member's copy of a write bio.
struct R1Clone : Bio {
  R1Bio* r1 = nullptr;
  int member = 0;
};

struct R1Bio {
  Bio* master = nullptr;
  int remaining = 0;   // clones not completed
  int dispatched = 0;  // clones at their member's device
  std::vector<R1Clone> clones;
};

class R1BioPool {
 public:
  // Clones of `members` members, each ending at `owner` (md).
  R1BioPool(int members, BioOwner& owner) : members_(members), owner_(owner) {}

  R1Bio& alloc() {
    if (free_.empty()) grow();
    R1Bio& r1 = *free_.back();
    free_.pop_back();
    return r1;
  }
  void free(R1Bio& r1) { free_.push_back(&r1); }

 private:
  void grow() {
    auto r1 = std::make_unique<R1Bio>();
    r1->clones.resize(static_cast<std::size_t>(members_));
    for (std::size_t m = 0; m < r1->clones.size(); ++m) {
      r1->clones[m].r1 = r1.get();
      r1->clones[m].member = static_cast<int>(m);
      r1->clones[m].owner = &owner_;
    }
    free_.push_back(r1.get());
    store_.push_back(std::move(r1));
  }

  int members_;
  BioOwner& owner_;
  std::vector<std::unique_ptr<R1Bio>> store_;
  std::vector<R1Bio*> free_;
};

}  // namespace ckptsim::os
