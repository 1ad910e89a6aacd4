// models/disk/ssd.cpp
#include "models/disk/ssd.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "models/disk/write_amplification.h"

namespace ckptsim::disk {

namespace {
using ProgramEnd = std::pair<sim::Time, std::int64_t>;
constexpr auto kLater = std::greater<ProgramEnd>();
}  // namespace

Ssd::Ssd(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t /*seed*/, std::string_view /*name*/)
    : sim_(sim),
      config_(config),
      completions_(sim, [this](Command& c) { finished(c); }),
      programs_(sim, [this] { program_done(); }),
      write_amplification_(steady_state_write_amplification(config.ssd.over_provisioning)),
      units_(config.ssd.channels * config.ssd.dies_per_channel),
      stripe_bytes_(config.ssd.planes * config.ssd.flash_page),
      controller_interval_(sim::kSecond / std::max<std::int64_t>(1, config.ssd.host_iops_cap)),
      unit_free_(static_cast<std::size_t>(units_), 0),
      channel_free_(static_cast<std::size_t>(config.ssd.channels), 0) {
  // Nothing random: the static layout and FIFO calendars need no draw, so
  // seed and name are unused.
  info_.queue_depth = static_cast<int>(config.queue_depth);
  info_.queued_flush = config.interface != Interface::Sata;
  info_.volatile_cache = !config.ssd.power_loss_protection;
  info_.rotational = false;
  info_.capacity_bytes = config.capacity;
  pending_programs_.reserve(static_cast<std::size_t>(config.ssd.write_buffer / stripe_bytes_ + 2));
}

Ssd::~Ssd() { buffer_waiters_.clear(); }

bool Ssd::can_accept(Op op) const {
  if (blocking_flush_) return false;
  if (op == Op::Flush && !info_.queued_flush) return outstanding_ == 0;
  return outstanding_ < info_.queue_depth;
}

sim::Duration Ssd::bytes_time(std::int64_t bytes, sim::Bytes per_second) const {
  return std::llround(static_cast<double>(bytes) * sim::kSecond / static_cast<double>(per_second));
}

sim::Time Ssd::controller_slot() {
  const sim::Time start = std::max(sim_.now(), controller_free_);
  controller_free_ = start + controller_interval_;
  return start + config_.ssd.host_overhead;
}

sim::Time Ssd::link_transfer(sim::Time ready, std::int64_t bytes) {
  const sim::Time start = std::max(ready, link_free_);
  link_free_ = start + bytes_time(bytes, config_.link_rate);
  return link_free_;
}

void Ssd::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("ssd: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  switch (c.op) {
    case Op::Read: read(c); break;
    case Op::Write:
      if (buffer_waiters_.empty() && buffer_used_ + c.bytes <= config_.ssd.write_buffer) {
        accept_write(c);
      } else {
        buffer_waiters_.push_back(c);
      }
      break;
    case Op::Flush: {
      if (!info_.queued_flush) blocking_flush_ = true;
      sim::Time done = controller_slot();
      if (!config_.ssd.power_loss_protection) {
        if (stripe_fill_ > 0) program_stripe(stripe_fill_, stripe_random_, done);
        stripe_fill_ = stripe_random_ = 0;
        done = std::max(done, last_program_end_) + config_.ssd.flush_overhead;
      }
      completions_.complete_at(c, done);
      break;
    }
  }
}

void Ssd::read(Command& c) {
  const sim::Time lookup = controller_slot() + config_.ssd.ftl_overhead;
  sim::Time done = lookup;
  std::int64_t byte = c.sector * kSectorBytes;
  const std::int64_t end = byte + c.bytes;
  while (byte < end) {
    // One flash page at a time: its unit senses it, its channel moves the part asked for.
    const std::int64_t page = byte / config_.ssd.flash_page;
    const std::int64_t chunk = std::min(end, (page + 1) * config_.ssd.flash_page) - byte;
    const auto unit = static_cast<std::size_t>(page % units_);
    const auto channel = static_cast<std::size_t>(static_cast<std::int64_t>(unit) % config_.ssd.channels);
    const sim::Time sensed = std::max(lookup, unit_free_[unit]) + config_.ssd.read_time;
    const sim::Time moved = std::max(sensed, channel_free_[channel]) + bytes_time(chunk, config_.ssd.channel_rate);
    channel_free_[channel] = moved;
    unit_free_[unit] = moved;  // the page register is busy until the data leaves it
    done = std::max(done, moved);
    byte += chunk;
  }
  completions_.complete_at(c, link_transfer(done, c.bytes));
}

void Ssd::accept_write(Command& c) {
  buffer_used_ += c.bytes;
  const sim::Time in_buffer = link_transfer(controller_slot() + config_.ssd.write_overhead, c.bytes);
  completions_.complete_at(c, in_buffer);
  const bool sequential = c.sector == last_write_end_;
  last_write_end_ = c.end_sector();
  stripe_fill_ += c.bytes;
  if (!sequential) stripe_random_ += c.bytes;
  while (stripe_fill_ >= stripe_bytes_) {
    // The random share of what is left is carried pro rata.
    const std::int64_t random = stripe_random_ * stripe_bytes_ / stripe_fill_;
    program_stripe(stripe_bytes_, random, in_buffer);
    stripe_fill_ -= stripe_bytes_;
    stripe_random_ -= random;
  }
}

void Ssd::program_stripe(std::int64_t bytes, std::int64_t random_bytes, sim::Time ready) {
  const auto unit = static_cast<std::size_t>(next_unit_);
  next_unit_ = (next_unit_ + 1) % units_;
  const auto channel = static_cast<std::size_t>(static_cast<std::int64_t>(unit) % config_.ssd.channels);
  const sim::Time moved = std::max(ready, channel_free_[channel]) + bytes_time(bytes, config_.ssd.channel_rate);
  channel_free_[channel] = moved;
  // Garbage collection in the steady state: WA programs, WA - 1 copy-back
  // reads and WA / pages_per_block erases per stripe of user data.
  const double wa = 1 + (write_amplification_ - 1) * static_cast<double>(random_bytes) / static_cast<double>(bytes);
  const double busy =
      wa * static_cast<double>(config_.ssd.program_time) + (wa - 1) * static_cast<double>(config_.ssd.read_time) +
      wa / static_cast<double>(config_.ssd.pages_per_block) * static_cast<double>(config_.ssd.erase_time);
  const sim::Time start = std::max(moved, unit_free_[unit]);
  const sim::Time end = start + std::llround(busy);
  unit_free_[unit] = end;
  last_program_end_ = std::max(last_program_end_, end);
  pending_programs_.emplace_back(end, bytes);
  std::push_heap(pending_programs_.begin(), pending_programs_.end(), kLater);
  programs_.schedule_at(pending_programs_.front().first);
}

void Ssd::program_done() {
  const sim::Time now = sim_.now();
  while (!pending_programs_.empty() && pending_programs_.front().first <= now) {
    std::pop_heap(pending_programs_.begin(), pending_programs_.end(), kLater);
    buffer_used_ -= pending_programs_.back().second;
    pending_programs_.pop_back();
  }
  // Buffered bytes not yet in a stripe stay counted until a stripe takes them.
  while (!buffer_waiters_.empty() && buffer_used_ + buffer_waiters_.front().bytes <= config_.ssd.write_buffer) {
    Command& c = buffer_waiters_.front();
    buffer_waiters_.pop_front();
    accept_write(c);
  }
  if (!pending_programs_.empty()) programs_.schedule_at(pending_programs_.front().first);
}

void Ssd::finished(Command& c) {
  --outstanding_;
  if (c.op == Op::Flush && !info_.queued_flush) blocking_flush_ = false;
  c.owner->command_completed(c);
}

}  // namespace ckptsim::disk
