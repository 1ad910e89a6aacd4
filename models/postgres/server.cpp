// models/postgres/server.cpp
//
// Composition of the server's parts, its processes, and the backends'
// statement-level operations (ReadBuffer, a WAL-logged page change, a heap
// insert with relation extension, row locks, commit).
#include "models/postgres/server.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::postgres {

namespace {
constexpr int kCommitRecordBytes = 40;  // XLOG_XACT_COMMIT without subtransactions or invalidations
std::int64_t pages(sim::Bytes bytes) { return bytes / os::kBlockBytes; }
}  // namespace

Server::Server(sim::Simulator& sim, sim::Resource& cpus, os::FileSystem& fs, const PostgresConfig& config,
               std::uint64_t /*seed: the server model draws no random numbers*/)
    : sim_(sim),
      cpus_(cpus),
      fs_(fs),
      config_(config),
      version_(config.version),
      pool_(sim, pages(config.shared_buffers)),
      rels_(fs),
      queue_(pages(config.shared_buffers), version_.queue_compaction()),
      wal_(sim, fs, config_, version_, stats_),
      bufmgr_(pool_, rels_, wal_, queue_, stats_, version_),
      bgwriter_(sim, &cpus, bufmgr_, config_, version_, stats_),
      checkpointer_(sim, &cpus, bufmgr_, wal_, queue_, config_, version_, stats_) {
  wal_.set_active_xacts(&active_write_xacts_);
  wal_.on_segment_finished([this](std::int64_t segno) { checkpointer_.wal_segment_finished(segno); });
  checkpointer_.set_log([this](sim::Time t, const std::string& line) { log(t, line); });
  // *_flush_after exist from 9.6; the presets set them to 0 before, and so do we.
  const bool writeback = version_.at_least(90600);
  checkpoint_writeback_ =
      std::make_unique<WritebackContext>(rels_, writeback ? pages(config_.checkpoint_flush_after) : 0);
  bgwriter_writeback_ = std::make_unique<WritebackContext>(rels_, writeback ? pages(config_.bgwriter_flush_after) : 0);
}

Server::~Server() = default;

RelationId Server::create_relation(std::string name, std::int64_t blocks) {
  if (started_) throw std::logic_error("create_relation after start()");
  extension_locks_.emplace_back(sim_);
  return rels_.create(std::move(name), blocks);
}

std::int64_t Server::relation_blocks(RelationId rel) const { return rels_.rel(rel).nblocks; }

void Server::start() {
  if (started_) return;
  started_ = true;
  wal_.create_initial_segments();
  if (version_.combined_bgwriter()) {
    // Up to 9.1: "writer process" is both; its writes are the checkpointer's (fsyncs kept locally).
    os::OsTask& task = fs_.new_task("writer process");
    checkpointer_proc_ = PgProc{&task, ProcKind::Checkpointer, checkpoint_writeback_.get()};
    checkpointer_.set_pid(task.pid);
    sim_.spawn(checkpointer_.run(checkpointer_proc_, &bgwriter_));
  } else {
    os::OsTask& ckpt = fs_.new_task("checkpointer process");
    checkpointer_proc_ = PgProc{&ckpt, ProcKind::Checkpointer, checkpoint_writeback_.get()};
    checkpointer_.set_pid(ckpt.pid);
    // A backend that finds the request queue half full wakes the checkpointer to absorb it.
    queue_.on_half_full([this] { checkpointer_.wake(); });
    sim_.spawn(checkpointer_.run(checkpointer_proc_, nullptr));
    os::OsTask& bgw = fs_.new_task("writer process");
    bgwriter_proc_ = PgProc{&bgw, ProcKind::Bgwriter, bgwriter_writeback_.get()};
    sim_.spawn(bgwriter_.run(bgwriter_proc_));
  }
  os::OsTask& walwriter = fs_.new_task("wal writer process");
  walwriter_proc_ = PgProc{&walwriter, ProcKind::WalWriter, nullptr};
  sim_.spawn(wal_.run_writer(walwriter_proc_));
}

Backend& Server::connect() {
  os::OsTask& task = fs_.new_task("postgres: backend " + std::to_string(backends_.size() + 1));
  backends_.push_back(std::make_unique<Backend>(*this, task));
  return *backends_.back();
}

void Server::request_checkpoint(bool immediate) {
  checkpointer_.request(immediate ? kCheckpointImmediate | kCheckpointForce | kCheckpointWait : kCheckpointForce);
}

void Server::set_log_sink(std::function<void(std::string_view line)> sink) { sink_ = std::move(sink); }

void Server::log(sim::Time /*t*/, const std::string& line) {
  if (sink_) sink_(line);
}

Server::RowLock* Server::row_lock(RelationId rel, std::int64_t row) {
  for (RowLock& l : row_locks_) {
    if (l.rel == rel && l.row == row) return &l;
  }
  return nullptr;
}

bool Server::check_durability(std::string* why) const {
  const Lsn redo = checkpointer_.last_completed_redo();
  if (redo == 0) return true;
  auto fail = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  const auto before_redo = [redo](Lsn lsn) { return lsn != 0 && lsn <= redo; };
  for (BufferId id = 0; id < pool_.size(); ++id) {
    const BufferDesc& b = pool_.desc(id);
    if (before_redo(b.dirty_since) || before_redo(b.writing_since)) {
      return fail("buffer " + std::to_string(id) + " (relation " + std::to_string(b.tag.rel) + ", block " +
                  std::to_string(b.tag.block) + ") holds a change made before the redo point " +
                  format_lsn(redo) + " that was never written");
    }
  }
  for (SegmentId s = 0; s < rels_.segment_count(); ++s) {
    const SegmentFile& seg = rels_.segment(s);
    if (before_redo(seg.unsynced_since) || before_redo(seg.syncing_since)) {
      return fail("segment " + std::to_string(seg.segno) + " of relation " + std::to_string(seg.rel) +
                  " has writes of changes made before the redo point " + format_lsn(redo) + " that were not fsynced");
    }
  }
  return true;
}

// --- Backend -------------------------------------------------------------

Backend::Backend(Server& server, os::OsTask& task)
    : server_(server),
      task_(task),
      writeback_(server.rels_, server.version_.at_least(90600) ? pages(server.config_.backend_flush_after) : 0),
      waits_(server.sim_, WaitEvent::ClientRead),
      proc_{&task, ProcKind::Backend, &writeback_, &waits_},
      xact_ended_(server.sim_) {}

void Backend::begin_write() {
  if (in_write_xact_) return;
  in_write_xact_ = true;  // an xid is assigned
  ++server_.active_write_xacts_;
}

sim::Task<> Backend::read(RelationId rel, std::int64_t block) {
  const BufferId id = co_await server_.bufmgr_.read_buffer(proc_, rel, block);
  server_.bufmgr_.release(id);
}

sim::Task<> Backend::modify(RelationId rel, std::int64_t block, int record_bytes) {
  begin_write();
  BufferManager& bufmgr = server_.bufmgr_;
  const BufferId id = co_await bufmgr.read_buffer(proc_, rel, block);
  co_await bufmgr.lock_exclusive(proc_, id);
  const Lsn page_lsn = server_.rels_.rel(rel).page_lsn[static_cast<std::size_t>(block)];
  const Lsn end = co_await server_.wal_.insert(proc_, record_bytes, &page_lsn);
  server_.rels_.rel(rel).page_lsn[static_cast<std::size_t>(block)] = end;
  bufmgr.mark_dirty(id, end);
  bufmgr.unlock(id);
  bufmgr.release(id);
}

sim::Task<> Backend::insert(RelationId rel, int tuples_per_page, int record_bytes) {
  begin_write();
  BufferManager& bufmgr = server_.bufmgr_;
  Relations& rels = server_.rels_;
  // The relation extension lock (LockRelationForExtension): one extender at a
  // time; an inserter waits while anyone extends, then looks at the last page again.
  sim::LWLock& extension_lock = server_.extension_locks_[static_cast<std::size_t>(rel)];
  while (extension_lock.held()) {
    const WaitScope waiting = report_wait(proc_, WaitEvent::LockExtend);
    co_await extension_lock.released();
  }
  BufferId id = -1;
  std::int64_t block = 0;
  bool new_page = false;
  if (rels.rel(rel).last_page_tuples >= tuples_per_page || rels.rel(rel).nblocks == 0) {
    const auto extending = extension_lock.try_exclusive();  // free: checked above, nothing awaited since
    rels.rel(rel).last_page_tuples = 1;
    const SegmentId seg = co_await rels.extend(proc_, rel);  // smgrextend writes a zeroed page
    co_await bufmgr.register_sync(proc_, seg);               // counts as buffers_backend
    block = rels.rel(rel).nblocks - 1;
    id = co_await bufmgr.read_buffer(proc_, rel, block, true);
    new_page = true;
  } else {
    ++rels.rel(rel).last_page_tuples;
    block = rels.rel(rel).nblocks - 1;
    id = co_await bufmgr.read_buffer(proc_, rel, block);
  }
  co_await bufmgr.lock_exclusive(proc_, id);
  // A record that initialises its page (XLOG_HEAP_INIT_PAGE) carries no image.
  const Lsn page_lsn = rels.rel(rel).page_lsn[static_cast<std::size_t>(block)];
  const Lsn end = co_await server_.wal_.insert(proc_, record_bytes, new_page ? nullptr : &page_lsn);
  rels.rel(rel).page_lsn[static_cast<std::size_t>(block)] = end;
  bufmgr.mark_dirty(id, end);
  bufmgr.unlock(id);
  bufmgr.release(id);
}

sim::Task<> Backend::lock_row(RelationId rel, std::int64_t row) {
  for (;;) {
    Server::RowLock* held = server_.row_lock(rel, row);
    if (held == nullptr) break;
    if (held->owner == this) co_return;
    // heap_lock_tuple: the first waiter takes the tuple lock and waits for the
    // owner's transaction; the others queue on that tuple lock.
    Backend& owner = *held->owner;
    const WaitScope waiting =
        report_wait(proc_, held->waiters++ == 0 ? WaitEvent::LockTransactionId : WaitEvent::LockTuple);
    co_await owner.xact_ended_.wait();  // XactLockTableWait: until that transaction ends
  }
  server_.row_locks_.push_back(Server::RowLock{rel, row, this});
  ++locks_held_;
}

void Backend::release_locks() {
  if (locks_held_ > 0) {
    auto& locks = server_.row_locks_;
    locks.erase(std::remove_if(locks.begin(), locks.end(), [this](const Server::RowLock& l) { return l.owner == this; }),
                locks.end());
    locks_held_ = 0;
    xact_ended_.notify_all();
  }
}

sim::Task<> Backend::commit() {
  if (in_write_xact_) {
    // RecordTransactionCommit: the commit record, then (synchronous_commit) wait for its flush.
    const Lsn end = co_await server_.wal_.insert(proc_, kCommitRecordBytes);
    if (server_.config_.synchronous_commit) {
      co_await server_.wal_.flush(proc_, end);
    } else {
      server_.wal_.set_async_commit_lsn(end);
    }
    in_write_xact_ = false;
    --server_.active_write_xacts_;
  }
  ++server_.stats_.xact_commit;
  release_locks();
}

void Backend::end_read_only() {
  ++server_.stats_.xact_commit;
  release_locks();
}

}  // namespace ckptsim::postgres
