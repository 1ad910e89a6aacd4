// models/pgbench/pgbench.h
//
// One pgbench invocation (pgbench.c of REL_15_STABLE: main, threadRun,
// advanceConnectionState, processXactStats, finishCon) against the
// simulated server.
//
// Modelled: -c clients, each with its own server connection (a backend);
// -j threads, each an event loop that serves its clients one at a time
// (clients spread over threads as pgbench 9.6+ does), so time that one
// client's work takes on its thread delays the others; -T or -t; closing
// each connection at the end (CSTATE_FINISHED's finishCon, disconnect_time
// on the thread's loop): after -t's last transaction, after -T's end, and
// under -R -T as soon as a client's next scheduled start falls beyond the
// end, so the other clients of the thread wait meanwhile, in the last
// second of a -T run as well as a -t one (E4); -R with a per-thread Poisson
// schedule whose cursor never slips, latency measured from the scheduled
// start (txn_scheduled) and lag up to when the thread's loop gets round to
// the client (txn_begin), so time waiting for the loop is lag; -L skipping
// (under -R) and late counting; -M as
// a CPU cost per statement; the built-in scripts' page accesses (B-tree
// descents, heap pages, HOT or non-HOT updates, history appends, row locks
// on tellers and branches; page_accesses.h) through the PostgreSQL model.
// With progress_file (-P's stderr in a file on the data volume), thread 0
// prints the -P lines itself, as threadRun does (9.4-17): when its loop
// comes round at or after next_report, one line for the time since the last
// one (tps over that time), then next_report moves past now by whole
// intervals, so the intervals that pass while the thread is stuck get no
// line. It appends each line with one write(2) (postgres::HostFile) and its
// clients wait meanwhile: none starts a statement or has its transaction's
// end counted until the write returns. Without it the runner prints a line
// per interval from the sampler (cli/run/run_point.cpp). Left out with it: the
// line of a -T run's last interval when the thread is busy or held at the
// end (the run stops there; pgbench would print it a little later), 9.6's
// "lat -nan" for an interval with no transaction (0.000, as later releases), the
// one write(2) per fprintf of unbuffered stderr (one write per line here).
// Left out: custom scripts, retries and failures (always 0), per-statement
// latencies (-r), connection set-up time (reported as 0).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/pgbench/pgbench_config.h"
#include "models/pgbench/scripts.h"
#include "models/pgbench/tables.h"
#include "models/pgbench/transaction_stats.h"
#include "models/postgres/server.h"
#include "sim/process.h"
#include "sim/random.h"
#include "sim/simulator.h"
#include "sim/sync.h"

namespace ckptsim::pgbench {

class Pgbench {
 public:
  // `name` distinguishes the random streams of the warmup and the measured run.
  Pgbench(sim::Simulator& sim, sim::Resource& cpus, postgres::Server& server, PgbenchTables& tables,
          const PgbenchConfig& config, std::uint64_t seed, const std::string& name);
  ~Pgbench();

  // Connects the clients and starts them now. Without `transactions` they
  // stop starting transactions at `end` (-T); with it, after that many each.
  void start(sim::Time end);
  // With -t: make the simulator's run return when the last client is done,
  // so that the measured run ends there, as pgbench's threads do.
  void stop_simulator_when_finished() { stop_when_finished_ = true; }
  bool finished() const { return clients_running_ == 0; }
  // When the last client closed its connection (with -t).
  sim::Time finished_at() const { return finished_at_; }
  TransactionStats& stats() { return stats_; }
  // The clients' server connections, in client order.
  std::vector<const postgres::Backend*> backends() const;
  const PgbenchConfig& config() const { return config_; }
  // With progress_file: each -P line (with its newline) when thread 0 has written it.
  void on_progress_line(std::function<void(std::string_view line)> sink) { progress_sink_ = std::move(sink); }
  // With progress_file: the file the -P lines go to; nullptr without.
  const postgres::HostFile* progress_file() const { return progress_file_.get(); }

 private:
  struct Thread;
  struct Client;

  // When the next transaction starts (-R's schedule, -L's skipping, -T's end).
  struct TxStart {
    enum Action : std::uint8_t { Run, Skip, Stop } action;
    sim::Time scheduled;  // latency is counted from here
  };
  TxStart prepare_throttle(Client& client, sim::Time end, sim::Duration mean_gap);
  // advanceConnectionState for one client, transaction after transaction.
  sim::Process client_main(Client& client, sim::Time end);
  sim::Process report_progress(Thread& thread, sim::Time end);
  sim::Duration statement_cpu(Statement statement) const;

  sim::Simulator& sim_;
  sim::Resource& cpus_;
  postgres::Server& server_;
  PgbenchTables& tables_;
  PgbenchConfig config_;
  std::vector<std::unique_ptr<Thread>> threads_;
  std::vector<std::unique_ptr<Client>> clients_;
  TransactionStats stats_;
  std::int64_t clients_running_ = 0;
  sim::Time finished_at_ = 0;
  bool stop_when_finished_ = false;
  std::unique_ptr<postgres::HostFile> progress_file_;
  std::function<void(std::string_view)> progress_sink_;
};

}  // namespace ckptsim::pgbench
