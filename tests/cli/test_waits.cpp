// waits.csv and io_layers.csv through the binary: the sums hold in every row,
// and runs known to wait on one thing show that thing.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;

namespace {

struct Waits {
  ckptsim::analysis::CsvTable events, layers;
  nlohmann::json summary;
  // Shares of the backends' whole time, from summary.json.
  double share(const std::string& event) const {
    return summary["waits"]["events"][event].get<double>() / summary["waits"]["backend_seconds"].get<double>();
  }
  double io_seconds() const {
    double io = 0;
    for (const auto& [name, s] : summary["waits"]["events"].items())
      if (name.rfind("IO:", 0) == 0) io += s.get<double>();
    return io;
  }
  double layer_share(const std::string& layer) const {
    return summary["waits"]["io_layers"][layer].get<double>() / io_seconds();
  }
};

Waits run(const std::string& scenario, const std::string& name) {
  TempDir tmp("waits-" + name);
  write_text(tmp / "s.json", scenario);
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() + " --quiet", tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return {ckptsim::analysis::read_csv(tmp / "out" / "waits.csv"),
          ckptsim::analysis::read_csv(tmp / "out" / "io_layers.csv"),
          nlohmann::json::parse(slurp(tmp / "out" / "summary.json"))};
}

// Every row of waits.csv sums to clients x 1 s, and its IO:* columns to the
// row of io_layers.csv (each cell is rounded to 1 ms).
void check_sums(const Waits& w, int clients) {
  REQUIRE(w.events.rows.size() == w.layers.rows.size());
  REQUIRE(w.events.header.size() == 19);
  CHECK(w.layers.header == std::vector<std::string>{"time_s", "balance_dirty_pages", "request_slot", "scheduler",
                                                    "device", "journal", "reclaim", "other"});
  for (std::size_t r = 0; r < w.events.rows.size(); ++r) {
    double all = 0, io = 0, layers = 0;
    for (std::size_t c = 1; c < w.events.header.size(); ++c) {
      const double v = std::stod(w.events.rows[r][c]);
      CHECK(v >= 0);
      all += v;
      if (w.events.header[c].rfind("IO:", 0) == 0) io += v;
    }
    for (std::size_t c = 1; c < w.layers.header.size(); ++c) layers += std::stod(w.layers.rows[r][c]);
    CHECK(all == doctest::Approx(clients).epsilon(0.01));
    CHECK(layers == doctest::Approx(io).epsilon(0.001).scale(0.02));
  }
  // The totals are exact: backend time is clients x the measured run, and the
  // kernel names a layer for every moment a backend waits in a system call.
  const double seconds = w.summary["pgbench"]["duration_s"].get<double>();
  CHECK(w.summary["waits"]["backend_seconds"].get<double>() == doctest::Approx(clients * seconds).epsilon(1e-9));
  CHECK(w.summary["waits"]["io_layers"]["other"].get<double>() == 0.0);
}

}  // namespace

TEST_CASE("a synchronous commit on a 7200 rpm disk waits for WALSync at the device") {
  // One client, every commit an fdatasync of the WAL: a write into the disk's
  // cache, then a cache flush that waits for the platter.
  const Waits w = run(R"({
    "hardware": {"cpus": 4, "ram": "4GB", "device": "hdd-7200-sata"},
    "postgres": {"version": "15", "shared_buffers": "256MB"},
    "pgbench": {"builtin": "simple-update", "scale": 5, "clients": 1, "threads": 1, "duration": "20s"},
    "seed": 3})",
                      "walsync");
  check_sums(w, 1);
  MESSAGE("WALSync ", w.share("IO:WALSync"), " device ", w.layer_share("device"));
  CHECK(w.share("IO:WALSync") > 0.8);
  CHECK(w.layer_share("device") > 0.8);
  CHECK(w.share("CPU") < 0.1);
}

TEST_CASE("clients updating one branch row wait for each other's transactions") {
  // Scale 1: every tpcb-like transaction updates the only branch row; commits
  // are asynchronous and the device fast, so the row lock is what serializes them.
  const Waits w = run(R"({
    "hardware": {"cpus": 8, "ram": "4GB", "device": "nvme"},
    "postgres": {"version": "15", "shared_buffers": "128MB", "synchronous_commit": false},
    "pgbench": {"builtin": "tpcb-like", "scale": 1, "clients": 6, "threads": 2, "duration": "10s"},
    "seed": 3})",
                      "rowlock");
  check_sums(w, 6);
  const double locks = w.share("Lock:transactionid") + w.share("Lock:tuple");
  MESSAGE("transactionid ", w.share("Lock:transactionid"), " tuple ", w.share("Lock:tuple"));
  // The lock is held from the branch update to the commit, two statements of
  // seven: the others spend about a third of their time waiting for it, more
  // than for anything but CPU.
  CHECK(locks > 0.3);
  CHECK(locks > w.share("Client:ClientRead"));
  CHECK(w.share("Lock:tuple") > 0.1);  // more than one waiter per row: the later ones queue on the tuple lock
  CHECK(w.share("IO:WALSync") == 0.0);
}

TEST_CASE("a read-only run on a database larger than RAM, caches dropped, waits for DataFileRead") {
  const Waits w = run(R"({
    "hardware": {"cpus": 4, "ram": "1GB", "device": "hdd-7200-sata"},
    "os": {"reserved_memory": "64MB"},
    "postgres": {"version": "15", "shared_buffers": "128MB"},
    "pgbench": {"builtin": "select-only", "scale": 40, "clients": 4, "threads": 2, "duration": "20s"},
    "init": {"drop_caches": true},
    "seed": 3})",
                      "reads");
  check_sums(w, 4);
  MESSAGE("DataFileRead ", w.share("IO:DataFileRead"), " scheduler ", w.layer_share("scheduler"), " device ",
          w.layer_share("device"));
  CHECK(w.share("IO:DataFileRead") > 0.8);
  // Four readers, one disk head, but NCQ takes all four reads: they wait at the device, not in the elevator.
  CHECK(w.layer_share("device") > 0.95);
  CHECK(w.share("IO:WALSync") == 0.0);
}
