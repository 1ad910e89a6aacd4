// tests/fuzz/fuzz_scenario.cpp
//
// libFuzzer target for the scenario loader and the unit parser: the input is
// a scenario file's text, loaded as `ckptsim check` loads it (presets from the
// source tree), and also a setting value as a string, read as every kind of
// quantity. A ScenarioError is the loader's one way to refuse input; any other
// exception, a crash or a sanitizer report is a bug. Printed quantities must
// read back to the same value (format_* is what `check` and summary.json show).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "scenarios/scenario.h"
#include "scenarios/settings.h"
#include "scenarios/units.h"

namespace {

using namespace ckptsim;
using namespace ckptsim::scenarios;

void check_units(const std::string& text) {
  const json value = text;
  for (const sim::Bytes base : {sim::Bytes{1}, kBlock, sim::kKiB, sim::kMiB}) {
    if (const auto bytes = parse_bytes(value, base)) {
      if (parse_bytes(json(format_bytes(*bytes)), 1) != bytes) std::abort();
    }
  }
  for (const sim::Duration base : {sim::Duration{1}, sim::kMillisecond, sim::kSecond, sim::kMinute}) {
    if (const auto duration = parse_duration(value, base)) {
      if (parse_duration(json(format_duration(*duration)), 1) != duration) std::abort();
    }
  }
  std::string expected;
  (void)parse_integer(value, &expected);
  (void)parse_real(value, &expected);
  (void)parse_bool(value);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The shipped presets, wherever the binary is run from.
  ::setenv("CKPTSIM_HOME", CKPTSIM_SOURCE_DIR, 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_units(text);
  LoadOptions options;
  options.max_points = 16;  // a grid point resolves a whole scenario: keep each input fast
  try {
    (void)load_plan_text(text, "fuzz.json", options);
  } catch (const ScenarioError&) {
    // refused with messages: the expected outcome for most inputs
  }
  return 0;
}
