// scenarios/resolve.cpp
//
// One grid point, from layers to a Scenario. Component preset files are
// cached in PresetFiles, and so are their problems, so that a grid of a
// hundred points reads each file once yet every point that uses a broken
// file fails (the loader drops the repeated messages).
#include "scenarios/resolve.h"

#include "models/pgbench/report.h"
#include "models/postgres/version.h"
#include "scenarios/applicable.h"
#include "scenarios/limits.h"
#include "scenarios/version_gates.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ckptsim::scenarios {

namespace {

// The preset a selector setting names, as written in the layers, or the
// built-in default when no layer sets it.
std::string chosen(const Layers& layers, const std::string& section, const std::string& key,
                   const std::string& fallback) {
  if (!layers.has(section, key)) return fallback;
  const json& value = layers.section(section).at(key);
  return value.is_string() ? value.get<std::string>() : shown(value);
}

// Lays a component preset's settings under the explicit ones.
void lay_preset_under(Layers& layers, const std::string& kind, const std::string& name, PresetFiles& presets,
                      Errors& errors) {
  const std::vector<std::string>& known = presets.names(kind);
  if (std::find(known.begin(), known.end(), name) == known.end()) return;  // the schema reports it
  const json* settings = presets.section(kind, name, errors);
  if (settings == nullptr) return;
  const std::string label = PresetFiles::label(kind, name);
  for (const auto& [key, value] : settings->items()) {
    layers.set_under(kind, key, value, label + ": /" + kind + "/" + key);
  }
}

disk::DeviceConfig read_device(const std::string& name, const Schemas& schemas, PresetFiles& presets, Errors& errors) {
  disk::DeviceConfig device;
  device.name = name;
  const json* settings = presets.section("device", name, errors);
  if (settings == nullptr) return device;
  schemas.device.parse(*settings, Origins(PresetFiles::label("device", name) + ": /device"), device, errors);
  device.description = presets.description("device", name);
  return device;
}

// The rows of a part the host does not have (a cloud volume's, the
// instance's limits) are left out: a host without them resolves as before
// they existed.
void erase_rows(json& section, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) section.erase(key);
}

json normalise_device(const disk::DeviceConfig& device, const Schemas& schemas) {
  json out = {{"name", device.name}, {"description", device.description}};
  const json settings = schemas.device.normalise(device);
  for (const auto& [key, value] : settings.items()) out[key] = value;
  if (!device.volume.present()) erase_rows(out, part_keys(describe_volume, kVolumePrefix));
  return out;
}

// A device without a throttle resolves as before blk-throttle was modelled.
json normalise_os(const os::OsConfig& os, const Schemas& schemas) {
  json out = schemas.os.normalise(os);
  if (!os.blkio_throttle.enabled()) erase_rows(out, part_keys(describe_blkio_throttle, kBlkioThrottlePrefix));
  if (!os.wal_blkio_throttle.enabled()) erase_rows(out, part_keys(describe_blkio_throttle, kWalBlkioThrottlePrefix));
  return out;
}

json normalise_hardware(const HardwareConfig& hardware, const Schemas& schemas) {
  json out = schemas.hardware.normalise(hardware);
  if (!hardware.instance.limited()) erase_rows(out, part_keys(describe_io_limits, kInstancePrefix));
  return out;
}

// pgbench runs for -T seconds or -t transactions per client, never both.
void check_run_length(const Layers& layers, const std::string& section, pgbench::PgbenchConfig& load, Errors& errors) {
  const bool has_duration = layers.has(section, "duration");
  const bool has_transactions = layers.has(section, "transactions");
  if (has_duration && has_transactions) {
    errors.add(layers.origins(section).of("transactions"),
               "cannot be set together with duration (" + layers.origins(section).of("duration") +
                   "): pgbench runs for a duration or a number of transactions");
  } else if (has_transactions) {
    load.duration = 0;
  }
}

// More threads than clients: pgbench 9.5+ lowers -j to -c ("Don't need more
// threads than there are clients", pgbench.c main), with a note here since
// pgbench says nothing; pgbench 9.0-9.4 refuses a client count that is not a
// multiple of the thread count, as 4 clients on 8 threads are not.
void check_threads(const Layers& layers, const std::string& section, pgbench::PgbenchConfig& load,
                   const std::string& version, Errors& errors, std::vector<std::string>& notes) {
  if (load.threads <= load.clients) return;
  if (pgbench::version_num(version) >= 905) {
    notes.push_back(fmt::format("{}: {} threads for {} clients: pgbench {} runs {} threads, one per client",
                                layers.origins(section).of("threads"), load.threads, load.clients, version,
                                load.clients));
    load.threads = load.clients;
    return;
  }
  const std::string refusal = fmt::format("pgbench {} refuses it: number of clients ({}) must be a multiple of number "
                                          "of threads ({})",
                                          version, load.clients, load.threads);
  // Blame the setting the user wrote in this section (warmup inherits both).
  if (layers.has(section, "threads") || !layers.has(section, "clients")) {
    errors.add(layers.origins(section).of("threads"),
               std::to_string(load.threads) + " is more than clients (" + std::to_string(load.clients) + "); " +
                   refusal);
  } else {
    errors.add(layers.origins(section).of("clients"),
               std::to_string(load.clients) + " is less than threads (" + std::to_string(load.threads) + "); " +
                   refusal);
  }
}

// pgbench's connections against max_connections (all of which a superuser may take).
void check_connections(const Layers& layers, const std::string& section, const pgbench::PgbenchConfig& load,
                       const postgres::PostgresConfig& server, Errors& errors) {
  if (load.clients <= server.max_connections) return;
  errors.add(layers.origins(section).of("clients"),
             fmt::format("{} connections are more than postgres.max_connections ({}): the server refuses connection {} "
                         "(\"FATAL: sorry, too many clients already\"); raise max_connections or lower clients",
                         load.clients, server.max_connections, server.max_connections + 1));
}

// A pgbench section's own checks: its length, its threads (against the
// scenario's pgbench version) and its connections (against the server's).
void check_load(const Layers& layers, const std::string& section, pgbench::PgbenchConfig& load, Scenario& s,
                bool postgres_ok, Errors& errors) {
  check_run_length(layers, section, load, errors);
  check_threads(layers, section, load, s.postgres.version, errors, s.notes);
  if (postgres_ok) check_connections(layers, section, load, s.postgres, errors);
}

// A -T run shorter than one -P interval would report nothing.
void check_duration_covers_progress(const Layers& layers, const pgbench::PgbenchConfig& load, Errors& errors) {
  if (load.transactions > 0 || load.duration >= load.progress) return;
  errors.add(layers.origins("pgbench").of("duration"),
             format_duration(load.duration) + " is shorter than one progress interval (" +
                 format_duration(load.progress) + "): the run would report nothing");
}

// 9.5 to 10 read a bare max_wal_size / min_wal_size as 16 MB segments
// (GUC_UNIT_XSEGS); the schema reads MB, so such a number becomes its size
// before parsing, keeping where it was set.
void read_wal_sizes_as_segments(Layers& layers, const std::string& version_text) {
  const postgres::Version version(version_text);
  if (!version.has_max_wal_size() || version.at_least(110000)) return;
  for (const char* key : {"max_wal_size", "min_wal_size"}) {
    const json& raw = layers.section("postgres").value(key, json());
    if (!raw.is_number_integer() || raw.get<std::int64_t>() < 0 || raw.get<std::int64_t>() > (std::int64_t{1} << 40))
      continue;  // anything else gets the schema's own error
    const std::string where = layers.origins("postgres").of(key);
    layers.set("postgres", key, std::to_string(raw.get<std::int64_t>() * 16) + "MB", where);
  }
}

// The WAL-size settings a version has. checkpoint_segments went away in 9.5,
// where max_wal_size / min_wal_size came in, counted in 16 MB segments when
// given without a unit until 10 (GUC_UNIT_XSEGS) and in MB from 11.
void check_wal_size_settings(const Layers& layers, Scenario& s, Errors& errors) {
  const postgres::Version version(s.postgres.version);
  const Origins& origins = layers.origins("postgres");
  if (version.has_max_wal_size()) {
    if (layers.has("postgres", "checkpoint_segments")) {
      const double cct = s.postgres.checkpoint_completion_target;
      const auto equivalent =
          static_cast<sim::Bytes>((2 + cct) * static_cast<double>(s.postgres.checkpoint_segments)) * 16 * sim::kMiB;
      errors.add(origins.of("checkpoint_segments"),
                 "PostgreSQL " + s.postgres.version +
                     " has no checkpoint_segments (9.5 replaced it): set max_wal_size, about (2 + "
                     "checkpoint_completion_target) x checkpoint_segments x 16MB, here " +
                     format_bytes(equivalent));
    }
  } else {
    for (const char* key : {"max_wal_size", "min_wal_size"}) {
      if (!layers.has("postgres", key)) continue;
      errors.add(origins.of(key), "PostgreSQL " + s.postgres.version + " has no " + key +
                                      " (it came with 9.5): set checkpoint_segments");
    }
  }
}

// The kernel's page cache is what RAM leaves after shared memory and the
// rest of the system: below a few tens of MB every write stalls on reclaim
// and dirty limits of almost nothing, and the run does no work.
constexpr sim::Bytes kMinPageCache = 64 * sim::kMiB;
void check_page_cache_room(const Layers& layers, const Scenario& s, Errors& errors) {
  const sim::Bytes room = s.hardware.ram - s.postgres.shared_buffers - s.os.reserved_memory;
  if (room >= kMinPageCache) return;
  errors.add(layers.origins("hardware").of("ram"),
             format_bytes(s.hardware.ram) + " leaves " + (room > 0 ? format_bytes(room) : std::string("nothing")) +
                 " for the page cache after shared_buffers (" + format_bytes(s.postgres.shared_buffers) +
                 ") and os.reserved_memory (" + format_bytes(s.os.reserved_memory) + "); at least " +
                 format_bytes(kMinPageCache) + " is needed");
}

}  // namespace

const json* PresetFiles::load(const std::string& kind, const std::string& name, Errors& errors) {
  const std::string label = PresetFiles::label(kind, name);
  auto it = files_.find(label);
  if (it == files_.end()) {
    Errors found;
    std::optional<json> doc = read_json_file(dir_ / kind / (name + ".json"), label, found);
    if (doc && !doc->is_object()) {
      found.add(label, "is not a JSON object");
      doc.reset();
    } else if (doc) {
      for (const auto& [key, value] : doc->items()) {
        if (key == "description" && value.is_string()) continue;
        if (key == kind && value.is_object()) continue;
        found.add(label + ": /" + key, key == "description" || key == kind
                                           ? shown(value) + " is not " + (key == kind ? "an object" : "a string")
                                           : "unknown key (a " + kind + " preset holds description and " + kind + ")");
      }
      if (!found.empty()) doc.reset();
    }
    problems_[label] = found;
    it = files_.emplace(label, std::move(doc)).first;
  }
  for (const std::string& message : problems_[label].messages()) errors.add_message(message);
  return it->second ? &*it->second : nullptr;
}

const std::vector<std::string>& PresetFiles::names(const std::string& kind) {
  auto it = names_.find(kind);
  if (it == names_.end()) it = names_.emplace(kind, preset_names(kind)).first;
  return it->second;
}

const json* PresetFiles::section(const std::string& kind, const std::string& name, Errors& errors) {
  const json* doc = load(kind, name, errors);
  if (doc == nullptr) return nullptr;
  static const json kEmpty = json::object();
  return doc->contains(kind) ? &doc->at(kind) : &kEmpty;
}

std::string PresetFiles::description(const std::string& kind, const std::string& name) {
  Errors ignored;  // already reported by section()
  const json* doc = load(kind, name, ignored);
  return doc != nullptr && doc->contains("description") ? doc->at("description").get<std::string>() : "";
}

namespace {

// "15.4" -> "15", "9.6.24" -> "9.6": a minor release runs its major release's
// write path. Before 10 the major release is two numbers (versioning policy).
std::optional<std::string> major_release(const std::string& text) {
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == '.') {
      parts.emplace_back();
    } else if (c >= '0' && c <= '9') {
      parts.back() += c;
    } else {
      return std::nullopt;
    }
  }
  if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty() || p.size() > 4; })) {
    return std::nullopt;
  }
  const bool two_part_major = std::stoi(parts[0]) < 10;
  if (parts.size() != (two_part_major ? 3u : 2u)) return std::nullopt;
  return two_part_major ? parts[0] + "." + parts[1] : parts[0];
}

void read_minor_release(Layers& layers, const std::vector<std::string>& releases) {
  if (!layers.has("postgres", "version")) return;
  const std::string text = chosen(layers, "postgres", "version", "");
  const auto major = major_release(text);
  if (major && std::find(releases.begin(), releases.end(), *major) != releases.end()) {
    layers.set("postgres", "version", *major, layers.origins("postgres").of("version"));
  }
}

}  // namespace

Scenario resolve(Layers layers, const Schemas& schemas, PresetFiles& presets, Errors& errors) {
  Scenario s;
  read_minor_release(layers, presets.names("postgres"));
  refuse_unmodelled_values(layers, errors);
  const json written_postgres = layers.section("postgres");  // before the version preset lies under it
  lay_preset_under(layers, "postgres", chosen(layers, "postgres", "version", s.postgres.version), presets, errors);
  read_wal_sizes_as_segments(layers, chosen(layers, "postgres", "version", s.postgres.version));
  lay_preset_under(layers, "os", chosen(layers, "os", "kernel", s.os.kernel), presets, errors);

  const std::size_t before_hardware = errors.size();
  schemas.hardware.parse(layers.section("hardware"), layers.origins("hardware"), s.hardware, errors);
  if (errors.size() == before_hardware) {
    s.device = read_device(s.hardware.device, schemas, presets, errors);
    // The scenario's own device values (a drive calibrated without a preset file of its own).
    schemas.device.parse(layers.section("device"), layers.origins("device"), s.device, errors);
    s.wal_device =
        s.hardware.wal_device.empty() ? s.device : read_device(s.hardware.wal_device, schemas, presets, errors);
  }
  if (errors.size() == before_hardware) check_device_figures(layers, s, errors);
  const bool hardware_ok = errors.size() == before_hardware;

  const std::size_t before_os = errors.size();
  schemas.os.parse(layers.section("os"), layers.origins("os"), s.os, errors);
  if (errors.size() == before_os) check_os_limits(layers, s, errors);
  const bool os_ok = errors.size() == before_os;

  const std::size_t before_postgres = errors.size();
  schemas.postgres.parse(layers.section("postgres"), layers.origins("postgres"), s.postgres, errors);
  if (hardware_ok && errors.size() == before_postgres && s.postgres.shared_buffers >= s.hardware.ram) {
    errors.add(layers.origins("postgres").of("shared_buffers"), format_bytes(s.postgres.shared_buffers) +
                                                                    " does not fit in hardware.ram (" +
                                                                    format_bytes(s.hardware.ram) + ")");
  } else if (hardware_ok && os_ok && errors.size() == before_postgres) {
    check_page_cache_room(layers, s, errors);
  }
  if (errors.size() == before_postgres) check_wal_size_settings(layers, s, errors);
  if (errors.size() == before_postgres) check_version_gates(written_postgres, layers, s, errors);
  const bool postgres_ok = errors.size() == before_postgres;

  const std::size_t before_pgbench = errors.size();
  schemas.pgbench.parse(layers.section("pgbench"), layers.origins("pgbench"), s.pgbench, errors);
  if (errors.size() == before_pgbench) {
    check_load(layers, "pgbench", s.pgbench, s, postgres_ok, errors);
    check_duration_covers_progress(layers, s.pgbench, errors);
  }
  // The warmup's checks would repeat the run's errors: only on a clean run.
  const bool pgbench_ok = errors.size() == before_pgbench;
  if (hardware_ok && postgres_ok && pgbench_ok) check_database_fits(layers, s, errors);

  schemas.init.parse(layers.section("init"), layers.origins("init"), s.init, errors);

  // The warmup inherits the measured run's settings but not its length.
  s.warmup = s.pgbench;
  s.warmup.duration = 0;
  s.warmup.transactions = 0;
  if (layers.has("warmup", "scale")) {
    errors.add(layers.origins("warmup").of("scale"), "the warmup uses the measured run's scale (set pgbench.scale)");
    layers.erase("warmup", "scale");
  }
  const std::size_t before_warmup = errors.size();
  schemas.warmup.parse(layers.section("warmup"), layers.origins("warmup"), s.warmup, errors);
  if (pgbench_ok && errors.size() == before_warmup) {
    check_load(layers, "warmup", s.warmup, s, postgres_ok, errors);
  }

  s.resolved = json::object();
  s.resolved["hardware"] = normalise_hardware(s.hardware, schemas);
  s.resolved["devices"] = {{"data", normalise_device(s.device, schemas)},
                           {"wal", normalise_device(s.wal_device, schemas)}};
  s.resolved["os"] = normalise_os(s.os, schemas);
  s.resolved["postgres"] = schemas.postgres.normalise(s.postgres);
  erase_settings_release_lacks(s.resolved["postgres"], s.postgres);
  s.resolved["pgbench"] = schemas.pgbench.normalise(s.pgbench);
  s.resolved["init"] = schemas.init.normalise(s.init);
  s.resolved["warmup"] = schemas.warmup.normalise(s.warmup);
  return s;
}

}  // namespace ckptsim::scenarios
