// models/postgres/proc.h
//
// A PostgreSQL process as the shared-memory code sees it: a reduced PGPROC
// (storage/proc.h). It names the process's OS task, its kind, its
// *_flush_after context and, for backends, the clock of its wait events.
#pragma once

#include <cstdint>

#include "models/os/file_system.h"
#include "models/postgres/wait_event.h"

namespace ckptsim::postgres {

class WritebackContext;

enum class ProcKind : std::uint8_t { Backend, Bgwriter, Checkpointer, WalWriter };

struct PgProc {
  os::OsTask* task = nullptr;
  ProcKind kind = ProcKind::Backend;
  WritebackContext* writeback = nullptr;  // its *_flush_after context, if any
  WaitClock* waits = nullptr;             // kept for backends only
};

// pgstat_report_wait_start, ended by the scope.
inline WaitScope report_wait(const PgProc& proc, WaitEvent e) { return {proc.waits, e}; }

}  // namespace ckptsim::postgres
