// tests/fuzz/fuzz_csv.cpp
//
// libFuzzer target for the readers of per-interval tps: the input is a
// file's text, read as a CSV table, as a header, as a progress.csv's tps
// series (interval inferred and given) and as its totals; as pgbench -P
// output (analysis/progress_line.h); and as a pgbench aggregate log, alone
// and as two threads' logs. Each pgbench reading is then placed on its
// interval grid as `ckptsim analyze` does. std::runtime_error
// "<file>:<line>: ..." is the readers' way to refuse input; any other
// exception, a crash or a sanitizer report is a bug. The header reader, which
// stops early, must agree with the whole-file reader on every file the latter
// accepts. scripts/fuzz runs it on inputs up to 1 MB (-max_len): the -P reader
// once overflowed the stack on a 30000-digit field.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/pgbench_logs.h"
#include "analysis/tps_input.h"

namespace {

using namespace ckptsim::analysis;

template <typename F>
void refused_or_read(F read) {
  try {
    read();
  } catch (const std::runtime_error&) {
    // refused with "<file>:<line>: ...": expected
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto stream = [&] { return std::istringstream(text); };
  refused_or_read([&] {
    auto in = stream();
    const CsvTable table = read_csv(in, "fuzz.csv");
    auto header_in = stream();
    if (read_csv_header(header_in, "fuzz.csv") != table.header) std::abort();
  });
  refused_or_read([&] {
    auto in = stream();
    (void)read_csv_header(in, "fuzz.csv");
  });
  for (const double interval : {0.0, 1.0, 0.25}) {
    refused_or_read([&] {
      auto in = stream();
      (void)read_tps_series(in, "fuzz.csv", interval);
    });
  }
  refused_or_read([&] {
    auto in = stream();
    (void)read_progress_counts(in, "fuzz.csv");
  });
  for (const double interval : {0.0, 1.0, 0.25}) {
    refused_or_read([&] {
      auto in = stream();
      (void)tps_of_pgbench(read_progress_log(in, "fuzz.log", interval), "fuzz.log", interval);
    });
    refused_or_read([&] {
      auto first = stream(), second = stream();
      const std::vector<NamedLog> one{{"pgbench_log.1", &first}},
          two{{"pgbench_log.1", &first}, {"pgbench_log.1.1", &second}};
      (void)tps_of_pgbench(read_aggregate_streams(interval == 1.0 ? two : one, interval), "pgbench_log.1", interval);
    });
  }
  return 0;
}
