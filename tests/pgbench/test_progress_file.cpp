// pgbench.progress_file: -P's stderr in a file on the data volume. Thread 0
// appends each line with write(2); while the kernel holds that write its
// clients stand still, and the intervals that pass meanwhile get no line
// (threadRun's next_report, 9.6).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/os/fake_device.h"
#include "tests/pgbench/harness.h"

using namespace ckptsim;
using namespace ckptsim::pgbench;
using testing::Machine;

namespace {

constexpr sim::Time kStallFrom = 5500 * sim::kMillisecond;
constexpr sim::Time kStallUntil = 12500 * sim::kMillisecond;

// Stable pages (3.0-3.8) and a flusher that writes back everything dirty
// every 100 ms: the -P line of 6.0 s goes under writeback at ~6.1 s, where
// the device holds it until 12.5 s, so the write of 7.0 s waits until then.
os::OsConfig stable_pages_eager_writeback() {
  os::OsConfig os;
  os.stable_pages = true;
  os.dirty_expire_centisecs = 0;
  os.dirty_writeback_centisecs = 10;
  return os;
}

Machine::DeviceFactory disk_stalling_writes() {
  return [](sim::Simulator& s) {
    return std::make_unique<os::testing::FakeDevice>(
        s, os::testing::FakeDeviceConfig{
               .fixed = 50 * sim::kMicrosecond, .stall_writes_from = kStallFrom, .stall_writes_until = kStallUntil});
  };
}

// The database in shared buffers (pg_prewarm): a select-only load never
// touches the device, so only the -P file can stop it.
Machine stalled_host() {
  return Machine(disk_stalling_writes(), stable_pages_eager_writeback(), InitConfig{.pg_prewarm = true});
}

// Two clients on one thread for 20 s.
PgbenchConfig two_clients(bool progress_file) {
  PgbenchConfig c = testing::select_only(2, 1);
  c.duration = 20 * sim::kSecond;
  c.progress_file = progress_file;
  return c;
}

struct PrintedLine {
  sim::Time written;  // when write(2) returned
  std::string text;
};

struct Observed {
  std::vector<PrintedLine> lines;
  std::vector<std::int64_t> transactions;  // completed, every 100 ms from the start
  std::int64_t file_bytes = -1, file_blocks = -1;
  sim::Duration latency_max = 0;
};

Observed run(Machine& m, const PgbenchConfig& c) {
  Pgbench bench(m.sim, m.cores, m.server, m.tables, c, 1, "run");
  Observed o;
  bench.on_progress_line([&](std::string_view line) { o.lines.push_back({m.sim.now(), std::string(line)}); });
  const sim::Time start = m.sim.now();
  bench.start(start + c.duration);
  for (sim::Time t = start; t < start + c.duration;) {
    t += 100 * sim::kMillisecond;
    m.sim.run_until(t);
    o.transactions.push_back(bench.stats().total().transactions);
  }
  o.latency_max = bench.stats().total().latency_max;
  if (bench.progress_file() != nullptr) {
    o.file_bytes = bench.progress_file()->size_bytes();
    o.file_blocks = bench.progress_file()->size_blocks();
  }
  return o;
}

// "progress: 12.5 s, 0.4 tps, ..." -> "12.5"
std::string elapsed_of(const std::string& line) {
  const auto from = std::string("progress: ").size();
  return line.substr(from, line.find(" s,") - from);
}
double tps_of(const std::string& line) { return std::stod(line.substr(line.find(" s, ") + 4)); }

std::int64_t bytes_of(const std::vector<PrintedLine>& lines) {
  std::int64_t n = 0;
  for (const PrintedLine& l : lines) n += static_cast<std::int64_t>(l.text.size());
  return n;
}

}  // namespace

TEST_CASE("a -P write that the kernel holds stops its thread's clients and drops the lines of the intervals it spans") {
  Machine m = stalled_host();
  const sim::Time start = m.sim.now();
  const Observed o = run(m, two_clients(true));

  // Lines every second up to 7.0 s; that write returns at 12.5 s; the loop then
  // finds next_report (8.0 s) passed and prints at once, for 7.0-12.5 s; 8 to 12 get none.
  std::vector<std::string> expected;
  for (int s = 1; s <= 7; ++s) expected.push_back(std::to_string(s) + ".0");
  expected.push_back("12.5");
  for (int s = 13; s <= 20; ++s) expected.push_back(std::to_string(s) + ".0");
  std::vector<std::string> elapsed;
  for (const PrintedLine& l : o.lines) elapsed.push_back(elapsed_of(l.text));
  CHECK(elapsed == expected);
  REQUIRE(o.lines.size() == expected.size());

  // The first six writes returned at once; the seventh when the device let the 6.0 s line's writeback go.
  for (int i = 0; i < 6; ++i) CHECK(o.lines[static_cast<std::size_t>(i)].written - start == (i + 1) * sim::kSecond);
  // (plus the stalled write's own 128 µs of service: 50 µs + 8 kB at 100 MB/s).
  CHECK(o.lines[6].written - start == kStallUntil + 128125);

  // Blocked from 7.0 to 12.5 s: not one transaction counts (samples at 7.0 ... 12.4 s), not
  // even the commits in flight at 7.0 s, which return to a thread that is not in its loop.
  const auto at = [&](int tenths) { return o.transactions[static_cast<std::size_t>(tenths - 1)]; };
  CHECK(at(70) == at(124));
  CHECK(at(70) - at(60) > 1000);  // the load runs at thousands of tps when the thread is free
  CHECK(at(135) - at(125) > 1000);
  // The transactions that waited for the thread took the whole block.
  CHECK(o.latency_max > 5 * sim::kSecond);
  // The late line divides what completed since 7.0 s (at most the two commits in flight) by 5.5 s.
  CHECK(tps_of(o.lines[7].text) < 0.5);

  // One write per printed line, appended: the file holds their bytes, in one 8 kB block.
  CHECK(o.file_bytes == bytes_of(o.lines));
  CHECK(o.file_blocks == 1);
}

TEST_CASE("without progress_file the same stall does not touch pgbench: no file, no line from the model, clients run") {
  Machine m = stalled_host();
  const Observed o = run(m, two_clients(false));
  CHECK(o.lines.empty());
  CHECK(o.file_bytes == -1);  // no file was created
  const auto at = [&](int tenths) { return o.transactions[static_cast<std::size_t>(tenths - 1)]; };
  CHECK(at(124) - at(71) > 5000);
  CHECK(o.latency_max < 100 * sim::kMillisecond);
}

TEST_CASE("the -P file grows by each printed line's bytes, block by block") {
  // 10 ms intervals for 3 s on a fast SSD, nothing held: 300 lines of ~55 bytes, 3 blocks.
  Machine m(8, 1, {}, 4 * sim::kGiB, InitConfig{.pg_prewarm = true});
  PgbenchConfig c = two_clients(true);
  c.duration = 3 * sim::kSecond;
  c.progress = 10 * sim::kMillisecond;
  const Observed o = run(m, c);
  CHECK(o.lines.size() == 300);
  CHECK(o.file_bytes == bytes_of(o.lines));
  CHECK(o.file_blocks == (o.file_bytes + 8191) / 8192);
  CHECK(o.file_blocks == 3);
}
