// scenarios/version_gates.cpp
//
// Sources: each release's guc.c (the parameter table: name, min, max).
//   checkpoint_flush_after, bgwriter_flush_after, backend_flush_after,
//   wal_writer_flush_after: new in 9.6.
//   wal_compression: new in 9.5 as a boolean; pglz / lz4 / zstd from 15.
//   bgwriter_lru_maxpages: 0..1000 until 9.6, 0..INT_MAX/2 from 10.
//   checkpoint_timeout: 30s..1h until 9.5, 30s..1d from 9.6.
//   synchronous_commit: a boolean in 9.0; local from 9.1, remote_write from
//   9.2, remote_apply from 9.6 (synchronous_commit_options).
//   data_checksums: initdb's --data-checksums and the read-only GUC from 9.3
//   (release-9.3.sgml); wal_log_hints from 9.4 (release-9.4.sgml); io_method
//   and io_workers from 18 (release-18.sgml, "Add an asynchronous I/O subsystem").
#include "scenarios/version_gates.h"

#include <array>
#include <string_view>

#include "models/postgres/version.h"

namespace ckptsim::scenarios {

void refuse_unmodelled_values(Layers& layers, Errors& errors) {
  const json& method = layers.section("postgres").value("wal_sync_method", json());
  if (!method.is_string()) return;
  const std::string value = method.get<std::string>();
  std::string why;
  if (value == "open_datasync" || value == "open_sync") {
    why = " is not modelled: WAL written with O_" + std::string(value == "open_sync" ? "SYNC" : "DSYNC") +
          " syncs inside each write(), which ckptsim's file system does not do; use fdatasync (the Linux default) "
          "or fsync";
  } else if (value == "fsync_writethrough") {
    why = " is not available on Linux (PostgreSQL refuses it there); use fdatasync or fsync";
  } else {
    return;
  }
  errors.add(layers.origins("postgres").of("wal_sync_method"), shown(method) + why);
  layers.erase("postgres", "wal_sync_method");
}

namespace {

// The postgres section's integer settings (PostgreSQL's config_int), with a
// unit or without; checkpoint_completion_target and bgwriter_lru_multiplier
// are reals and take fractions in every release.
constexpr std::array kIntegerSettings{
    "shared_buffers",        "checkpoint_timeout",     "checkpoint_segments",    "max_wal_size",
    "min_wal_size",          "checkpoint_warning",     "checkpoint_flush_after", "bgwriter_delay",
    "bgwriter_lru_maxpages", "bgwriter_flush_after",   "backend_flush_after",    "wal_buffers",
    "wal_writer_delay",      "wal_writer_flush_after", "commit_delay",           "commit_siblings"};

// Whether a value's number has a fraction or an exponent ("1.5GB", "1e3",
// 1.5), which parse_int before 12 read with strtol and so refused.
bool has_fraction(const json& value) {
  if (value.is_number_float()) return true;
  if (!value.is_string()) return false;
  const std::string& text = value.get_ref<const std::string&>();
  const std::size_t start = text.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  const std::size_t end = text.find_first_not_of("+-0123456789.eE", start);
  const std::string_view number(text.data() + start, (end == std::string::npos ? text.size() : end) - start);
  return number.find_first_of(".eE") != std::string_view::npos;
}

}  // namespace

void check_version_gates(const json& written, const Layers& layers, const Scenario& s, Errors& errors) {
  const postgres::Version version(s.postgres.version);
  const Origins& origins = layers.origins("postgres");
  const std::string release = "PostgreSQL " + s.postgres.version;
  const auto missing = [&](const char* key, const char* came_with) {
    errors.add(origins.of(key), release + " has no " + key + " (it came with " + came_with + ")");
  };
  if (!version.at_least(90600)) {
    for (const char* key :
         {"checkpoint_flush_after", "bgwriter_flush_after", "backend_flush_after", "wal_writer_flush_after"}) {
      if (written.contains(key)) missing(key, "9.6");
    }
    if (written.contains("checkpoint_timeout") && s.postgres.checkpoint_timeout > sim::kHour) {
      errors.add(origins.of("checkpoint_timeout"), format_duration(s.postgres.checkpoint_timeout) +
                                                       " is out of range for " + release +
                                                       " (30s..1h; 9.6 raised the limit to 1d)");
    }
  }
  if (!version.at_least(90300) && written.contains("data_checksums")) missing("data_checksums", "9.3's initdb");
  if (!version.at_least(90400) && written.contains("wal_log_hints")) missing("wal_log_hints", "9.4");
  if (!version.at_least(180000)) {
    for (const char* key : {"io_method", "io_workers"}) {
      if (written.contains(key)) missing(key, "18");
    }
  }
  if (written.contains("wal_compression")) {
    const json& raw = written.at("wal_compression");
    const bool method = raw.is_string() && (raw == "pglz" || raw == "lz4" || raw == "zstd");
    if (!version.at_least(90500)) {
      missing("wal_compression", "9.5");
    } else if (method && !version.at_least(150000)) {
      errors.add(origins.of("wal_compression"),
                 shown(raw) + " is not a boolean: " + release +
                     "'s wal_compression is on or off (pglz, lz4 and zstd came with 15)");
    }
  }
  if (written.contains("synchronous_commit") && written.at("synchronous_commit").is_string()) {
    const json& raw = written.at("synchronous_commit");
    constexpr std::array<std::pair<const char*, std::pair<int, const char*>>, 3> kLevels{
        {{"local", {90100, "9.1"}}, {"remote_write", {90200, "9.2"}}, {"remote_apply", {90600, "9.6"}}}};
    for (const auto& [level, since] : kLevels) {
      if (raw == level && !version.at_least(since.first)) {
        errors.add(origins.of("synchronous_commit"), shown(raw) + " is not a value of " + release +
                                                         "'s synchronous_commit (it came with " + since.second + ")");
      }
    }
  }
  // PostgreSQL 12's parse_int reads the number with strtod and rounds after
  // the unit ("1.5GB" is 1536MB); before, strtol stopped at the '.'.
  if (!version.at_least(120000)) {
    for (const char* key : kIntegerSettings) {
      if (written.contains(key) && has_fraction(written.at(key))) {
        errors.add(origins.of(key), shown(written.at(key)) + " is not a whole number: " + release +
                                        " refuses a fraction for an integer setting (12 accepts one); write a "
                                        "whole number of a smaller unit, e.g. \"1536MB\" for \"1.5GB\"");
      }
    }
  }
  if (!version.at_least(100000) && written.contains("bgwriter_lru_maxpages") &&
      s.postgres.bgwriter_lru_maxpages > 1000) {
    errors.add(origins.of("bgwriter_lru_maxpages"), std::to_string(s.postgres.bgwriter_lru_maxpages) +
                                                        " is out of range for " + release +
                                                        " (0..1000; 10 raised the limit to 1073741823)");
  }
}

}  // namespace ckptsim::scenarios
