#include "cli/run/forked_grid.h"

#include <semaphore.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <new>
#include <span>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "cli/folder/run_files.h"
#include "cli/folder/staged_folder.h"
#include "cli/folder/stop.h"
#include "cli/report/run_profile.h"
#include "cli/run/grid_progress.h"
#include "cli/run/run_point.h"
#include "cli/run/warmup_group.h"

namespace ckptsim::cli {

namespace {

// A point's state, as its processes set it in shared memory.
enum PointState : int { kPending, kRunning, kDone, kStopped, kFailed };

// An array in memory that the forked processes share with this one (MAP_SHARED),
// its elements built in place; process-shared atomics and a semaphore live here.
template <class T>
class SharedArray {
 public:
  explicit SharedArray(std::size_t n) : n_(std::max<std::size_t>(n, 1)) {
    void* p = mmap(nullptr, n_ * sizeof(T), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error(fmt::format("shared memory for the grid: {}", std::strerror(errno)));
    data_ = static_cast<T*>(p);
    for (std::size_t i = 0; i < n_; ++i) new (data_ + i) T();
  }
  ~SharedArray() { munmap(data_, n_ * sizeof(T)); }
  SharedArray(const SharedArray&) = delete;
  SharedArray& operator=(const SharedArray&) = delete;
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> all() { return {data_, n_}; }

 private:
  std::size_t n_;
  T* data_;
};

using ErrorText = std::array<char, 512>;

// Everything the processes of one grid share.
struct Shared {
  Shared(std::size_t points, std::size_t selected, std::size_t groups, int jobs)
      : fractions(selected),
        states(points),
        slot_returned(points),
        seconds(points),
        errors(points),
        slot_handed(groups),
        slots(1) {
    if (sem_init(&slots[0], /*pshared=*/1, static_cast<unsigned>(jobs)) != 0)
      throw std::runtime_error(fmt::format("a semaphore for --jobs: {}", std::strerror(errno)));
    for (std::size_t i = 0; i < points; ++i) states[i] = kPending;  // until its process starts
  }
  SharedArray<std::atomic<double>> fractions;   // by position among the selected points: the bar's
  SharedArray<std::atomic<int>> states;         // PointState
  SharedArray<std::atomic<int>> slot_returned;  // the point's process gave its slot back
  SharedArray<std::atomic<double>> seconds;     // the point's wall time
  SharedArray<ErrorText> errors;                // why it failed
  SharedArray<std::atomic<int>> slot_handed;    // per group: the warmup's slot went to its first point
  SharedArray<sem_t> slots;                     // --jobs simulations at once
};

class Runner {
 public:
  Runner(const ForkedGridInput& in, Shared& shared, std::vector<std::size_t> position)
      : in_(in), shared_(shared), position_(std::move(position)), groups_(warmup_groups(in.plan)) {}

  // The runner process's work: a process per group, at most --jobs simulating at once.
  [[noreturn]] void run_groups() {
    die_with_parent();
    struct Child {
      pid_t pid;
      std::size_t group;
      std::vector<std::size_t> points;
    };
    std::vector<Child> children;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      std::vector<std::size_t> todo;
      for (const std::size_t i : groups_[g].points)
        if (in_.selected[i] && !in_.kept[i]) todo.push_back(i);
      if (todo.empty()) continue;
      if (!take_slot()) break;
      flush_all();
      const pid_t pid = fork();
      if (pid == 0) run_group(g, todo);
      if (pid < 0) {
        for (const std::size_t i : todo) fail(i, fmt::format("cannot start a process: {}", std::strerror(errno)));
        give_slot();
        continue;
      }
      children.push_back({pid, g, todo});
    }
    for (const Child& child : children) {
      const std::string died = wait_for(child.pid);
      if (died.empty()) continue;
      for (const std::size_t i : child.points)
        if (shared_.states[i] < kDone) fail(i, "the process of its warmup " + died);
      if (!shared_.slot_handed[child.group]) give_slot();
    }
    quit();
  }

 private:
  // A group's process: the host and its warmup once, then a copy per point.
  [[noreturn]] void run_group(std::size_t g, const std::vector<std::size_t>& todo) {
    die_with_parent();
    try {
      const scenarios::GridPoint& first = in_.plan.points[todo.front()];
      std::optional<StagedFolder> first_dir(std::in_place, in_.out / first.name);
      // Made before the host (its Simulator charges it) and copied with it into each point's process.
      if (in_.profile) profile_.emplace(make_run_profile());
      const sim::ActiveProfile active(profile_ ? &*profile_ : nullptr);
      Host host = start_host(first.host(), first_dir->path(), options_for(todo.front()));
      if (!host.machine) {
        stopped_in_warmup(*first_dir, todo);
        shared_.slot_handed[g] = 1;
        give_slot();
        quit();
      }
      first_dir.reset();  // nothing in it: the first point's process makes its own
      std::vector<std::pair<pid_t, std::size_t>> children;
      for (std::size_t k = 0; k < todo.size(); ++k) {
        if (k > 0 && !take_slot()) break;
        if (k == 0) shared_.slot_handed[g] = 1;
        if (stop_requested() != StopReason::none) {
          give_slot();
          break;
        }
        flush_all();
        const pid_t pid = fork();
        if (pid == 0) run_measured(host, todo[k]);
        if (pid < 0) {
          fail(todo[k], fmt::format("cannot start a process: {}", std::strerror(errno)));
          give_slot();
          continue;
        }
        children.emplace_back(pid, todo[k]);
      }
      for (const auto& [pid, i] : children) {
        const std::string died = wait_for(pid);
        if (!died.empty() && shared_.states[i] < kDone) fail(i, "its process " + died);
        if (!shared_.slot_returned[i]) give_slot();
      }
    } catch (const std::exception& e) {
      for (const std::size_t i : todo)
        if (shared_.states[i] < kDone) fail(i, e.what());
      if (!shared_.slot_handed[g]) {
        shared_.slot_handed[g] = 1;
        give_slot();
      }
    }
    quit();
  }

  // A point's process: the measured part on this copy of the warmed-up host.
  [[noreturn]] void run_measured(Host& host, std::size_t i) {
    die_with_parent();
    const auto start = std::chrono::steady_clock::now();
    const scenarios::GridPoint& point = in_.plan.points[i];
    shared_.states[i] = kRunning;
    int state = kFailed;
    try {
      StagedFolder staged(in_.out / point.name);
      analysis::write_file_atomically(staged.path() / run_files::kRunRecord, in_.records[i]);
      const RunOutcome outcome = measure_on_host(*host.machine, point.host(), point.scenario, staged.path(),
                                                 options_for(i), start, profile_ ? &*profile_ : nullptr);
      warn_if_any(staged.commit());
      state = outcome.stopped_by == StopReason::none ? kDone : kStopped;
    } catch (const std::exception& e) {
      set_error(i, e.what());
    }
    shared_.seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    shared_.states[i] = state;
    shared_.slot_returned[i] = 1;
    give_slot();
    quit();
  }

  // A stop came during the group's setup or warmup: each point's folder says so, as a single run's would.
  void stopped_in_warmup(StagedFolder& first_dir, const std::vector<std::size_t>& todo) {
    const std::string summary = read_text(first_dir.path() / run_files::kSummaryJson);
    for (std::size_t k = 0; k < todo.size(); ++k) {
      const std::size_t i = todo[k];
      std::optional<StagedFolder> own;
      if (k > 0) own.emplace(in_.out / in_.plan.points[i].name);
      StagedFolder& dir = k == 0 ? first_dir : *own;
      analysis::write_file_atomically(dir.path() / run_files::kRunRecord, in_.records[i]);
      if (k > 0) analysis::write_file_atomically(dir.path() / run_files::kSummaryJson, summary);
      warn_if_any(dir.commit());
      shared_.states[i] = kStopped;
    }
  }

  RunOptions options_for(std::size_t i) {
    return {.print_progress = false,
            .threshold = in_.threshold,
            .fraction = &shared_.fractions[position_[i]],
            .record = in_.records[i],
            .crash_at = in_.crash_at,
            .profile = in_.profile};
  }

  // Waits for a free simulation slot; false when a stop came first.
  bool take_slot() {
    for (;;) {
      if (stop_requested() != StopReason::none) return false;
      timespec until{};
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 200'000'000;
      if (until.tv_nsec >= 1'000'000'000) {
        until.tv_sec += 1;
        until.tv_nsec -= 1'000'000'000;
      }
      if (sem_timedwait(&shared_.slots[0], &until) == 0) return true;
    }
  }
  void give_slot() { sem_post(&shared_.slots[0]); }

  void fail(std::size_t i, const std::string& why) {
    set_error(i, why);
    shared_.states[i] = kFailed;
  }
  void set_error(std::size_t i, const std::string& why) {
    ErrorText& text = shared_.errors[i];
    const std::size_t n = std::min(why.size(), text.size() - 1);
    std::memcpy(text.data(), why.data(), n);
    text[n] = '\0';
  }

  // "" when `pid` exited normally, else how it died.
  static std::string wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) return fmt::format("could not be waited for: {}", std::strerror(errno));
    }
    if (WIFSIGNALED(status))
      return fmt::format("died of signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) return fmt::format("exited with {}", WEXITSTATUS(status));
    return "";
  }

  // The kernel kills this process when the one that forked it dies.
  static void die_with_parent() {
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
  }
  static void flush_all() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
  }
  // A forked process ends here: no destructors, no exit handlers of the process it was copied from.
  [[noreturn]] static void quit() {
    flush_all();
    _exit(0);
  }

  const ForkedGridInput& in_;
  std::optional<sim::Profile> profile_;  // a group's process's, with --profile
  Shared& shared_;
  std::vector<std::size_t> position_;
  std::vector<WarmupGroup> groups_;
};

int signal_for(StopReason reason) {
  switch (reason) {
    case StopReason::interrupt: return SIGINT;
    case StopReason::terminate: return SIGTERM;
    case StopReason::hangup: return SIGHUP;
    default: return 0;  // --max-wall: every process keeps the same deadline
  }
}

const char* how_it_went(int state) {
  switch (state) {
    case kDone: return "done";
    case kStopped: return "stopped";
    default: return "failed";
  }
}

// What each selected point's process left: a complete run's figures read back from its folder, a stop,
// or the error it reported (a kept point has its figures already).
void collect_outcomes(const ForkedGridInput& in, const Shared& shared, const std::vector<std::size_t>& selected,
                      PlanResults& results) {
  for (const std::size_t i : selected) {
    if (in.kept[i]) continue;
    switch (shared.states[i].load()) {
      case kDone:
        if (const auto outcome = finished_run(in.out / in.plan.points[i].name)) {
          results.outcomes[i] = {.stability = outcome->stability,
                                 .events = outcome->events,
                                 .simulated_seconds = outcome->simulated_seconds};
          results.ran[i] = 1;
          results.measured[i] = 1;
        } else {
          results.errors[i] = "its process ended but its folder holds no complete run";
        }
        break;
      case kStopped:
        results.measured[i] = 1;
        results.outcomes[i].stopped_by =
            stop_requested() == StopReason::none ? StopReason::interrupt : stop_requested();
        break;
      case kFailed: results.errors[i] = shared.errors[i].data(); break;
      default: break;  // not started: a stop came first
    }
  }
}

}  // namespace

PlanResults run_forked_grid(const ForkedGridInput& in) {
  const auto& points = in.plan.points;
  const std::size_t n = points.size();
  PlanResults results(n);
  std::vector<std::size_t> position(n, 0), selected;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in.selected[i]) continue;
    position[i] = selected.size();
    selected.push_back(i);
  }
  Shared shared(n, selected.size(), warmup_groups(in.plan).size(), std::max(in.jobs, 1));
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // The runner is forked before this process starts any thread (the progress bar's).
  const pid_t runner = fork();
  if (runner == 0) {
    setpgid(0, 0);
    Runner(in, shared, position).run_groups();
  }
  if (runner < 0) throw std::runtime_error(fmt::format("cannot start the grid's processes: {}", std::strerror(errno)));
  setpgid(runner, runner);

  const GridProgress::Mode mode = !in.progress            ? GridProgress::Mode::off
                                  : isatty(STDERR_FILENO) ? GridProgress::Mode::bar
                                                          : GridProgress::Mode::lines;
  std::optional<GridProgress> progress(std::in_place, shared.fractions.all().first(selected.size()), mode);
  std::vector<char> reported(n, 0);
  for (const std::size_t i : selected) {
    if (!in.kept[i]) continue;
    results.outcomes[i] = {.stability = in.kept[i]->stability,
                           .events = in.kept[i]->events,
                           .simulated_seconds = in.kept[i]->simulated_seconds};
    results.ran[i] = 1;
    reported[i] = 1;
    shared.fractions[position[i]] = 1.0;
    progress->finished(points[i].name, "kept", 0.0);
  }
  bool forwarded = false;
  for (bool done = false; !done;) {
    int status = 0;
    done = waitpid(runner, &status, WNOHANG) == runner;
    for (const std::size_t i : selected) {
      const int state = shared.states[i];
      if (reported[i] || state < kDone) continue;
      reported[i] = 1;
      shared.fractions[position[i]] = 1.0;
      progress->finished(points[i].name, how_it_went(state), shared.seconds[i]);
    }
    if (!forwarded && signal_for(stop_requested()) != 0) {
      kill(-runner, signal_for(stop_requested()));
      forwarded = true;
    }
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  progress.reset();  // the bar's line is cleared before anything else is printed
  collect_outcomes(in, shared, selected, results);
  return results;
}

}  // namespace ckptsim::cli
