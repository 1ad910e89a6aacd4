// Refusals said plainly (exit 2, a message naming what is in the way and what
// to do), and a lock whose pid now names another process taken over.
#include <doctest/doctest.h>

#include <unistd.h>

#include <string>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

const char* kShort = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
  "postgres": {"shared_buffers": "64MB"},
  "pgbench": {"scale": 2, "clients": 2, "duration": "2s"},
  "seed": 3
})";

}  // namespace

TEST_CASE("a file where the default output folder goes, and an empty --out, are refused with exit 2") {
  TempDir tmp("refuse-out");
  write_text(tmp / "s.json", kShort);
  write_text(tmp / "out", "");  // a file named out in the working folder
  const auto blocked = run_ckptsim("run " + quoted(tmp / "s.json") + " -q", tmp, "cd " + quoted(tmp.path()) + " &&");
  CHECK(blocked.exit_code == 2);
  CHECK(blocked.err == "error: out/s: cannot be made: " + (tmp / "out").string() + " exists and is not a folder\n");

  const auto empty = run_ckptsim("run " + quoted(tmp / "s.json") + " -q --out ''", tmp);
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("--out: expected a folder path, not \"\"") != std::string::npos);
}

TEST_CASE("a lock naming a live pid that started at another time is stale; a live holder's refusal says how to check") {
  TempDir tmp("refuse-lock");
  write_text(tmp / "s.json", kShort);
  fs::create_directories(tmp / "r");
  // Our own pid is alive, but this test process did not start at tick 1 after boot: a reused pid.
  write_text(tmp / "r" / ".ckptsim.lock", std::to_string(::getpid()) + " 1\n");
  CHECK(run_ckptsim("run " + quoted(tmp / "s.json") + " -q --out " + quoted(tmp / "r"), tmp).exit_code == 0);
  CHECK_FALSE(fs::exists(tmp / "r" / ".ckptsim.lock"));

  // A lock of an older ckptsim (a pid alone) names a live process: refused, with the way out.
  write_text(tmp / "r" / ".ckptsim.lock", std::to_string(::getpid()) + "\n");
  const auto refused = run_ckptsim("run " + quoted(tmp / "s.json") + " -q --out " + quoted(tmp / "r"), tmp);
  CHECK(refused.exit_code == 2);
  const std::string pid = std::to_string(::getpid());
  CHECK(refused.err.find("(`ps -p " + pid + " -o args=` shows what pid " + pid + " is), the lock is stale: remove " +
                         (tmp / "r" / ".ckptsim.lock").string()) != std::string::npos);
}

TEST_CASE("analyze prints the interval as a -P value is written, not a double's last digits") {
  TempDir tmp("refuse-interval");
  write_text(tmp / "p.csv", "time_s,tps\n0.001,100\n0.002,100\n0.003,100\n");
  const auto analyzed = run_ckptsim("analyze " + quoted(tmp / "p.csv"), tmp);
  CHECK(analyzed.exit_code == 0);
  CHECK(analyzed.out.find("(0.001 s intervals)") != std::string::npos);
}
