// models/postgres/server.cpp
//
// Composition of the server's parts and its processes; the backends are in
// backend.cpp.
#include "models/postgres/server.h"

#include <algorithm>
#include <stdexcept>

#include "models/postgres/log_format.h"
#include "sim/random.h"

namespace ckptsim::postgres {

namespace {
std::int64_t pages(sim::Bytes bytes) { return bytes / os::kBlockBytes; }
}  // namespace

Server::Server(sim::Simulator& sim, sim::Resource& cpus, os::FileSystem& fs, const PostgresConfig& config,
               std::uint64_t seed)
    : sim_(sim),
      // As a boot gives it: somewhere above the system's own processes, below pid_max's 32768.
      postmaster_pid_(static_cast<int>(sim::Random(seed, "postgres/postmaster pid").uniform_int(1000, 30000))),
      cpus_(cpus),
      fs_(fs),
      config_(config),
      version_(config.version),
      pool_(sim, pages(config.shared_buffers)),
      rels_(fs, config.fsync),
      queue_(pages(config.shared_buffers), version_.queue_compaction()),
      wal_(sim, fs, config_, version_, stats_),
      bufmgr_(pool_, rels_, wal_, queue_, stats_, version_),
      aux_{BackgroundWriter(sim, &cpus, bufmgr_, config_, version_, stats_),
           Checkpointer(sim, &cpus, bufmgr_, wal_, queue_, config_, version_, stats_),
           std::make_unique<WritebackContext>(rels_, flush_after_pages(version_, config_.checkpoint_flush_after),
                                              &stats_.checkpointer_writebacks),
           std::make_unique<WritebackContext>(rels_, flush_after_pages(version_, config_.bgwriter_flush_after),
                                              &stats_.bgwriter_writebacks),
           {},
           {},
           {}},
      locks_(sim) {
  wal_.set_active_xacts(&procs_.active_write_xacts);
  aux_.checkpointer.set_xid_counter(&procs_.xids_assigned);
  wal_.on_segment_finished([this](std::int64_t segno) { aux_.checkpointer.wal_segment_finished(segno); });
  aux_.checkpointer.set_log([this](sim::Time, const std::string& line) { log_(line); });
}

Server::~Server() = default;

RelationId Server::create_relation(std::string name, std::int64_t blocks) {
  if (started_) throw std::logic_error("create_relation after start()");
  locks_.add_relation();
  return rels_.create(std::move(name), blocks);
}

void Server::start() {
  if (started_) return;
  started_ = true;
  // The load before the start (pgbench -i): its WAL is about the relations' size when it was logged.
  std::int64_t load_wal_bytes = 0;
  if (version_.bulk_load_wal_logged()) {
    for (RelationId id = 0; id < rels_.count(); ++id) load_wal_bytes += rels_.rel(id).nblocks * os::kBlockBytes;
  }
  wal_.segments().create_initial(load_wal_bytes);
  if (version_.combined_bgwriter()) {
    // Up to 9.1: "writer process" is both; its writes are the checkpointer's (fsyncs kept locally).
    os::OsTask& task = fs_.new_task("writer process");
    aux_.checkpointer_proc = PgProc{&task, ProcKind::Checkpointer, aux_.checkpoint_writeback.get()};
    aux_.checkpointer.set_pid(postmaster_pid_ + task.pid);
    sim_.spawn(aux_.checkpointer.run(aux_.checkpointer_proc, &aux_.bgwriter));
  } else {
    os::OsTask& ckpt = fs_.new_task("checkpointer process");
    aux_.checkpointer_proc = PgProc{&ckpt, ProcKind::Checkpointer, aux_.checkpoint_writeback.get()};
    aux_.checkpointer.set_pid(postmaster_pid_ + ckpt.pid);
    // A backend that finds the request queue half full wakes the checkpointer to absorb it.
    queue_.on_half_full([this] { aux_.checkpointer.wake(); });
    sim_.spawn(aux_.checkpointer.run(aux_.checkpointer_proc, nullptr));
    os::OsTask& bgw = fs_.new_task("writer process");
    aux_.bgwriter_proc = PgProc{&bgw, ProcKind::Bgwriter, aux_.bgwriter_writeback.get()};
    sim_.spawn(aux_.bgwriter.run(aux_.bgwriter_proc));
  }
  os::OsTask& walwriter = fs_.new_task("wal writer process");
  aux_.walwriter_proc = PgProc{&walwriter, ProcKind::WalWriter, nullptr};
  sim_.spawn(wal_.writer().run(aux_.walwriter_proc));
}

void Server::reload(const PostgresConfig& c) {
  log_(log_prefix(sim_.now(), postmaster_pid_) + "received SIGHUP, reloading configuration files");
  apply_reload(config_, c);
  aux_.checkpoint_writeback->set_flush_after(flush_after_pages(version_, config_.checkpoint_flush_after));
  aux_.bgwriter_writeback->set_flush_after(flush_after_pages(version_, config_.bgwriter_flush_after));
  aux_.checkpointer.reload();
  if (started_ && !version_.combined_bgwriter()) aux_.bgwriter.latch().set();
}

Backend& Server::connect() {
  os::OsTask& task = fs_.new_task("postgres: backend " + std::to_string(procs_.backends.size() + 1));
  procs_.backends.push_back(std::make_unique<Backend>(
      SharedState{sim_, config_, version_, stats_, rels_, wal_, bufmgr_, locks_, procs_.active_write_xacts, procs_.xids_assigned},
      task));
  return *procs_.backends.back();
}

std::unique_ptr<HostFile> Server::create_host_file(std::string_view name, std::string process, std::int64_t max_bytes) {
  os::OsTask& writer = fs_.new_task(std::move(process));
  const std::int64_t max_blocks = std::max<std::int64_t>(1, (max_bytes + os::kBlockBytes - 1) / os::kBlockBytes);
  return std::make_unique<HostFile>(fs_, writer, fs_.create(name, os::Volume::Data, 0, max_blocks));
}

void Server::request_checkpoint(bool immediate) {
  aux_.checkpointer.request(immediate ? kCheckpointImmediate | kCheckpointForce | kCheckpointWait : kCheckpointForce);
}

void Server::set_log_sink(std::function<void(std::string_view line)> sink) {
  log_ = sink ? std::move(sink) : [](std::string_view) {};  // no sink: the lines go nowhere
}

bool Server::check_durability(std::string* why) const {
  const Lsn redo = aux_.checkpointer.last_completed_redo();
  if (redo == 0) return true;
  auto fail = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  const auto before_redo = [redo](Lsn lsn) { return lsn != 0 && lsn <= redo; };
  for (BufferId id = 0; id < pool_.size(); ++id) {
    const BufferDesc& b = pool_.desc(id);
    const BufferDurability& d = pool_.durability(id);
    if (before_redo(d.dirty_since) || before_redo(d.writing_since)) {
      return fail("buffer " + std::to_string(id) + " (relation " + std::to_string(b.rel) + ", block " +
                  std::to_string(b.block) + ") holds a change made before the redo point " + format_lsn(redo) +
                  " that was never written");
    }
  }
  // fsync = off promises nothing about the files: only the buffer part holds.
  for (SegmentId s = 0; config_.fsync && s < rels_.segment_count(); ++s) {
    const SegmentFile& seg = rels_.segment(s);
    if (before_redo(seg.unsynced_since) || before_redo(seg.syncing_since)) {
      return fail("segment " + std::to_string(seg.segno) + " of relation " + std::to_string(seg.rel) +
                  " has writes of changes made before the redo point " + format_lsn(redo) + " that were not fsynced");
    }
  }
  return true;
}

}  // namespace ckptsim::postgres
