// tests/postgres/recording_file_system.h
//
// A test double for os::FileSystem: records every call with its simulated
// time, and makes each kind of call take a configured time (0 by default).
// It stands for no kernel behaviour at all: the PostgreSQL model's tests
// assert what reaches the OS, in which order and how often.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "models/os/file_system.h"
#include "sim/simulator.h"

namespace ckptsim::postgres::testing {

enum class Call { Read, Write, Fsync, Fdatasync, SyncFileRange, Fadvise, AccessBeforeStart };

struct Record {
  sim::Time at;
  Call call;
  int pid;
  os::FileId file;
  std::int64_t block;
  std::int64_t count;
};

class RecordingFileSystem : public os::FileSystem {
 public:
  explicit RecordingFileSystem(sim::Simulator& sim) : sim_(sim) {}

  // How long each kind of call takes.
  sim::Duration read_time = 0;
  sim::Duration write_time = 0;
  sim::Duration fsync_time = 0;
  sim::Duration fdatasync_time = 0;
  sim::Duration sync_file_range_time = 0;

  os::OsTask& new_task(std::string name) override {
    os::OsTask& task = tasks_.emplace_back();
    task.pid = static_cast<int>(tasks_.size()) + 999;
    task.name = std::move(name);
    return tasks_.back();
  }
  os::FileId create(std::string_view name, os::Volume volume, std::int64_t blocks, std::int64_t) override {
    files_.push_back(File{std::string(name), volume, blocks});
    return static_cast<os::FileId>(files_.size() - 1);
  }
  std::int64_t size_blocks(os::FileId file) const override { return files_[static_cast<std::size_t>(file)].blocks; }
  sim::Task<> read(os::OsTask& t, os::FileId f, std::int64_t block, std::int64_t count) override {
    return call(t, Call::Read, f, block, count, read_time);
  }
  sim::Task<> write(os::OsTask& t, os::FileId f, std::int64_t block, std::int64_t count) override {
    File& file = files_[static_cast<std::size_t>(f)];
    if (block + count > file.blocks) file.blocks = block + count;
    return call(t, Call::Write, f, block, count, write_time);
  }
  sim::Task<> fsync(os::OsTask& t, os::FileId f) override { return call(t, Call::Fsync, f, 0, 0, fsync_time); }
  sim::Task<> fdatasync(os::OsTask& t, os::FileId f) override {
    return call(t, Call::Fdatasync, f, 0, 0, fdatasync_time);
  }
  sim::Task<> sync_file_range(os::OsTask& t, os::FileId f, std::int64_t block, std::int64_t count) override {
    return call(t, Call::SyncFileRange, f, block, count, sync_file_range_time);
  }
  sim::Task<> fadvise_dontneed(os::OsTask& t, os::FileId f, std::int64_t block, std::int64_t count) override {
    return call(t, Call::Fadvise, f, block, count, 0);
  }
  void truncate(os::FileId f) override { files_[static_cast<std::size_t>(f)].blocks = 0; }
  void access_before_start(os::FileId f, std::int64_t block, std::int64_t count) override {
    records_.push_back(Record{sim_.now(), Call::AccessBeforeStart, 0, f, block, count});
  }

  // POSIX's promise and no more: a block written after the start of the
  // file's last completed fsync or fdatasync is not on stable storage.
  std::vector<std::int64_t> unstable_blocks(os::FileId f, std::int64_t from, std::int64_t to) const override {
    std::size_t synced_before = 0;  // records before this index are covered by a completed sync
    for (const auto& [file, start] : syncs_done_)
      if (file == f) synced_before = std::max(synced_before, start);
    std::vector<bool> unstable(static_cast<std::size_t>(std::max<std::int64_t>(to - from, 0)), false);
    for (std::size_t i = synced_before; i < records_.size(); ++i) {
      const Record& r = records_[i];
      if (r.file != f || r.call != Call::Write) continue;
      for (std::int64_t b = std::max(r.block, from); b < std::min(r.block + r.count, to); ++b)
        unstable[static_cast<std::size_t>(b - from)] = true;
    }
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < unstable.size(); ++i)
      if (unstable[i]) out.push_back(from + static_cast<std::int64_t>(i));
    return out;
  }

  bool fsync_is_durable(os::FileId) const override { return true; }

  const std::vector<Record>& records() const { return records_; }
  void clear() {  // forgets the writes too: they count as stable after it
    records_.clear();
    syncs_done_.clear();
  }
  bool is_wal(os::FileId f) const { return files_[static_cast<std::size_t>(f)].volume == os::Volume::Wal; }
  const std::string& name(os::FileId f) const { return files_[static_cast<std::size_t>(f)].name; }
  // Records of one kind on one volume.
  std::vector<Record> of(Call c, os::Volume v) const {
    std::vector<Record> out;
    for (const Record& r : records_) {
      if (r.call == c && files_[static_cast<std::size_t>(r.file)].volume == v) out.push_back(r);
    }
    return out;
  }
  const os::OsTask* task_named(std::string_view name) const {
    for (const os::OsTask& t : tasks_) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }

 private:
  struct File {
    std::string name;
    os::Volume volume;
    std::int64_t blocks;
  };
  sim::Task<> call(os::OsTask& t, Call c, os::FileId f, std::int64_t block, std::int64_t count, sim::Duration d) {
    const std::size_t index = records_.size();
    records_.push_back(Record{sim_.now(), c, t.pid, f, block, count});
    if (d > 0) co_await sim_.sleep(d);
    if (c == Call::Fsync || c == Call::Fdatasync) syncs_done_.emplace_back(f, index);
  }

  sim::Simulator& sim_;
  std::deque<os::OsTask> tasks_;
  std::vector<File> files_;
  std::vector<Record> records_;
  std::vector<std::pair<os::FileId, std::size_t>> syncs_done_;  // file, index of the sync's record
};

}  // namespace ckptsim::postgres::testing
