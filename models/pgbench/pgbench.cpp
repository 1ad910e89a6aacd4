#include "models/pgbench/pgbench.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "models/pgbench/page_accesses.h"
#include "models/pgbench/report.h"
#include "models/pgbench/scripts.h"

namespace ckptsim::pgbench {

namespace {
// The latest time a -R schedule reaches: half the simulated clock's range (146 years).
constexpr sim::Time kScheduleHorizon = std::numeric_limits<sim::Time>::max() / 2;
}  // namespace

namespace {
// Room for the -P file: no -P line reaches this many bytes; a -t run's length is unknown.
constexpr std::int64_t kProgressLineRoom = 256;
constexpr std::int64_t kProgressFileRoomByCount = 1LL << 30;
}  // namespace

struct Pgbench::Thread {
  Thread(sim::Simulator& sim, std::uint64_t seed, const std::string& name, std::size_t i)
      : index(i), loop(sim, 1), rng(seed, name) {}
  std::size_t index;      // pgbench's thread number: its aggregate log is pgbench_log.PID[.index]
  sim::Resource loop;     // the thread's event loop: one client's work at a time
  sim::Random rng;        // the throttling schedule
  sim::Time trigger = 0;  // -R: the next scheduled start on this thread
  bool in_write = false;  // inside write(2) of a -P line: out of its loop
};

struct Pgbench::Client {
  Client(int client_id, Thread& t, postgres::Backend& b, std::uint64_t seed, const std::string& name)
      : id(client_id), thread(t), backend(b), rng(seed, name) {}
  int id;
  Thread& thread;
  postgres::Backend& backend;
  sim::Random rng;  // the script's variables
};

Pgbench::Pgbench(sim::Simulator& sim, sim::Resource& cpus, postgres::Server& server, PgbenchTables& tables,
                 const PgbenchConfig& config, std::uint64_t seed, const std::string& name)
    : sim_(sim),
      cpus_(cpus),
      server_(server),
      tables_(tables),
      config_(config),
      stats_(static_cast<std::size_t>(std::min(config.threads, config.clients))) {
  const auto nthreads = std::min(config_.threads, config_.clients);
  for (std::int64_t t = 0; t < nthreads; ++t)
    threads_.push_back(
        std::make_unique<Thread>(sim, seed, fmt::format("pgbench/{}/thread{}", name, t), static_cast<std::size_t>(t)));
  // pgbench 9.6+: client c runs on thread c * nthreads / nclients, spreading them evenly.
  for (std::int64_t c = 0; c < config_.clients; ++c) {
    Thread& thread = *threads_[static_cast<std::size_t>(c * nthreads / config_.clients)];
    clients_.push_back(std::make_unique<Client>(static_cast<int>(c), thread, server_.connect(), seed,
                                                fmt::format("pgbench/{}/client{}", name, c)));
  }
  if (config_.progress_file) {
    const std::int64_t room = config_.transactions > 0 ? kProgressFileRoomByCount
                                                       : (config_.duration / config_.progress + 2) * kProgressLineRoom;
    progress_file_ = server_.create_host_file(name == "run" ? "pgbench.log" : fmt::format("pgbench-{}.log", name),
                                              fmt::format("pgbench ({})", name), room);
  }
}

Pgbench::~Pgbench() = default;

std::vector<const postgres::Backend*> Pgbench::backends() const {
  std::vector<const postgres::Backend*> out;
  for (const auto& c : clients_) out.push_back(&c->backend);
  return out;
}

void Pgbench::start(sim::Time end) {
  for (auto& thread : threads_) thread->trigger = sim_.now();
  for (auto& client : clients_) {
    ++clients_running_;
    sim_.spawn(client_main(*client, end));
  }
  if (progress_file_) sim_.spawn(report_progress(*threads_.front(), end));
}

sim::Duration Pgbench::statement_cpu(Statement statement) const {
  const sim::Duration parse = config_.protocol == Protocol::Prepared ? 0 : config_.cpu_parse;
  switch (statement) {
    case Statement::Begin: return config_.cpu_begin_end;
    case Statement::End: return config_.cpu_begin_end + config_.cpu_commit;
    case Statement::SelectAccounts: return parse + config_.cpu_select;
    case Statement::InsertHistory: return parse + config_.cpu_insert;
    default: return parse + config_.cpu_update;
  }
}

Pgbench::TxStart Pgbench::prepare_throttle(Client& c, sim::Time end, sim::Duration mean_gap) {
  const bool by_count = config_.transactions > 0;
  if (config_.rate <= 0) return {!by_count && sim_.now() >= end ? TxStart::Stop : TxStart::Run, sim_.now()};
  // A gap is at most 37 means (-ln of the smallest uniform draw); past the
  // simulator's horizon (146 years) a transaction never starts: pgbench would
  // wait that long too, and the sum must not wrap.
  const sim::Duration gap = c.thread.rng.exponential_duration(mean_gap);
  c.thread.trigger = gap >= kScheduleHorizon - c.thread.trigger ? kScheduleHorizon : c.thread.trigger + gap;
  const sim::Time scheduled = c.thread.trigger;
  if (scheduled >= kScheduleHorizon || (!by_count && scheduled >= end)) return {TxStart::Stop, scheduled};
  // -L: a transaction already later than the limit when its turn comes is skipped.
  if (config_.latency_limit > 0 && scheduled < sim_.now() - config_.latency_limit) {
    stats_.record_skipped(c.thread.index);
    return {TxStart::Skip, scheduled};
  }
  return {TxStart::Run, scheduled};
}

sim::Process Pgbench::client_main(Client& c, sim::Time end) {
  const bool by_count = config_.transactions > 0;
  // -R: mean gap of each thread's Poisson schedule, 1e6 * nthreads / rate µs.
  // A rate so low (pgbench takes down to any positive value) that the mean gap
  // passes the horizon is a schedule that never starts a transaction.
  const double gap_ns = config_.rate > 0
                            ? static_cast<double>(sim::kSecond) * static_cast<double>(threads_.size()) / config_.rate
                            : 0.0;
  const auto mean_gap = static_cast<sim::Duration>(std::min(gap_ns, static_cast<double>(kScheduleHorizon) / 64));
  const auto script = script_statements(config_.builtin);
  postgres::Backend& be = c.backend;
  const sim::UniformInt draw_aid(0, tables_.accounts_rows - 1), draw_tid(0, tables_.tellers_rows - 1),
      draw_bid(0, tables_.branches_rows - 1);

  for (std::int64_t done = 0; !by_count || done < config_.transactions;) {
    // CSTATE_PREPARE_THROTTLE / CSTATE_THROTTLE.
    const TxStart start = prepare_throttle(c, end, mean_gap);
    if (start.action == TxStart::Stop) break;
    if (start.action == TxStart::Skip) {
      if (by_count) ++done;
      continue;
    }
    if (start.scheduled > sim_.now()) co_await sim_.sleep_until(start.scheduled);
    // CSTATE_START_TX's txn_begin: under -R, when the thread's loop gets round
    // to the client, so time spent waiting for the loop (another client's
    // round trip, or its disconnect) is lag; without -R, txn_scheduled is
    // txn_begin and lag is 0.
    sim::Time begin = start.scheduled;
    bool first_statement = true;

    // CSTATE_START_TX: the script's variables.
    ScriptState vars;
    vars.aid = draw_aid(c.rng);
    vars.tid = draw_tid(c.rng);
    vars.bid = draw_bid(c.rng);
    for (const Statement st : script) {
      // CSTATE_START_COMMAND: the thread's side of the round trip (its event
      // loop is busy meanwhile), then the server's CPU for the statement.
      {
        const auto serving = co_await c.thread.loop.hold();
        if (config_.rate > 0 && first_statement) begin = sim_.now();
        first_statement = false;
        co_await cpus_.use(config_.cpu_client);
      }
      be.begin_statement();
      co_await cpus_.use(statement_cpu(st));
      // CSTATE_WAIT_RESULT: the backend executes it.
      for (const PageAccess& a : plan_statement(st, vars, tables_, config_.hot_update_ratio, c.rng)) {
        switch (a.kind) {
          case PageAccess::Kind::Read:
            if (!be.read_if_cached(a.rel, a.block, a.sets_hints)) co_await be.read(a.rel, a.block, a.sets_hints);
            break;
          case PageAccess::Kind::Modify: co_await be.modify(a.rel, a.block, a.record_bytes, a.sets_hints); break;
          case PageAccess::Kind::Insert: co_await be.insert(a.rel, static_cast<int>(a.block), a.record_bytes); break;
          case PageAccess::Kind::LockRow: co_await be.lock_row(a.rel, a.block); break;
          case PageAccess::Kind::Commit: co_await be.commit(); break;
        }
      }
      be.end_statement();
    }
    if (!script_writes(config_.builtin)) be.end_read_only();

    // CSTATE_END_TX: the thread reads the result in its loop, not while it is inside write(2).
    if (c.thread.in_write) co_await c.thread.loop.use(0);
    const sim::Duration latency = sim_.now() - start.scheduled;
    stats_.record(latency, begin - start.scheduled, config_.latency_limit > 0 && latency > config_.latency_limit,
                  c.thread.index);
    ++done;
  }

  // CSTATE_FINISHED's finishCon: closing the connection keeps the thread
  // busy, its other clients wait (E4). After -t's last transaction, after
  // -T's end, and under -R -T as soon as the next scheduled start falls
  // beyond the end (CSTATE_PREPARE_THROTTLE), which is before the end.
  co_await c.thread.loop.use(config_.disconnect_time);
  if (--clients_running_ == 0) {
    finished_at_ = sim_.now();
    if (stop_when_finished_) sim_.stop();
  }
}

// threadRun's progress report, made by thread 0 for all threads (9.6's
// pgbench.c; printProgressReport from 12 on, the same figures): `now` is read
// when the loop gets to it, the line covers the time since the last report,
// and next_report skips every interval that `now` has passed.
sim::Process Pgbench::report_progress(Thread& thread, sim::Time end) {
  const int major = major_version(server_.config().version);
  const sim::Time thread_start = sim_.now();
  sim::Time last_report = thread_start;
  sim::Time next_report = thread_start + config_.progress;
  TransactionSums last;
  while (next_report <= end) {
    co_await sim_.sleep_until(next_report);
    if (config_.transactions > 0 && clients_running_ == 0) break;
    const auto serving = co_await thread.loop.hold();
    const sim::Time now = sim_.now();
    const TransactionSums cur = stats_.total();
    const TransactionSums window = cur.since(last);
    const double tps = static_cast<double>(window.transactions) / sim::to_seconds(now - last_report);
    const std::string line = progress_line(major, sim::to_seconds(now - thread_start), tps, window, config_) + '\n';
    thread.in_write = true;
    co_await progress_file_->append(static_cast<std::int64_t>(line.size()));
    thread.in_write = false;
    if (progress_sink_) progress_sink_(line);
    last = cur;
    last_report = now;
    do {
      next_report += config_.progress;
    } while (now >= next_report);
  }
}

}  // namespace ckptsim::pgbench
