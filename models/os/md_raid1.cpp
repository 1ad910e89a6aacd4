// models/os/md_raid1.cpp
//
// md RAID1 over per-member block queues, with raid1d as the members' only
// writer (see md_raid1.h for what is modelled and left out).
#include "models/os/md_raid1.h"

namespace ckptsim::os {

MdRaid1::MdRaid1(sim::Simulator& sim, const OsConfig& config, disk::Device& array, Scheduler scheduler,
                 OsTask& raid1d_task)
    : sim_(sim),
      array_(array),
      raid1d_(raid1d_task),
      max_queued_(config.md_max_queued_requests),
      read_balance_(array.members()),
      wait_barrier_(sim),
      raid1d_wakeup_(sim),
      r1bios_(array.members(), *this) {
  for (int m = 0; m < array.members(); ++m) {
    const std::string name = std::string("sd") + static_cast<char>('a' + m % 26);
    members_.push_back(std::make_unique<BlockQueue>(sim, config, array.member(m), scheduler, name));
  }
}

MdRaid1::~MdRaid1() {
  pending_bio_list_.clear();
  members_.clear();  // their requests hold clones
}

// ---- make_request ----

sim::Task<> MdRaid1::submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers) {
  if (bio.op == disk::Op::Read) {
    co_await submit_to_member(read_balance_.read(bio.sector, bio.end_sector()), bio, plug, layers);
    co_return;
  }
  if (max_queued_ > 0 && pending_count_ >= max_queued_) {
    wakeup();
    if (plug != nullptr) flush_plug(*plug);  // the writer sleeps: schedule() flushes its plug
    const sim::StateScope<IoLayer> waiting(layers, IoLayer::RequestSlot);
    while (pending_count_ >= max_queued_) co_await wait_barrier_.wait();
  }
  if (plug != nullptr && !plug->md_plugged) {  // mddev_check_plugged
    plug->md_plugged = true;
    ++plug_cnt_;
  }
  R1Bio& r1 = r1bios_.alloc();
  r1.master = &bio;
  r1.remaining = members();
  r1.dispatched = 0;
  for (R1Clone& clone : r1.clones) {
    clone.op = bio.op;
    clone.sync = bio.sync;
    clone.sector = bio.sector;
    clone.bytes = bio.bytes;
    clone.pid = raid1d_.pid;  // CFQ's io context is the submitter's: raid1d
    read_balance_.sent(clone.member, clone.end_sector());
    pending_bio_list_.push_back(clone);
    ++pending_count_;
  }
  wakeup();  // do_sync || !bitmap || !plugged: there is no bitmap
}

sim::Task<> MdRaid1::submit_to_member(int member, Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers) {
  BlockQueue& q = *members_[static_cast<std::size_t>(member)];
  if (q.try_submit(bio, plug)) co_return;
  if (plug != nullptr) flush_plug(*plug);
  const sim::StateScope<IoLayer> waiting(layers, IoLayer::RequestSlot);
  q.submit_into(co_await q.get_request(bio.sync), bio, plug);
}

// blk_flush_plug_list: every member's plugged requests, then md's callback (plugger_unplug).
void MdRaid1::flush_plug(Plug& plug) {
  for (auto& q : members_) q->unplug(plug);
  if (plug.md_plugged) {
    plug.md_plugged = false;
    if (--plug_cnt_ == 0) wakeup();
  }
}

void MdRaid1::unplug(Plug& plug) { flush_plug(plug); }

// ---- raid1d ----

sim::Process MdRaid1::raid1d() {
  for (;;) {
    co_await raid1d_wakeup_;
    raid1d_wakeup_.reset();
    Plug plug;  // blk_start_plug
    if (plug_cnt_ == 0) co_await flush_pending_writes(plug);
    flush_plug(plug);  // blk_finish_plug
  }
}

sim::Task<> MdRaid1::flush_pending_writes(Plug& plug) {
  if (pending_bio_list_.empty()) co_return;
  BioList batch;
  batch.splice(batch.end(), pending_bio_list_);
  pending_count_ = 0;
  wait_barrier_.notify_all();
  while (!batch.empty()) {
    R1Clone& clone = static_cast<R1Clone&>(batch.front());  // only clones are ever pending
    batch.pop_front();
    co_await submit_to_member(clone.member, clone, &plug, &raid1d_.io_layers);
  }
}

// ---- completion ----

void MdRaid1::bio_dispatched(Bio& bio) {
  R1Bio& r1 = *static_cast<R1Clone&>(bio).r1;
  if (++r1.dispatched == members()) r1.master->owner->bio_dispatched(*r1.master);
}

// raid1_end_write_request -> r1_bio_write_done: the master ends with its last clone.
void MdRaid1::bio_done(Bio& bio) {
  R1Bio& r1 = *static_cast<R1Clone&>(bio).r1;
  if (--r1.remaining > 0) return;
  Bio& master = *r1.master;
  r1.master = nullptr;
  r1bios_.free(r1);
  sectors_written_ += master.bytes / disk::kSectorBytes;
  master.owner->bio_done(master);
}

// ---- flush and congestion ----

sim::Process MdRaid1::flush_member(BlockQueue& queue, int& remaining, sim::Event& done) {
  co_await queue.flush_cache();
  if (--remaining == 0) done.set();
}

sim::Task<> MdRaid1::flush_cache() {
  if (!array_.info().volatile_cache) co_return;
  int remaining = members();
  sim::Event done(sim_);
  for (auto& q : members_) sim_.spawn(flush_member(*q, remaining, done));
  co_await done;
}

bool MdRaid1::write_congested() const {
  if (max_queued_ > 0 && pending_count_ >= max_queued_) return true;
  for (const auto& q : members_) {
    if (q->congested(false)) return true;
  }
  return false;
}

}  // namespace ckptsim::os
