// cli/calibrate/fio_report.cpp
#include "cli/calibrate/fio_report.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ckptsim::cli {

namespace {

using nlohmann::json;

// fio writes bs as the job file did ("4k", "128k", "8192"): its value in bytes, or -1.
sim::Bytes block_size_bytes(const json& v) {
  if (v.is_number_integer()) return v.get<sim::Bytes>();
  if (!v.is_string()) return -1;
  const std::string s = v.get<std::string>();
  std::size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])) != 0) ++digits;
  if (digits == 0 || digits > 9) return -1;
  const sim::Bytes n = std::stoll(s.substr(0, digits));
  const std::string unit = s.substr(digits);
  if (unit.empty()) return n;
  if (unit == "k" || unit == "K" || unit == "kb" || unit == "KB" || unit == "KiB") return n * sim::kKiB;
  if (unit == "m" || unit == "M" || unit == "mb" || unit == "MB" || unit == "MiB") return n * sim::kMiB;
  return -1;
}

std::string shown(const json& v) {
  const std::string text = v.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

// A job's options, where fio records them, are scripts/calibrate.fio's for that job name: else the
// figures are of another job. `fail(where, what)` records each difference.
void check_job_options(const json& options, const CalibrationJob& job, const std::string& at,
                       const std::function<void(const std::string&, const std::string&)>& fail) {
  if (options.contains("rw") && options["rw"] != job.rw) {
    fail(at + "/job options/rw", fmt::format("{} (expected \"{}\" for {})", shown(options["rw"]), job.rw, job.name));
  }
  if (options.contains("bs") && block_size_bytes(options["bs"]) != job.block) {
    fail(at + "/job options/bs",
         fmt::format("{} (expected {}k for {})", shown(options["bs"]), job.block / sim::kKiB, job.name));
  }
  if (options.contains("iodepth")) {
    const json& depth = options["iodepth"];
    const bool same = (depth.is_string() && depth == std::to_string(job.iodepth)) ||
                      (depth.is_number_integer() && depth == job.iodepth);
    if (!same)
      fail(at + "/job options/iodepth", fmt::format("{} (expected {} for {})", shown(depth), job.iodepth, job.name));
  }
}

}  // namespace

FioReportError::FioReportError(std::vector<std::string> all)
    : std::runtime_error(all.empty() ? "bad fio report" : all.front()), messages(std::move(all)) {}

const FioFigures& FioReport::operator[](std::string_view name) const {
  for (const FioFigures& f : jobs) {
    if (f.job->name == name) return f;
  }
  throw std::logic_error("fio report: no job " + std::string(name));
}

FioReport parse_fio_report(const std::string& text, const std::string& label) {
  std::vector<std::string> errors;
  const auto fail = [&](const std::string& where, const std::string& what) {
    errors.push_back(fmt::format("{}: {}: {}", label, where, what));
  };
  // fio may print notes on stdout before the document: start at the first line that opens one.
  const std::size_t start = text.starts_with("{") ? 0 : text.find("\n{");
  const json doc = json::parse(start == std::string::npos ? text : text.substr(start), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    throw FioReportError(
        {fmt::format("{}: not JSON output of fio (expected `fio --output-format=json` of "
                     "scripts/calibrate.fio)",
                     label)});
  }
  if (!doc.contains("jobs") || !doc["jobs"].is_array()) {
    throw FioReportError(
        {fmt::format("{}: /jobs: missing; not fio's JSON output (expected the \"jobs\" array "
                     "`fio --output-format=json` writes)",
                     label)});
  }
  FioReport report;
  if (doc.contains("fio version") && doc["fio version"].is_string()) report.fio_version = doc["fio version"];
  const json& jobs = doc["jobs"];
  for (const CalibrationJob& job : kCalibrationJobs) {
    std::size_t index = jobs.size();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].is_object() && jobs[i].value("jobname", "") == job.name) index = i;
    }
    if (index == jobs.size()) {
      fail("/jobs", fmt::format("no job named \"{}\" (expected every job of scripts/calibrate.fio)", job.name));
      continue;
    }
    const json& j = jobs[index];
    const std::string at = fmt::format("/jobs/{}", index);
    if (j.contains("job options") && j["job options"].is_object()) check_job_options(j["job options"], job, at, fail);
    const std::string direction = job.write() ? "write" : "read";
    const std::string dir_at = at + "/" + direction;
    if (!j.contains(direction) || !j[direction].is_object()) {
      fail(dir_at, "missing (expected fio's per-direction figures)");
      continue;
    }
    const json& d = j[direction];
    FioFigures f;
    f.job = &job;
    // No drive fio can measure does more than 10 million I/Os a second: a larger figure is not a measurement.
    constexpr double kMaxIops = 1e7;
    if (!d.contains("iops") || !d["iops"].is_number() || !(d["iops"].get<double>() > 0) ||
        !(d["iops"].get<double>() <= kMaxIops)) {
      fail(dir_at + "/iops", fmt::format("{} (expected a number of I/Os per second above 0 and at most 10000000)",
                                         d.contains("iops") ? shown(d["iops"]) : "missing"));
      continue;
    }
    f.iops = d["iops"].get<double>();
    f.mb_per_s = f.iops * static_cast<double>(job.block) / static_cast<double>(sim::kMiB);
    if (d.contains("clat_ns") && d["clat_ns"].is_object()) {
      const json& clat = d["clat_ns"];
      // A latency of an hour or more per I/O is no drive's either (fio's runtime is seconds).
      constexpr double kMaxLatencyNs = 3600e9;
      for (const char* field : {"mean"}) {
        if (clat.contains(field) && clat[field].is_number() &&
            !(clat[field].get<double>() >= 0 && clat[field].get<double>() < kMaxLatencyNs)) {
          fail(dir_at + "/clat_ns/" + field,
               fmt::format("{} (expected nanoseconds from 0 to an hour)", shown(clat[field])));
        }
      }
      if (clat.contains("mean") && clat["mean"].is_number()) f.lat_mean_ms = clat["mean"].get<double>() / 1e6;
      if (clat.contains("percentile") && clat["percentile"].is_object() && clat["percentile"].contains("50.000000") &&
          clat["percentile"]["50.000000"].is_number()) {
        f.lat_p50_ms = clat["percentile"]["50.000000"].get<double>() / 1e6;
      }
    }
    report.jobs.push_back(f);
  }
  if (!errors.empty()) throw FioReportError(std::move(errors));
  return report;
}

FioReport read_fio_report(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw FioReportError(
        {fmt::format("{}: not a regular file (expected fio's JSON output saved to a file)", path.string())});
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw FioReportError({fmt::format("{}: cannot be read", path.string())});
  return parse_fio_report(text.str(), path.string());
}

}  // namespace ckptsim::cli
