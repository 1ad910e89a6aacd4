#include "cli/pages/index_columns.h"

#include <fmt/format.h>

#include "scenarios/units.h"

namespace ckptsim::cli {

namespace {

using Source = IndexColumn::Source;

const nlohmann::json* lookup(const nlohmann::json& doc, const std::string& pointer) {
  const nlohmann::json::json_pointer at(pointer);
  if (!doc.is_object() || !doc.contains(at)) return nullptr;
  return &doc.at(at);
}

// The column's value in `run` as JSON (null when the run lacks it).
nlohmann::json value_of(const RunEntry& run, const IndexColumn& column) {
  switch (column.source) {
    case Source::setting: {
      const nlohmann::json* settings = lookup(run.record, "/settings");
      const nlohmann::json* value = settings ? lookup(*settings, column.pointer) : nullptr;
      return value ? *value : nlohmann::json();
    }
    case Source::summary: {
      const nlohmann::json* value = lookup(run.summary, column.pointer);
      return value ? *value : nlohmann::json();
    }
    case Source::worst_p99: return run.worst_p99_ms ? nlohmann::json(*run.worst_p99_ms) : nlohmann::json();
    case Source::checkpoints: {
      const nlohmann::json* timed = lookup(run.summary, "/pg_stat_bgwriter/checkpoints_timed");
      const nlohmann::json* requested = lookup(run.summary, "/pg_stat_bgwriter/checkpoints_req");
      if (!timed || !requested || !timed->is_number() || !requested->is_number()) return nullptr;
      return timed->get<double>() + requested->get<double>();
    }
  }
  return nullptr;
}

void flatten(const nlohmann::json& value, const std::string& prefix, nlohmann::ordered_json& out) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) flatten(child, prefix.empty() ? key : prefix + "." + key, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], fmt::format("{}[{}]", prefix, i), out);
  } else {
    out[prefix] = setting_text(value);
  }
}

}  // namespace

const std::vector<IndexColumn>& index_columns() {
  static const std::vector<IndexColumn> columns = {
      {"mean tps", Source::summary, "/stability/tps_mean", 1, ""},
      {"tps stddev", Source::summary, "/stability/tps_stddev", 1, ""},
      {"below threshold", Source::summary, "/stability/pct_below_threshold", 1, "%"},
      {"worst p99", Source::worst_p99, "", 1, "ms"},
      {"latency p50", Source::summary, "/pgbench/latency_ms/p50", 1, "ms"},
      {"latency p90", Source::summary, "/pgbench/latency_ms/p90", 1, "ms"},
      {"latency p99", Source::summary, "/pgbench/latency_ms/p99", 1, "ms"},
      {"latency p99.9", Source::summary, "/pgbench/latency_ms/p99_9", 1, "ms"},
      {"checkpoints", Source::checkpoints, "", 0, ""},
      {"version", Source::setting, "/postgres/version", -1, ""},
      {"shared_buffers", Source::setting, "/postgres/shared_buffers", -1, ""},
      {"checkpoint_timeout", Source::setting, "/postgres/checkpoint_timeout", -1, ""},
      {"max_wal_size", Source::setting, "/postgres/max_wal_size", -1, ""},
      {"checkpoint_sorting", Source::setting, "/postgres/checkpoint_sorting", -1, ""},
      {"flush_after", Source::setting, "/postgres/checkpoint_flush_after", -1, ""},
      {"clients", Source::setting, "/pgbench/clients", -1, ""},
      {"threads", Source::setting, "/pgbench/threads", -1, ""},
      {"rate", Source::setting, "/pgbench/rate", -1, ""},
      {"duration", Source::setting, "/pgbench/duration", -1, ""},
      {"device", Source::setting, "/hardware/device", -1, ""},
  };
  return columns;
}

std::string setting_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return value.dump();
}

std::string cell_text(const RunEntry& run, const IndexColumn& column) {
  const nlohmann::json value = value_of(run, column);
  if (column.decimals >= 0 && value.is_number()) return fmt::format("{:.{}f}", value.get<double>(), column.decimals);
  return setting_text(value);
}

std::optional<double> cell_number(const RunEntry& run, const IndexColumn& column) {
  const nlohmann::json value = value_of(run, column);
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  // "128MB" sorts below "2GB", "30s" below "5min"; a version "9.6" below "13".
  const scenarios::json text = value.get<std::string>();
  if (const auto real = scenarios::parse_real(text)) return real;
  if (const auto bytes = scenarios::parse_bytes(text, 1)) return static_cast<double>(*bytes);
  if (const auto duration = scenarios::parse_duration(text, sim::kSecond)) return sim::to_seconds(*duration);
  return std::nullopt;
}

nlohmann::ordered_json flat_settings(const RunEntry& run) {
  const nlohmann::json* settings = lookup(run.record, "/settings");
  return settings ? flatten_json(*settings) : nlohmann::ordered_json::object();
}

nlohmann::ordered_json flatten_json(const nlohmann::json& value) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  flatten(value, "", out);
  return out;
}

}  // namespace ckptsim::cli
