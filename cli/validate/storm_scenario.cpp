// cli/validate/storm_scenario.cpp
#include "cli/validate/storm_scenario.h"

#include "cli/validate/storm_run.h"

namespace ckptsim::cli {

namespace {

using json = nlohmann::ordered_json;

const json& need(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw RecordingError(where + ": recording.json has no \"" + key + "\"");
  return j.at(key);
}

std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// "[none] mq-deadline kyber": the bracketed word, as /sys/block/*/queue/scheduler marks the one in use.
std::string scheduler_in_use(const std::string& line) {
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return line;
  return line.substr(open + 1, close - open - 1);
}

}  // namespace

json storm_scenario(const json& recording, const std::string& name) {
  const json& machine = need(recording, "machine", name);
  const json& queue = need(machine, "loop_queue", name);
  const json& pgbench = need(recording, "pgbench", name);
  json doc = json::object();
  doc["description"] = "ckptsim validate: the recording " + name + " (" +
                       text(recording.value("recorded_by", json("scripts/record-storm"))) + ")";
  doc["hardware"] = {{"cpus", need(machine, "cpus", name)},
                     {"ram", std::to_string(need(machine, "ram_kb", name).get<std::int64_t>()) + "kB"},
                     {"device", kStormBackingDevice}};
  // The values as /proc/sys showed them, not a sequence of writes: where a
  // *_bytes sysctl rules, its ratio reads 0, and writing that 0 after the bytes
  // would clear them (dirty_background_ratio_handler), so only the one that rules is given.
  const json& sysctls = need(machine, "sysctl", name);
  std::string sysctl;
  for (const auto& [key, value] : sysctls.items()) {
    const std::string bytes = key.ends_with("_ratio") ? key.substr(0, key.size() - 6) + "_bytes" : "";
    if (!bytes.empty() && sysctls.contains(bytes) && text(sysctls[bytes]) != "0") continue;
    sysctl += key + " = " + text(value) + "\n";
  }
  doc["os"] = {{"kernel", "linux-modern"},
               {"sysctl", sysctl},
               {"scheduler", scheduler_in_use(text(need(queue, "scheduler", name)))},
               {"nr_requests", std::stoll(text(need(queue, "nr_requests", name)))},
               {"max_sectors_kb", text(need(queue, "max_sectors_kb", name)) + "kB"},
               {"read_ahead_kb", text(need(queue, "read_ahead_kb", name)) + "kB"},
               {"blkio_throttle", need(recording, "blkio_throttle", name)}};
  std::string conf;
  for (const auto& [key, value] : need(recording, "postgres", name).items()) {
    std::string quoted;
    for (const char c : text(value)) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    conf += key + " = '" + quoted + "'\n";
  }
  doc["postgres"] = {{"version", "15"}, {"conf", conf}};
  doc["pgbench"] = {{"scale", need(recording, "scale", name)}, {"command", text(need(pgbench, "command", name))}};
  // The select-only warmup the recording ran under the cap, as it ran it.
  for (const json& command : need(recording, "commands", name)) {
    const std::string line = text(command);
    if (line.find("pgbench") != std::string::npos && line.find(" -S ") != std::string::npos) {
      doc["warmup"] = {{"command", line}};
    }
  }
  doc["seed"] = 1;
  return doc;
}

}  // namespace ckptsim::cli
