// models/postgres/slru.h
//
// The SLRU pages a checkpoint writes, counted for PostgreSQL 18's
// pg_stat_checkpointer.slru_written and its "wrote N SLRU buffers" log words
// (CheckPointGuts -> CheckPointCLOG / CheckPointSUBTRANS -> SimpleLruWriteAll,
// slru.c, clog.c, subtrans.c as of 18).
//
// From the transaction ids assigned since the previous checkpoint: the
// pg_xact pages their commit status was set on (32768 transactions to a page,
// CLOG_XACTS_PER_PAGE) and the pg_subtrans pages ExtendSUBTRANS zeroed for
// them (2048 to a page, SUBTRANS_XACTS_PER_PAGE), each SLRU writing at most
// as many dirty pages as it has buffers (older ones were written when they
// were evicted, not by the checkpoint). Buffers as 17+ size them by default
// (transaction_buffers and subtransaction_buffers 0: SimpleLruAutotuneBuffers
// (512, 1024), shared_buffers / 512 in banks of 16, 16..1024).
//
// Counted only: the pages' writes and fsyncs are not simulated (a few pages
// per checkpoint against thousands of shared buffers). Left out: multixact,
// commit_ts (off by default) and predicate-lock SLRUs, none of which pgbench
// dirties.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ckptsim::postgres {

inline std::int64_t slru_pages_written_by_checkpoint(std::int64_t xids_before, std::int64_t xids_now,
                                                     std::int64_t shared_buffers_pages) {
  constexpr std::int64_t kFirstXid = 3;  // FirstNormalTransactionId
  constexpr std::int64_t kClogXactsPerPage = 32768, kSubtransXactsPerPage = 2048, kBankSize = 16;
  if (xids_now <= xids_before) return 0;
  const std::int64_t first = kFirstXid + xids_before, last = kFirstXid + xids_now - 1;
  const std::int64_t per_divisor = shared_buffers_pages / 512;
  const std::int64_t buffers = std::clamp<std::int64_t>(per_divisor - per_divisor % kBankSize, kBankSize, 1024);
  const std::int64_t clog_pages = last / kClogXactsPerPage - first / kClogXactsPerPage + 1;
  // ExtendSUBTRANS zeroes a page when the new xid is its first one.
  const std::int64_t subtrans_zeroed = last / kSubtransXactsPerPage - (first - 1) / kSubtransXactsPerPage;
  return std::min(clog_pages, buffers) + std::min(subtrans_zeroed, buffers);
}

}  // namespace ckptsim::postgres
