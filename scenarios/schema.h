// scenarios/schema.h
//
// The binding of one component's config struct to its setting names, JSON
// types, base units and ranges, declared once per component:
//
//   Schema<PostgresConfig>()
//       .bytes("shared_buffers", &PostgresConfig::shared_buffers, 8 * kKiB, 128 * kKiB)
//       .duration("checkpoint_timeout", &PostgresConfig::checkpoint_timeout, kSecond, ...)
//
// parse() is strict and reports every problem, not just the first: an unknown
// key (with the nearest known name), a value of the wrong type or unit, a
// value out of range. Each message names where the value came from (see
// Origins), the value as written, and what was expected. normalise() prints
// a config back in its owner's units, in declaration order. within() binds
// the rows of a member struct (a device's HddConfig, an IoLimitsConfig under
// "volume_" or "instance_") from that part's own declaration.
//
// A row also carries the facts PostgreSQL's guc_tables.c keeps beside a
// GUC's bounds, so that nothing else lists them again: the release it came
// with (and left with), its context (when a change takes effect), whether it
// is a config_int, or why it is ckptsim's own key rather than a GUC:
//
//       .bytes("checkpoint_flush_after", ...).since(90600).context(Context::Sighup)
//
// The version refusals, the keys a release shows, and the settings a chained
// grid may vary (a reload) are read from these facts (SettingFacts, below).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "scenarios/suggest.h"
#include "scenarios/units.h"
#include "sim/enum_names.h"

namespace ckptsim::scenarios {

// Error messages collected while loading, each "where: what".
class Errors {
 public:
  void add(const std::string& where, const std::string& what) { messages_.push_back(where + ": " + what); }
  void add_message(std::string message) { messages_.push_back(std::move(message)); }
  const std::vector<std::string>& messages() const { return messages_; }
  bool empty() const { return messages_.empty(); }
  std::size_t size() const { return messages_.size(); }

 private:
  std::vector<std::string> messages_;
};

// Where each key of one section came from: "/postgres/shared_buffers" for the
// scenario file unless a layer above it (a preset, --set, a grid point) says
// otherwise.
class Origins {
 public:
  explicit Origins(std::string section_path = "") : section_path_(std::move(section_path)) {}
  void set(const std::string& key, std::string where) { where_[key] = std::move(where); }
  std::string of(const std::string& key) const {
    const auto it = where_.find(key);
    return it != where_.end() ? it->second : section_path_ + "/" + key;
  }

 private:
  std::string section_path_;
  std::map<std::string, std::string> where_;
};

inline constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// GucContext (guc.h), in its order: from internal (never changes) to user
// (any session may SET it). Unset: not a PostgreSQL setting's row.
enum class Context : std::uint8_t { Unset, Internal, Postmaster, Sighup, SuperuserBackend, Backend, Superuser, User };

// As pg_settings.context spells them (GucContext_Names, guc_tables.c).
inline const char* context_name(Context c) {
  switch (c) {
    case Context::Internal: return "internal";
    case Context::Postmaster: return "postmaster";
    case Context::Sighup: return "sighup";
    case Context::SuperuserBackend: return "superuser-backend";
    case Context::Backend: return "backend";
    case Context::Superuser: return "superuser";
    case Context::User: return "user";
    case Context::Unset: break;
  }
  return "model-only";
}

// What one row knows besides how to read its value.
struct SettingFacts {
  int since = 0;          // PG_VERSION_NUM of the release it came with (0: not given)
  int until = 0;          // the release that removed it (0: still there)
  std::string came_with;  // how a refusal names `since`, when more than its release ("9.3's initdb")
  // Outside [since, until) the key is dropped from what `check` shows but not
  // refused: a scenario may name both spellings of one figure (checkpoint_segments
  // and max_wal_size) so that a version axis can cross the release that renamed it.
  bool other_releases_ignore = false;
  // Outside [since, until) the key is dropped from run.json and summary.json as
  // well (the rows modelled after the others, so that the older outputs did not change).
  bool resolved_drops = false;
  Context context = Context::Unset;
  bool integer = false;     // a config_int: parse_int refuses a fraction before 12
  std::string model_only;   // why this is ckptsim's own key, not a GUC (empty for a GUC)
  std::string start_only;   // why ckptsim reads at start only what PostgreSQL reloads

  // A reload (SIGHUP) applies it: PostgreSQL's sighup, superuser and user
  // contexts (the backend ones take effect only in new sessions, which a
  // reload does not start), unless ckptsim's model reads it at start only.
  bool reloadable() const {
    return (context == Context::Sighup || context == Context::Superuser || context == Context::User) &&
           start_only.empty();
  }
  bool in_release(int version_num) const {
    return version_num >= since && (until == 0 || version_num < until);
  }
};

template <class Config>
class Schema {
 public:
  Schema& bytes(std::string name, sim::Bytes Config::*member, sim::Bytes base_unit, sim::Bytes min,
                sim::Bytes max = kNoLimit) {
    return quantity(std::move(name), member, min, max, false, false, format_bytes,
                    [base_unit](const json& v, std::string* e) { return parse_bytes(v, base_unit, e); });
  }
  // PostgreSQL's -1 = "work it out" (wal_buffers), allowed beside [min, max].
  Schema& bytes_or_auto(std::string name, sim::Bytes Config::*member, sim::Bytes base_unit, sim::Bytes min,
                        sim::Bytes max = kNoLimit) {
    return quantity(std::move(name), member, min, max, true, false, format_bytes,
                    [base_unit](const json& v, std::string* e) { return parse_bytes(v, base_unit, e); });
  }
  Schema& duration(std::string name, sim::Duration Config::*member, sim::Duration base_unit, sim::Duration min,
                   sim::Duration max = kNoLimit) {
    return quantity(std::move(name), member, min, max, false, false, format_duration,
                    [base_unit](const json& v, std::string* e) { return parse_duration(v, base_unit, e); });
  }
  Schema& integer(std::string name, std::int64_t Config::*member, std::int64_t min, std::int64_t max = kNoLimit) {
    auto show = [](std::int64_t n) { return std::to_string(n); };
    return quantity(std::move(name), member, min, max, false, true, show,
                    [](const json& v, std::string* e) { return parse_integer(v, e); });
  }
  Schema& real(std::string name, double Config::*member, double min,
               double max = std::numeric_limits<double>::infinity()) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member, min, max](const json& v, Config& out, std::string& expected) {
      const auto real = parse_real(v, &expected);
      if (!real) return false;
      if (*real < min || *real > max) {
        expected = std::isinf(max) ? fmt::format("is out of range (at least {})", min)
                                   : fmt::format("is out of range ({}..{})", min, max);
        return false;
      }
      out.*member = *real;
      return true;
    };
    field.write = [member](const Config& c) { return json(c.*member); };
    fields_.push_back(std::move(field));
    return *this;
  }
  // `also_on`: further words the owner reads as on (synchronous_commit's
  // levels, which all wait for the local flush when there is no standby).
  Schema& boolean(std::string name, bool Config::*member, std::vector<std::string> also_on = {}) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member, also_on = std::move(also_on)](const json& v, Config& out, std::string& expected) {
      if (v.is_string() && std::find(also_on.begin(), also_on.end(), v.get<std::string>()) != also_on.end()) {
        out.*member = true;
        return true;
      }
      const auto flag = parse_bool(v);
      if (!flag) {
        std::string words;
        for (const std::string& word : also_on) words += ", " + word;
        expected = also_on.empty() ? "is not a boolean (expected on/off, true/false, yes/no or 1/0)"
                                   : "is not a boolean (expected on/off, true/false, yes/no, 1/0" + words + ")";
        return false;
      }
      out.*member = *flag;
      return true;
    };
    field.write = [member](const Config& c) { return json(c.*member); };
    fields_.push_back(std::move(field));
    return *this;
  }
  // One of a fixed list of words. A JSON number is read as written, so that
  // "version": 15 and "version": "15" mean the same.
  Schema& choice(std::string name, std::string Config::*member, std::vector<std::string> options) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member, options = std::move(options)](const json& v, Config& out, std::string& expected) {
      const std::string word = v.is_string() ? v.get<std::string>() : v.is_number() ? v.dump() : "";
      for (const std::string& option : options) {
        if ((v.is_string() || v.is_number()) && word == option) {
          out.*member = word;
          return true;
        }
      }
      std::string list;
      for (const std::string& option : options) {
        list += (list.empty() ? "" : ", ") + (option.empty() ? std::string("\"\"") : option);
      }
      expected = "is not one of " + list;
      return false;
    };
    field.write = [member](const Config& c) { return json(c.*member); };
    fields_.push_back(std::move(field));
    return *this;
  }
  // A behaviour switch: one of the names of its enum's table (sim/enum_names.h).
  template <class E, std::size_t N>
  // (The member is not deduced, so that a base struct's member is accepted.)
  Schema& choice(std::string name, std::type_identity_t<E Config::*> member, const sim::EnumNames<E, N>& names) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member, &names](const json& v, Config& out, std::string& expected) {
      if (v.is_string()) {
        if (const auto value = sim::enum_from_name(names, v.get<std::string>())) {
          out.*member = *value;
          return true;
        }
      }
      std::string list;
      for (const auto& [text, value] : names) {
        list += (list.empty() ? "" : ", ") + (text.empty() ? std::string("\"\"") : std::string(text));
      }
      expected = "is not one of " + list;
      return false;
    };
    field.write = [member, &names](const Config& c) { return json(std::string(sim::enum_name(names, c.*member))); };
    fields_.push_back(std::move(field));
    return *this;
  }
  // A word of the enum's table, or a boolean read as `on` / `off` (a GUC that
  // was a boolean before it took methods, as wal_compression in 15).
  template <class E, std::size_t N>
  Schema& choice_or_boolean(std::string name, std::type_identity_t<E Config::*> member,
                            const sim::EnumNames<E, N>& names, E on, E off) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member, &names, on, off](const json& v, Config& out, std::string& expected) {
      if (v.is_string()) {
        if (const auto value = sim::enum_from_name(names, v.get<std::string>())) {
          out.*member = *value;
          return true;
        }
      }
      if (const auto flag = parse_bool(v)) {
        out.*member = *flag ? on : off;
        return true;
      }
      std::string list;
      for (const auto& [text, value] : names) list += (list.empty() ? "" : ", ") + std::string(text);
      expected = "is not a boolean or one of " + list;
      return false;
    };
    field.write = [member, &names](const Config& c) { return json(std::string(sim::enum_name(names, c.*member))); };
    fields_.push_back(std::move(field));
    return *this;
  }
  Schema& text(std::string name, std::string Config::*member) {
    Field field{std::move(name), nullptr, nullptr};
    field.read = [member](const json& v, Config& out, std::string& expected) {
      if (!v.is_string()) {
        expected = "is not a string";
        return false;
      }
      out.*member = v.get<std::string>();
      return true;
    };
    field.write = [member](const Config& c) { return json(c.*member); };
    fields_.push_back(std::move(field));
    return *this;
  }

  // The rows of one part of the config (a member struct such as
  // DeviceConfig::hdd), as that part's own describe function declares them,
  // each name after `prefix`: the keys stay flat, as users write them.
  template <class Part, class Describe>
  Schema& within(Part Config::*member, Describe describe, const std::string& prefix = "") {
    Schema<Part> part;
    describe(part);
    for (auto& row : part.fields_) {
      Field field{prefix + row.name, nullptr, nullptr};
      field.facts = row.facts;
      field.read = [member, read = std::move(row.read)](const json& v, Config& out, std::string& expected) {
        return read(v, out.*member, expected);
      };
      field.write = [member, write = std::move(row.write)](const Config& c) { return write(c.*member); };
      fields_.push_back(std::move(field));
    }
    return *this;
  }

  // Facts of the row declared last (see SettingFacts).
  Schema& since(int version_num, std::string came_with = "") {
    fields_.back().facts.since = version_num;
    fields_.back().facts.came_with = std::move(came_with);
    return *this;
  }
  Schema& until(int version_num) {
    fields_.back().facts.until = version_num;
    return *this;
  }
  Schema& other_releases_ignore() {
    fields_.back().facts.other_releases_ignore = true;
    return *this;
  }
  Schema& resolved_drops() {
    fields_.back().facts.resolved_drops = true;
    return *this;
  }
  Schema& context(Context context) {
    fields_.back().facts.context = context;
    return *this;
  }
  Schema& model_only(std::string why) {
    fields_.back().facts.model_only = std::move(why);
    return *this;
  }
  Schema& start_only(std::string why) {
    fields_.back().facts.start_only = std::move(why);
    return *this;
  }

  // Reads every key of `section` into `out`; keys not in the section keep
  // the values `out` already has. `section` must be a JSON object.
  void parse(const json& section, const Origins& origins, Config& out, Errors& errors) const {
    for (const auto& [key, value] : section.items()) {
      const Field* field = find(key);
      if (field == nullptr) {
        const auto suggestion = nearest_name(key, names());
        errors.add(origins.of(key),
                   suggestion ? "unknown setting; did you mean " + *suggestion + "?" : "unknown setting");
        continue;
      }
      std::string expected;
      if (!field->read(value, out, expected)) errors.add(origins.of(key), shown(value) + " " + expected);
    }
  }

  json normalise(const Config& config) const {
    json out = json::object();
    for (const Field& field : fields_) out[field.name] = field.write(config);
    return out;
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Field& field : fields_) out.push_back(field.name);
    return out;
  }

  bool has(const std::string& name) const { return find(name) != nullptr; }

  // Calls f(name, facts) for every row, in declaration order.
  template <class F>
  void each_row(F&& f) const {
    for (const Field& field : fields_) f(field.name, field.facts);
  }

  // The facts of the row `name` (nullptr for an unknown name).
  const SettingFacts* facts(const std::string& name) const {
    const Field* field = find(name);
    return field != nullptr ? &field->facts : nullptr;
  }

 private:
  template <class>
  friend class Schema;  // within() takes a part's rows

  struct Field {
    std::string name;
    std::function<bool(const json&, Config&, std::string& expected)> read;
    std::function<json(const Config&)> write;
    SettingFacts facts{};
  };

  const Field* find(const std::string& name) const {
    for (const Field& field : fields_) {
      if (field.name == name) return &field;
    }
    return nullptr;
  }

  // An int64 quantity (bytes, nanoseconds, a count) with an inclusive range,
  // normalised as a JSON number (a count) or in its owner's units (show).
  // GCC 12 warns -Warray-bounds inside the std::string that comparing a json
  // value with "-1" builds (a false positive of inlined allocations, GCC meta-bug
  // 56456; reported for nlohmann::json as its issue 3808).
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
  template <class Show, class Read>
  Schema& quantity(std::string name, std::int64_t Config::*member, std::int64_t min, std::int64_t max,
                   bool auto_allowed, bool as_number, Show show, Read read_value) {
    Field field{std::move(name), nullptr, nullptr};
    field.facts.integer = true;  // an int64 quantity is a GUC's config_int, with a unit or without
    field.read = [=](const json& v, Config& out, std::string& expected) {
      if (auto_allowed && (v == -1 || v == "-1")) {
        out.*member = -1;
        return true;
      }
      const std::optional<std::int64_t> n = read_value(v, &expected);
      // Past what 64 bits hold is out of this setting's range too: name the range.
      const bool beyond_int64 = !n && expected.starts_with("is out of range");
      if (!n && !beyond_int64) return false;
      if (beyond_int64 || *n < min || *n > max) {
        // Past 64 bits the upper end is named too: "at least 0" alone says nothing of 10000000d.
        const std::string range = max != kNoLimit ? show(min) + ".." + show(max)
                                  : beyond_int64  ? show(min) + ".." + largest_shown(show)
                                                  : "at least " + show(min);
        expected = "is out of range (" + std::string(auto_allowed ? "-1 or " : "") + range + ")";
        return false;
      }
      out.*member = *n;
      return true;
    };
    field.write = [=](const Config& c) {
      const std::int64_t n = c.*member;
      if (as_number || (auto_allowed && n == -1)) return json(n);
      return json(show(n));
    };
    fields_.push_back(std::move(field));
    return *this;
  }
#pragma GCC diagnostic pop

  // The largest value 64 bits hold, rounded down to a whole unit so that it
  // reads as its owner writes it (106751d, 8191PB), not as 19 digits.
  template <class Show>
  static std::string largest_shown(Show show) {
    std::string best = show(kNoLimit);
    constexpr std::int64_t kSteps[] = {86400LL * 1000000000, 3600LL * 1000000000, 1000000000, 1LL << 50, 1LL << 40,
                                       1LL << 30, 1000000, 1000};
    for (const std::int64_t step : kSteps) {
      const std::string text = show(kNoLimit / step * step);
      if (text.size() < best.size()) best = text;
    }
    return best;
  }

  std::vector<Field> fields_;
};

}  // namespace ckptsim::scenarios
