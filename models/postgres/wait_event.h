// models/postgres/wait_event.h
//
// What a backend is doing, as pg_stat_activity's wait_event_type and
// wait_event name it (PostgreSQL 15's names, utils/activity/wait_event.c),
// kept by the process itself the way pgstat_report_wait_start / _end set
// MyProc->wait_event_info, but as a clock: every stretch of time is added to
// the state it was spent in, so nothing is lost to sampling.
//
// CPU is a backend with no wait event (running a statement, or runnable and
// waiting for a core); Client:ClientRead is a backend idle between
// statements, waiting for pgbench's next message. IPC:BufferIO is waiting
// for another process's I/O on a buffer (an LWLock tranche before 14).
#pragma once

#include <cstdint>

#include "sim/state_clock.h"

namespace ckptsim::postgres {

enum class WaitEvent : std::uint8_t {
  Cpu,
  ClientRead,
  WalWrite,           // IO: XLogWrite's pwrite
  WalSync,            // IO: XLogWrite's fdatasync
  WalInitWrite,       // IO: XLogFileInit zero-filling a new segment
  WalInitSync,        // IO: its fsync
  DataFileRead,       // IO: mdread
  DataFileWrite,      // IO: mdwrite
  DataFileExtend,     // IO: mdextend
  DataFileFlush,      // IO: mdwriteback (sync_file_range, *_flush_after)
  DataFileSync,       // IO: a backend's own fsync when the request queue is full
  LwWalWrite,         // LWLock: WALWriteLock
  LwBufferContent,    // LWLock: a buffer's content lock
  BufferIo,           // IPC: another process's I/O on the buffer
  CommitDelay,        // Timeout: commit_delay's sleep
  LockExtend,         // Lock: the relation extension lock
  LockTuple,          // Lock: a row's tuple lock, behind another waiter
  LockTransactionId,  // Lock: the transaction that holds the row
  Count
};

// "Type:Event" as PostgreSQL names it ("CPU" for no wait event).
constexpr const char* wait_event_name(WaitEvent e) {
  switch (e) {
    case WaitEvent::Cpu: return "CPU";
    case WaitEvent::ClientRead: return "Client:ClientRead";
    case WaitEvent::WalWrite: return "IO:WALWrite";
    case WaitEvent::WalSync: return "IO:WALSync";
    case WaitEvent::WalInitWrite: return "IO:WALInitWrite";
    case WaitEvent::WalInitSync: return "IO:WALInitSync";
    case WaitEvent::DataFileRead: return "IO:DataFileRead";
    case WaitEvent::DataFileWrite: return "IO:DataFileWrite";
    case WaitEvent::DataFileExtend: return "IO:DataFileExtend";
    case WaitEvent::DataFileFlush: return "IO:DataFileFlush";
    case WaitEvent::DataFileSync: return "IO:DataFileSync";
    case WaitEvent::LwWalWrite: return "LWLock:WALWrite";
    case WaitEvent::LwBufferContent: return "LWLock:BufferContent";
    case WaitEvent::BufferIo: return "IPC:BufferIO";
    case WaitEvent::CommitDelay: return "Timeout:CommitDelay";
    case WaitEvent::LockExtend: return "Lock:extend";
    case WaitEvent::LockTuple: return "Lock:tuple";
    case WaitEvent::LockTransactionId: return "Lock:transactionid";
    default: return "";
  }
}

// The IO wait events: the time a backend spends inside a system call.
constexpr bool is_io_wait(WaitEvent e) { return e >= WaitEvent::WalWrite && e <= WaitEvent::DataFileSync; }

using WaitClock = sim::StateClock<WaitEvent>;
using WaitScope = sim::StateScope<WaitEvent>;

}  // namespace ckptsim::postgres
