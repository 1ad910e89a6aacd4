// tests/scenarios/test_units.cpp
//
// PostgreSQL's units: every unit, bare numbers in the base unit, fractions,
// case-sensitivity, overflow, boolean spellings, and printing back.
#include <doctest/doctest.h>

#include "scenarios/units.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;

TEST_CASE("memory units are B, kB, MB, GB, TB in multiples of 1024") {
  CHECK(parse_bytes("1B", 1) == 1);
  CHECK(parse_bytes("1kB", 1) == 1024);
  CHECK(parse_bytes("1MB", 1) == sim::kMiB);
  CHECK(parse_bytes("2GB", 1) == 2 * sim::kGiB);
  CHECK(parse_bytes("1TB", 1) == sim::kTiB);
  CHECK(parse_bytes("128 MB", 1) == 128 * sim::kMiB);  // a space is allowed
}

TEST_CASE("time units are us, ms, s, min, h, d") {
  CHECK(parse_duration("7us", 1) == 7 * sim::kMicrosecond);
  CHECK(parse_duration("200ms", 1) == 200 * sim::kMillisecond);
  CHECK(parse_duration("30s", 1) == 30 * sim::kSecond);
  CHECK(parse_duration("5min", 1) == 5 * sim::kMinute);
  CHECK(parse_duration("1h", 1) == sim::kHour);
  CHECK(parse_duration("1 d", 1) == sim::kDay);
}

TEST_CASE("a bare number is in the setting's base unit") {
  // shared_buffers counts 8kB blocks: 16384 of them are 128MB.
  CHECK(parse_bytes(16384, 8 * sim::kKiB) == 128 * sim::kMiB);
  CHECK(parse_bytes("16384", 8 * sim::kKiB) == 128 * sim::kMiB);
  CHECK(parse_duration(300, sim::kSecond) == 5 * sim::kMinute);
  CHECK(parse_duration("200", sim::kMillisecond) == 200 * sim::kMillisecond);
  CHECK(parse_bytes(0, 8 * sim::kKiB) == 0);
}

TEST_CASE("fractions are rounded to the nearest byte or nanosecond") {
  CHECK(parse_bytes("1.5GB", 1) == 3 * sim::kGiB / 2);
  CHECK(parse_duration("0.5s", 1) == 500 * sim::kMillisecond);
  CHECK(parse_duration(0.5, sim::kSecond) == 500 * sim::kMillisecond);
  CHECK(parse_bytes("0.3B", 1) == 0);
  CHECK(parse_bytes("0.5kB", 1) == 512);
  CHECK(parse_duration("0.0015ms", 1) == 1500);  // 1.5us
}

TEST_CASE("units are case-sensitive and must be known") {
  std::string expected;
  CHECK_FALSE(parse_bytes("2 KB", 1, &expected));
  CHECK(expected ==
        "is not a size (expected a number with one of B, kB, MB, GB, TB, e.g. \"128MB\"; units are case-sensitive)");
  CHECK_FALSE(parse_bytes("2kb", 1));
  CHECK_FALSE(parse_bytes("2 ms", 1));  // a time unit is not a memory unit
  CHECK_FALSE(parse_bytes("GB", 1));    // no number
  CHECK_FALSE(parse_bytes(true, 1));
  CHECK_FALSE(parse_duration("5 minutes", 1, &expected));
  CHECK(expected == "is not a duration (expected a number with one of us, ms, s, min, h, d, e.g. \"5min\")");
  CHECK_FALSE(parse_duration("5M", 1));
  CHECK_FALSE(parse_duration("5kB", 1));
}

TEST_CASE("values beyond a 64-bit count are out of range") {
  std::string expected;
  CHECK_FALSE(parse_bytes("9000000TB", 1, &expected));  // 9.9e18 bytes > 2^63
  CHECK(expected == "is out of range (more bytes than a 64-bit count holds)");
  CHECK_FALSE(parse_bytes("99999999999999999999", 1));
  CHECK_FALSE(parse_bytes(std::int64_t{1} << 62, 8));
  CHECK_FALSE(parse_duration("1e30s", 1, &expected));
  CHECK(expected == "is out of range (more nanoseconds than a 64-bit count holds)");
  CHECK_FALSE(parse_duration(200000, sim::kDay));  // 200000 days ~ 1.7e19 ns
  // The largest byte count still fits.
  CHECK(parse_bytes("9223372036854775807B", 1) == INT64_MAX);
}

TEST_CASE("booleans take PostgreSQL's spellings, case-insensitive") {
  for (const char* yes : {"on", "ON", "true", "True", "yes", "1"}) CHECK(parse_bool(yes) == true);
  for (const char* no : {"off", "Off", "false", "FALSE", "no", "0"}) CHECK(parse_bool(no) == false);
  CHECK(parse_bool(true) == true);
  CHECK(parse_bool(false) == false);
  CHECK(parse_bool(1) == true);
  CHECK(parse_bool(0) == false);
  CHECK_FALSE(parse_bool(2));
  CHECK_FALSE(parse_bool("maybe"));
  CHECK_FALSE(parse_bool(json::array()));
}

TEST_CASE("integers and reals accept JSON numbers and numeric strings only") {
  std::string expected;
  CHECK(parse_integer(4) == 4);
  CHECK(parse_integer("4") == 4);
  CHECK_FALSE(parse_integer("four", &expected));
  CHECK(expected == "is not an integer");
  CHECK_FALSE(parse_integer(4.5));
  CHECK(parse_real("0.9") == 0.9);
  CHECK(parse_real(2) == 2.0);
  CHECK_FALSE(parse_real("fast", &expected));
  CHECK(expected == "is not a number");
}

TEST_CASE("printing uses the largest unit that divides exactly") {
  CHECK(format_bytes(256 * sim::kKiB) == "256kB");
  CHECK(format_bytes(2 * sim::kGiB) == "2GB");
  CHECK(format_bytes(0) == "0");
  CHECK(format_bytes(1536 * sim::kMiB) == "1536MB");  // 1.5GB is not whole in GB
  CHECK(format_bytes(1000) == "1000B");
  CHECK(format_bytes(3 * sim::kTiB) == "3TB");
  CHECK(format_duration(5 * sim::kMinute) == "5min");
  CHECK(format_duration(200 * sim::kMillisecond) == "200ms");
  CHECK(format_duration(0) == "0");
  CHECK(format_duration(90 * sim::kSecond) == "90s");
  CHECK(format_duration(sim::kDay) == "1d");
  CHECK(format_duration(30 * sim::kMicrosecond) == "30us");
  CHECK(format_duration(1500) == "1.5us");  // below a microsecond: a fraction of us
}

TEST_CASE("printed values read back to the same quantity") {
  for (sim::Bytes b : {sim::Bytes{1}, 8 * sim::kKiB, 1536 * sim::kMiB, 16 * sim::kGiB}) {
    CHECK(parse_bytes(format_bytes(b), 1) == b);
  }
  for (sim::Duration d : {sim::Duration{1500}, 7 * sim::kMillisecond, 36 * sim::kHour}) {
    CHECK(parse_duration(format_duration(d), 1) == d);
  }
}
