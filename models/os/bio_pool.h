// models/os/bio_pool.h
//
// The page cache's bios: bio_alloc from a mempool (fs_bio_set) and bio_put.
// Bios are created on first need and reused, so the write path allocates
// nothing in steady state; the pool never shrinks. Left out: the mempool's
// reserve and waiting for it (memory for bios never runs out here).
#pragma once

#include <memory>
#include <vector>

#include "models/os/bio.h"

namespace ckptsim::os {

class BioPool {
 public:
  BioPool() = default;
  ~BioPool() { free_.clear(); }
  BioPool(const BioPool&) = delete;
  BioPool& operator=(const BioPool&) = delete;

  // A bio whose completion goes to `owner`; its other fields are the last user's.
  Bio& get(BioOwner& owner) {
    if (free_.empty()) {
      store_.push_back(std::make_unique<Bio>());
      free_.push_back(*store_.back());
    }
    Bio& bio = free_.front();
    free_.pop_front();
    bio.owner = &owner;
    return bio;
  }
  void put(Bio& bio) { free_.push_front(bio); }

 private:
  std::vector<std::unique_ptr<Bio>> store_;
  BioList free_;
};

}  // namespace ckptsim::os
