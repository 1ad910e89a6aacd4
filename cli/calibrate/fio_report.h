// cli/calibrate/fio_report.h
//
// What fio 3.x reports in its JSON output (--output-format=json) for the jobs
// of scripts/calibrate.fio: per job, the completed I/Os per second, the
// bandwidth and the completion latency (clat_ns) of its read or write
// direction. fio's fields: "jobs"[i]."jobname", ."read"/."write"."iops",
// ."bw" (KiB/s), ."clat_ns"."mean" and ."percentile"."50.000000" (ns), and
// ."job options"."rw" / ."bs" / ."iodepth" as the job file wrote them.
//
// Refused, with the file's path and the JSON path: text that is not JSON, a
// document without fio's "jobs" array, a job of the table missing or run with
// other options, a direction without a positive iops. Lines before the JSON
// (fio prints some notes on stdout) are passed over.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/calibrate/fio_jobs.h"

namespace ckptsim::cli {

struct FioFigures {
  const CalibrationJob* job = nullptr;
  double iops = 0;      // I/Os per second (fsync-8k: write-and-fdatasync cycles)
  double mb_per_s = 0;  // MiB/s
  double lat_mean_ms = 0;
  double lat_p50_ms = 0;  // 0 when fio reported no percentiles
};

struct FioReport {
  std::string fio_version;       // "fio-3.33", "" if absent
  std::vector<FioFigures> jobs;  // in kCalibrationJobs' order
  const FioFigures& operator[](std::string_view name) const;
};

// A refusal of the input: every problem found, each "PATH: JSON-PATH: what".
struct FioReportError : std::runtime_error {
  explicit FioReportError(std::vector<std::string> all);
  std::vector<std::string> messages;
};

FioReport read_fio_report(const std::filesystem::path& path);
FioReport parse_fio_report(const std::string& text, const std::string& label);

}  // namespace ckptsim::cli
