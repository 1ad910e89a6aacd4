// models/postgres/walwriter.h
//
// The WAL writer process: WalWriterMain (walwriter.c) with xlog.c's
// XLogBackgroundFlush and XLogSetAsyncXactLSN. Every wal_writer_delay it
// writes the completed WAL pages, or up to the latest asynchronous commit if
// nothing else is pending, and (9.6+) flushes them only when
// wal_writer_delay has passed since its last flush, wal_writer_flush_after
// is pending or an asynchronous commit asked for it. After 50 idle rounds it
// sleeps 25 times longer (9.2+) until an asynchronous commit wakes it (a
// hibernating writer, or a whole page of asynchronous WAL unflushed).
// Left out: the WAL writer's own statistics.
#pragma once

#include "models/postgres/buffer_pool.h"
#include "models/postgres/latch.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/version.h"

namespace ckptsim::postgres {

class Wal;

class WalWriter {
 public:
  WalWriter(sim::Simulator& sim, Wal& wal, const PostgresConfig& config, Version version)
      : sim_(sim), wal_(wal), config_(config), version_(version), latch_(sim) {}

  // The process body.
  sim::Process run(const PgProc& proc);
  // XLogSetAsyncXactLSN: an asynchronous commit asks the WAL writer to flush up to lsn.
  void set_async_commit_lsn(Lsn lsn);

 private:
  // XLogBackgroundFlush: one round. Returns whether it had work.
  sim::Task<bool> background_flush(const PgProc& proc);

  sim::Simulator& sim_;
  Wal& wal_;
  const PostgresConfig& config_;
  Version version_;
  Latch latch_;
  Lsn async_commit_lsn_ = 0;
  sim::Time last_background_flush_ = 0;
  bool hibernating_ = false;
};

}  // namespace ckptsim::postgres
