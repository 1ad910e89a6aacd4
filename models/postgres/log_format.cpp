// models/postgres/log_format.cpp
//
// Timestamps, the log line prefix and the log_checkpoints messages.
#include "models/postgres/log_format.h"

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace ckptsim::postgres {

namespace {

constexpr std::int64_t kEpochBase = 1439805600;  // 2015-08-17 10:00:00 UTC, in Unix seconds

// Civil date from days since 1970-01-01 (proleptic Gregorian), by 400-year eras.
void civil_from_days(std::int64_t days, int& year, unsigned& month, unsigned& day) {
  days += 719468;  // shift the epoch to 0000-03-01
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);                 // day of era
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // year of era
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // day of year from March
  const unsigned mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0));
}

// "S.mmm" as LogCheckpointEnd prints an elapsed time.
std::string seconds_ms(const Version& v, sim::Duration d) {
  std::int64_t ms = 0;
  if (v.log_times_round_up()) {
    ms = (d / sim::kMicrosecond + 999) / 1000;  // TimestampDifferenceMilliseconds
  } else {
    ms = d / sim::kMillisecond;  // whole seconds, then microseconds / 1000
  }
  return fmt::format("{}.{:03d}", ms / 1000, ms % 1000);
}

std::string msecs(std::int64_t ms) { return fmt::format("{}.{:03d}", ms / 1000, ms % 1000); }

}  // namespace

std::string log_prefix(sim::Time t, int pid, const char* severity) {
  return fmt::format("{} [{}] {}:  ", log_timestamp(t), pid, severity);
}

std::string log_timestamp(sim::Time t) {
  const std::int64_t ms_total = t / sim::kMillisecond;
  const std::int64_t secs = kEpochBase + ms_total / 1000;
  int year = 0;
  unsigned month = 0;
  unsigned day = 0;
  civil_from_days(secs / 86400, year, month, day);
  const std::int64_t sod = secs % 86400;
  return fmt::format("{:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d}.{:03d} UTC", year, month, day, sod / 3600,
                     sod / 60 % 60, sod % 60, ms_total % 1000);
}

std::string checkpoint_cause(const Version& version, int flags) {
  std::string words;
  const auto add = [&words](std::string_view word) {
    if (!words.empty()) words += ' ';
    words += word;
  };
  if (flags & kCheckpointShutdown) add("shutdown");
  if (flags & kCheckpointImmediate) add("immediate");
  if (flags & kCheckpointForce) add("force");
  if (flags & kCheckpointWait) add("wait");
  if (flags & kCheckpointCauseXlog) add(version.wal_cause_word());
  if (flags & kCheckpointCauseTime) add("time");
  return words;
}

std::string checkpoint_starting_message(const Version& version, int flags) {
  const std::string cause = checkpoint_cause(version, flags);
  return cause.empty() ? "checkpoint starting:" : "checkpoint starting: " + cause;
}

std::string format_lsn(std::int64_t lsn) {
  return fmt::format("{:X}/{:X}", static_cast<std::uint64_t>(lsn) >> 32, static_cast<std::uint64_t>(lsn) & 0xFFFFFFFF);
}

std::string checkpoint_complete_message(const Version& v, const CheckpointEnd& e) {
  std::string m = fmt::format(
      "checkpoint complete: wrote {} buffers ({:.1f}%){}; {} {} added, {} removed, {} recycled; write={} s, "
      "sync={} s, total={} s",
      e.buffers_written, static_cast<double>(e.buffers_written) * 100.0 / static_cast<double>(e.nbuffers),
      v.log_slru_buffers() ? fmt::format(", wrote {} SLRU buffers", e.slru_written) : std::string(), e.segs_added,
      v.wal_file_words(), e.segs_removed, e.segs_recycled, seconds_ms(v, e.write), seconds_ms(v, e.sync),
      seconds_ms(v, e.total));
  if (v.log_sync_stats()) {
    // Per-file fsync times are kept in microseconds; 15+ rounds them up to
    // milliseconds ((us + 999) / 1000), earlier releases print secs.usecs/1000, truncating.
    const std::int64_t round = v.log_times_round_up() ? 999 : 0;
    const std::int64_t longest_ms = (e.longest_sync_us + round) / 1000;
    const std::int64_t average_us = e.sync_files > 0 ? e.total_sync_us / e.sync_files : 0;
    const std::int64_t average_ms = (average_us + round) / 1000;
    m += fmt::format("; sync files={}, longest={} s, average={} s", e.sync_files, msecs(longest_ms), msecs(average_ms));
  }
  if (v.log_distance()) {
    m += fmt::format("; distance={} kB, estimate={} kB",
                     static_cast<std::int64_t>(static_cast<double>(e.distance_bytes) / 1024.0),
                     static_cast<std::int64_t>(e.estimate_bytes / 1024.0));
  }
  if (v.log_lsns()) m += fmt::format("; lsn={}, redo lsn={}", format_lsn(e.checkpoint_lsn), format_lsn(e.redo_lsn));
  return m;
}

}  // namespace ckptsim::postgres
