// models/postgres/walwriter.cpp
//
// WalWriterMain, XLogBackgroundFlush, XLogSetAsyncXactLSN (see walwriter.h).
#include "models/postgres/walwriter.h"

#include <algorithm>

#include "models/postgres/wal.h"

namespace ckptsim::postgres {

void WalWriter::set_async_commit_lsn(Lsn lsn) {
  if (lsn <= async_commit_lsn_) return;
  async_commit_lsn_ = lsn;
  // Wake the WAL writer if it hibernates, or once a whole page of asynchronous WAL is unflushed.
  const Lsn page_done = lsn - lsn % kWalPageBytes;
  if (hibernating_ || page_done > wal_.flush_lsn()) latch_.set();
}

sim::Process WalWriter::run(const PgProc& proc) {
  constexpr int kLoopsUntilHibernate = 50;
  constexpr int kHibernateFactor = 25;
  int left_till_hibernate = kLoopsUntilHibernate;
  for (;;) {
    const bool worked = co_await background_flush(proc);
    if (worked) {
      left_till_hibernate = kLoopsUntilHibernate;
    } else if (left_till_hibernate > 0) {
      --left_till_hibernate;
    }
    const bool hibernate = left_till_hibernate == 0 && version_.at_least(90200);
    hibernating_ = hibernate;
    co_await latch_.wait(hibernate ? config_.wal_writer_delay * kHibernateFactor : config_.wal_writer_delay);
    hibernating_ = false;
  }
}

sim::Task<bool> WalWriter::background_flush(const PgProc& proc) {
  // Completed pages, or the latest asynchronous commit if nothing else is pending.
  const Lsn insert = wal_.insert_lsn();
  Lsn target = insert - insert % kWalPageBytes;
  if (target <= wal_.flush_lsn()) target = std::min(async_commit_lsn_, insert);
  if (target <= wal_.flush_lsn()) co_return false;
  bool do_flush = true;
  if (version_.wal_writer_flush_after() && config_.wal_writer_flush_after > 0) {
    // 9.6+: flush only if wal_writer_delay passed since the last flush or enough WAL is pending.
    do_flush = sim_.now() - last_background_flush_ >= config_.wal_writer_delay ||
               target - wal_.flush_lsn() >= config_.wal_writer_flush_after || target <= async_commit_lsn_;
  }
  // Someone else's write may cover the target meanwhile: then this round wrote nothing itself.
  if (!co_await wal_.background_write(proc, target, do_flush)) co_return true;
  if (do_flush) last_background_flush_ = sim_.now();
  co_return true;
}

}  // namespace ckptsim::postgres
