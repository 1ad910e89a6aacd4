// cli/calibrate/fio_jobs.h
//
// The jobs of scripts/calibrate.fio, by the names fio reports them under:
// what `ckptsim calibrate` reads from fio's JSON and runs again on the fitted
// device (models/os/direct_io_bench.h) to check the fit. The job file and
// this table must agree; calibrate checks each job's rw, bs and iodepth
// against it when fio reports them.
#pragma once

#include <array>
#include <string_view>

#include "sim/time.h"

namespace ckptsim::cli {

struct CalibrationJob {
  std::string_view name;
  std::string_view rw;  // fio's rw= : randread, randwrite, read, write
  sim::Bytes block;
  int iodepth;
  bool fdatasync;  // fio's fdatasync=1: a cache flush after each write
  bool write() const { return rw == "randwrite" || rw == "write"; }
  bool random() const { return rw == "randread" || rw == "randwrite"; }
};

inline constexpr std::array<CalibrationJob, 11> kCalibrationJobs{{
    {"randread-4k-qd1", "randread", 4 * sim::kKiB, 1, false},
    {"randread-4k-qd32", "randread", 4 * sim::kKiB, 32, false},
    {"randwrite-4k-qd1", "randwrite", 4 * sim::kKiB, 1, false},
    {"randwrite-4k-qd32", "randwrite", 4 * sim::kKiB, 32, false},
    {"randread-8k-qd1", "randread", 8 * sim::kKiB, 1, false},
    {"randread-8k-qd32", "randread", 8 * sim::kKiB, 32, false},
    {"randwrite-8k-qd1", "randwrite", 8 * sim::kKiB, 1, false},
    {"randwrite-8k-qd32", "randwrite", 8 * sim::kKiB, 32, false},
    {"seqread-128k", "read", 128 * sim::kKiB, 1, false},
    {"seqwrite-128k", "write", 128 * sim::kKiB, 1, false},
    {"fsync-8k", "write", 8 * sim::kKiB, 1, true},
}};

}  // namespace ckptsim::cli
