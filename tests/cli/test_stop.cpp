// The results index written after a run stops on a signal that arrives while
// it is written, not on the one that stopped the run (cli/folder/stop.h, SignalWatch).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/folder/stop.h"

using namespace ckptsim::cli;

namespace {

// What the child's checks came to: 0 when all held, else the number of the first that failed.
int child_checks() {
  install_stop_handlers();
  ::raise(SIGTERM);  // stops "the run"
  const SignalWatch after_the_run;
  try {
    after_the_run.throw_if_signalled();  // the run's signal was answered: the index goes on
  } catch (const Stopped&) {
    return 1;
  }
  ::raise(SIGINT);  // arrives while the index is written
  try {
    after_the_run.throw_if_signalled();
    return 2;
  } catch (const Stopped& e) {
    if (e.reason() != StopReason::interrupt) return 3;
    if (std::string(e.what()) != "interrupted (SIGINT)") return 4;
  }
  return 0;
}

}  // namespace

TEST_CASE("SignalWatch throws Stopped for a signal after its start only") {
  // In a child: the handlers and the signals stay out of this test process.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) ::_exit(child_checks());
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a --max-wall budget beyond the clock's reach is no deadline, not one in the past") {
  // In a child: the deadline is process-wide.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    set_wall_budget(std::chrono::duration<double>(1e10));  // 317 years: wrapped to the past before
    if (stop_requested() != StopReason::none) ::_exit(1);
    set_wall_budget(std::chrono::duration<double>(1e300));
    if (stop_requested() != StopReason::none) ::_exit(2);
    set_wall_budget(std::chrono::duration<double>(0.0));  // an ordinary budget still stops
    ::_exit(stop_requested() == StopReason::max_wall ? 0 : 3);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
