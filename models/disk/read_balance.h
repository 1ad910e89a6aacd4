// models/disk/read_balance.h
//
// md RAID1's choice of the member a read goes to, as 3.2's read_balance
// (drivers/md/raid1.c) makes it for an array of healthy members: the member
// whose last request ended exactly where this read starts (a sequential
// stream sticks to its member), else the one whose last request ended
// nearest to it, lowest index on ties. That position is md's bookkeeping,
// not the true head position. Shared by the array seen as one device
// (disk::Raid1) and md over per-member block queues (os::MdRaid1).
//
// Left out: write-mostly members, bad blocks, the least-busy preference of
// later kernels; positions are noted when md sends a request, not when it
// completes (3.2 updates head_position on completion).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace ckptsim::disk {

class ReadBalance {
 public:
  explicit ReadBalance(int members) : last_end_sector_(static_cast<std::size_t>(members), 0) {}

  int choose(std::int64_t sector) const {
    int best = 0;
    std::int64_t best_distance = -1;
    for (std::size_t m = 0; m < last_end_sector_.size(); ++m) {
      const std::int64_t head = last_end_sector_[m];
      if (head == sector) return static_cast<int>(m);  // sequential: stay on this member
      const std::int64_t distance = std::abs(head - sector);
      if (best_distance < 0 || distance < best_distance) {
        best = static_cast<int>(m);
        best_distance = distance;
      }
    }
    return best;
  }
  // A request to `member` ending at `end_sector` was sent.
  void sent(int member, std::int64_t end_sector) { last_end_sector_[static_cast<std::size_t>(member)] = end_sector; }
  // A read of [sector, end_sector): the member chosen, noted as sent there and counted.
  int read(std::int64_t sector, std::int64_t end_sector) {
    const int m = choose(sector);
    sent(m, end_sector);
    ++reads_sent_[static_cast<std::size_t>(m)];
    return m;
  }
  // Reads sent to each member so far.
  std::int64_t reads_sent(int member) const { return reads_sent_[static_cast<std::size_t>(member)]; }

 private:
  std::vector<std::int64_t> last_end_sector_;  // per member: where md thinks its head is
  std::vector<std::int64_t> reads_sent_ = std::vector<std::int64_t>(last_end_sector_.size(), 0);
};

}  // namespace ckptsim::disk
