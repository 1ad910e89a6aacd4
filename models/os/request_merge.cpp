// models/os/request_merge.cpp
#include "models/os/request_merge.h"

#include <algorithm>

namespace ckptsim::os {

bool RequestMerge::can_merge(const Request& rq, const Bio& bio) const {
  return rq.op == bio.op && rq.bytes / disk::kSectorBytes + bio.bytes / disk::kSectorBytes <= max_sectors_ &&
         (rq.state != RequestState::Queued || elevator_.allow_merge(rq, bio));
}

void RequestMerge::back_merge(Request& rq, Bio& bio) {
  rq.bytes += bio.bytes;
  rq.bios.push_back(bio);
  accounting_.bio_merged(bio.op);
}

void RequestMerge::front_merge(Request& rq, Bio& bio) {
  const bool queued = rq.state == RequestState::Queued;
  if (queued) remove(rq);
  rq.sector = bio.sector;
  rq.bytes += bio.bytes;
  rq.bios.push_front(bio);
  if (queued) {
    add(rq);
    elevator_.front_merged(rq);
  }
  accounting_.bio_merged(bio.op);
}

bool RequestMerge::into_plug(Bio& bio, Plug& plug) {
  for (auto it = plug.requests.rbegin(); it != plug.requests.rend(); ++it) {
    Request& rq = *it;
    if (!can_merge(rq, bio)) continue;
    if (rq.end() == bio.sector) {
      back_merge(rq, bio);
      return true;
    }
    if (bio.end_sector() == rq.sector) {
      front_merge(rq, bio);
      return true;
    }
  }
  return false;
}

bool RequestMerge::into_queue(Bio& bio) {
  // Back merge: a queued request ending at bio.sector starts before it.
  auto it = index_.upper_bound(bio.sector);
  for (int looked = 0; it != index_.begin() && looked < 4; ++looked) {
    --it;
    if (it->end() == bio.sector && can_merge(*it, bio)) {
      Request& rq = *it;
      back_merge(rq, bio);
      merge_neighbours(rq);
      return true;
    }
  }
  // Front merge: a queued request starting at bio's end.
  for (auto range = index_.equal_range(bio.end_sector()); range.first != range.second; ++range.first) {
    if (can_merge(*range.first, bio)) {
      Request& rq = *range.first;
      front_merge(rq, bio);
      merge_neighbours(rq);
      return true;
    }
  }
  return false;
}

bool RequestMerge::try_merge_requests(Request& first, Request& second) {
  if (&first == &second || first.op != second.op || first.end() != second.sector) return false;
  if ((first.bytes + second.bytes) / disk::kSectorBytes > max_sectors_) return false;
  if (first.sync != second.sync) return false;
  if (!second.bios.empty() && !elevator_.allow_merge(first, second.bios.front())) return false;
  elevator_.merged_away(first, second);
  remove(second);
  first.bytes += second.bytes;
  first.bios.splice(first.bios.end(), second.bios);
  first.created = std::min(first.created, second.created);
  first.fifo_time = std::min(first.fifo_time, second.fifo_time);
  accounting_.request_merged(first.op, sim_.now());
  pool_.put(second);
  return true;
}

void RequestMerge::merge_neighbours(Request& rq) {
  for (auto range = index_.equal_range(rq.end()); range.first != range.second; ++range.first) {
    if (try_merge_requests(rq, *range.first)) break;
  }
  auto it = index_.iterator_to(rq);
  for (int looked = 0; it != index_.begin() && looked < 4; ++looked) {
    --it;
    if (it->end() == rq.sector) {
      if (try_merge_requests(*it, rq)) return;
    }
  }
}

}  // namespace ckptsim::os
