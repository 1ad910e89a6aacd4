// tests/scenarios/test_blkio_throttle.cpp
//
// os.blkio_throttle and os.wal_blkio_throttle: the object form, the flat keys
// --set and a grid use, the three pasted forms (cgroup v2 io.max, cgroup v1
// blkio.throttle.*_device, systemd IO*Max=) giving the same limits, and the
// refusals, each naming where the value came from.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {

os::BlkThrottleConfig limits_of(const json& throttle, const std::string& key = "blkio_throttle") {
  return load({{"os", {{key, throttle}}}}).points.at(0).scenario.os.blkio_throttle;
}

bool same(const os::BlkThrottleConfig& a, const os::BlkThrottleConfig& b) {
  return a.read_iops == b.read_iops && a.write_iops == b.write_iops && a.read_bps == b.read_bps &&
         a.write_bps == b.write_bps;
}

std::string only_error(const json& doc) {
  const auto errors = errors_of(doc);
  return errors.size() == 1 ? errors[0] : std::to_string(errors.size()) + " errors";
}

}  // namespace

TEST_CASE("os.blkio_throttle as an object of limits, in the owners' units") {
  const os::BlkThrottleConfig c = limits_of({{"write_iops", 300}, {"read_bps", "40MB"}});
  CHECK(c.write_iops == 300);
  CHECK(c.read_iops == 0);
  CHECK(c.read_bps == 40 * sim::kMiB);
  CHECK(c.write_bps == 0);
  CHECK(c.enabled());
  // resolved (run.json) shows them as the flat keys --set takes.
  const json os = load({{"os", {{"blkio_throttle", {{"write_iops", 300}}}}}}).points.at(0).scenario.resolved.at("os");
  CHECK(os.at("blkio_throttle.write_iops") == 300);
  CHECK(os.at("blkio_throttle.read_bps") == "0");
  CHECK_FALSE(os.contains("wal_blkio_throttle.write_iops"));
}

TEST_CASE("a scenario without limits resolves as before blk-throttle was modelled") {
  const json os = load(json::object()).points.at(0).scenario.resolved.at("os");
  for (const auto& [key, value] : os.items()) CHECK(key.find("blkio_throttle") == std::string::npos);
}

TEST_CASE("--set and grid axes reach a limit by its dotted path") {
  LoadOptions options;
  options.sets = {"os.blkio_throttle.write_iops=300"};
  CHECK(load(json::object(), options).points.at(0).scenario.os.blkio_throttle.write_iops == 300);
  const Plan grid = load({{"grid", {{"os.blkio_throttle.write_iops", {200, 600}}}}});
  REQUIRE(grid.points.size() == 2);
  CHECK(grid.points[0].scenario.os.blkio_throttle.write_iops == 200);
  CHECK(grid.points[1].scenario.os.blkio_throttle.write_iops == 600);
}

TEST_CASE("pasted io.max, blkio.throttle and systemd lines give the same limits as the keys") {
  const os::BlkThrottleConfig keys = limits_of({{"write_iops", 300}, {"write_bps", 4000000}, {"read_iops", 1000}});
  // cgroup v2: any subset in any order; max = none.
  CHECK(same(limits_of("7:0 rbps=max wiops=300 wbps=4000000 riops=1000"), keys));
  CHECK(same(limits_of("echo \"7:0 wiops=300 wbps=4000000 riops=1000\" > /sys/fs/cgroup/pg.slice/io.max"), keys));
  // cgroup v1: one file per limit, as echoed, as `grep . FILE` prints it, or the name above its line.
  CHECK(same(limits_of("echo '7:0 300' > /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device\n"
                       "blkio.throttle.write_bps_device:7:0 4000000\n"
                       "/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device\n"
                       "7:0 1000\n"),
             keys));
  // systemd: K M G T to the base 1000, infinity = none.
  CHECK(same(limits_of("IOWriteIOPSMax=/dev/loop0 300\nIOWriteBandwidthMax=/dev/loop0 4M\n"
                       "IOReadIOPSMax=/dev/loop0 1K\nIOReadBandwidthMax=/dev/loop0 infinity\n"),
             keys));
  // v1 writes 0 to remove a limit; a later line wins.
  CHECK(limits_of("blkio.throttle.write_iops_device 7:0 300\nblkio.throttle.write_iops_device 7:0 0").write_iops == 0);
}

TEST_CASE("pasted limits that the kernel or systemd would refuse are errors naming the line") {
  CHECK(only_error({{"os", {{"blkio_throttle", "7:0 wiops=0"}}}}) ==
        "/os/blkio_throttle: \"wiops=0\": io.max takes a positive number or max (0 is refused, ERANGE)");
  CHECK(only_error({{"os", {{"blkio_throttle", "7:0 wiop=300"}}}}) ==
        "/os/blkio_throttle: \"wiop=300\" is not one of rbps=, wbps=, riops=, wiops= (io.max)");
  CHECK(only_error({{"os", {{"blkio_throttle", "# limits\n7:0 wiops=300\n7:1 wiops=300"}}}}) ==
        "/os/blkio_throttle: line 3: names 7:0 and 7:1: one key holds one device's limits (os.blkio_throttle the "
        "data device's, os.wal_blkio_throttle the WAL device's)");
  CHECK(only_error({{"os", {{"blkio_throttle", "blkio.throttle.write_iops_device 7:0 300MB"}}}}) ==
        "/os/blkio_throttle: blkio.throttle.write_iops_device takes \"MAJ:MIN VALUE\" (e.g. 7:0 300), a plain number");
  CHECK(only_error({{"os", {{"blkio_throttle", "IOWriteIOPSMax=/dev/loop0 3x"}}}}) ==
        "/os/blkio_throttle: \"3x\" is not a number with K, M, G or T (base 1000) or infinity");
  CHECK(only_error({{"os", {{"blkio_throttle", "IODeviceWeight=/dev/loop0 300"}}}}) ==
        "/os/blkio_throttle: \"IODeviceWeight\" is not one of IOReadIOPSMax, IOWriteIOPSMax, IOReadBandwidthMax, "
        "IOWriteBandwidthMax");
  CHECK(only_error({{"os", {{"blkio_throttle", "blkio.throttle.write_iops_device"}}}}) ==
        "/os/blkio_throttle: blkio.throttle.write_iops_device is not followed by its MAJ:MIN VALUE line");
  CHECK(only_error({{"os", {{"blkio_throttle", "wiops 300"}}}}).starts_with(
      "/os/blkio_throttle: \"wiops 300\" is not a cgroup v2 io.max line"));
  CHECK(only_error({{"os", {{"blkio_throttle", 300}}}}) ==
        "/os/blkio_throttle: 300 is not an object of limits (read_iops, write_iops, read_bps, write_bps) or a "
        "pasted io.max, blkio.throttle.*_device or systemd IO*Max= line");
}

TEST_CASE("a limit's key or value that is wrong is refused at its own JSON path") {
  CHECK(only_error({{"os", {{"blkio_throttle", {{"write_iop", 300}}}}}}) ==
        "/os/blkio_throttle/write_iop: unknown setting; did you mean blkio_throttle.write_iops?");
  CHECK(only_error({{"os", {{"blkio_throttle", {{"write_iops", -1}}}}}}) ==
        "/os/blkio_throttle/write_iops: -1 is out of range (0..4294967295)");
  CHECK(only_error({{"os", {{"blkio_throttle", {{"write_bps", "40 furlongs"}}}}}}).starts_with(
      "/os/blkio_throttle/write_bps: \"40 furlongs\" is not a size"));
}

TEST_CASE("os.wal_blkio_throttle needs the WAL on a device of its own") {
  CHECK(only_error({{"os", {{"wal_blkio_throttle", {{"write_iops", 300}}}}}}) ==
        "/os/wal_blkio_throttle/write_iops: the WAL has no device of its own (hardware.wal_device is not set): the "
        "data device's os.blkio_throttle limits the WAL's I/O as well");
  const Scenario s = load({{"hardware", {{"wal_device", "nvme"}}}, {"os", {{"wal_blkio_throttle", "7:16 wiops=500"}}}})
                         .points.at(0)
                         .scenario;
  CHECK(s.os.wal_blkio_throttle.write_iops == 500);
  CHECK_FALSE(s.os.blkio_throttle.enabled());
}
