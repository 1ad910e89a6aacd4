// scenarios/version_gates.cpp
//
// A setting's presence in a release (the "has no X (it came with 9.6)"
// refusals) and whether it is an integer come from its row
// (settings_postgres.cpp); what is here are the values a release refuses.
// Sources: each release's guc.c (the parameter table: name, min, max).
//   wal_compression: new in 9.5 as a boolean; pglz / lz4 / zstd from 15.
//   bgwriter_lru_maxpages: 0..1000 until 9.6, 0..INT_MAX/2 from 10.
//   checkpoint_timeout: 30s..1h until 9.5, 30s..1d from 9.6.
//   synchronous_commit: a boolean in 9.0; local from 9.1, remote_write from
//   9.2, remote_apply from 9.6 (synchronous_commit_options).
#include "scenarios/version_gates.h"

#include <array>
#include <string_view>

#include "models/postgres/version.h"
#include "scenarios/settings.h"

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
  // A setting the release does not have: its row's since / until.
  postgres_rows().each_row([&](const std::string& key, const SettingFacts& facts) {
    if (!written.contains(key) || facts.in_release(version.num()) || facts.other_releases_ignore) return;
    if (version.num() < facts.since) {
      const std::string came_with = facts.came_with.empty() ? release_name(facts.since) : facts.came_with;
      errors.add(origins.of(key), release + " has no " + key + " (it came with " + came_with + ")");
    } else {
      errors.add(origins.of(key), release + " has no " + key + " (it left with " + release_name(facts.until) + ")");
    }
  });
  if (!version.at_least(90600) && written.contains("checkpoint_timeout") &&
      s.postgres.checkpoint_timeout > sim::kHour) {
    errors.add(origins.of("checkpoint_timeout"), format_duration(s.postgres.checkpoint_timeout) +
                                                     " is out of range for " + release +
                                                     " (30s..1h; 9.6 raised the limit to 1d)");
  }
  if (written.contains("wal_compression")) {
    const json& raw = written.at("wal_compression");
    const bool method = raw.is_string() && (raw == "pglz" || raw == "lz4" || raw == "zstd");
    if (method && version.at_least(90500) && !version.at_least(150000)) {
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
    // A row that came with 12 or later was never read with strtol.
    postgres_rows().each_row([&](const std::string& key, const SettingFacts& facts) {
      if (facts.integer && facts.since < 120000 && written.contains(key) && has_fraction(written.at(key))) {
        errors.add(origins.of(key), shown(written.at(key)) + " is not a whole number: " + release +
                                        " refuses a fraction for an integer setting (12 accepts one); write a "
                                        "whole number of a smaller unit, e.g. \"1536MB\" for \"1.5GB\"");
      }
    });
  }
  if (!version.at_least(100000) && written.contains("bgwriter_lru_maxpages") &&
      s.postgres.bgwriter_lru_maxpages > 1000) {
    errors.add(origins.of("bgwriter_lru_maxpages"), std::to_string(s.postgres.bgwriter_lru_maxpages) +
                                                        " is out of range for " + release +
                                                        " (0..1000; 10 raised the limit to 1073741823)");
  }
}

}  // namespace ckptsim::scenarios
