// scenarios/presets.cpp
//
// Finding the preset folder and listing what it holds. Listing reads each
// file's "description"; a file that does not parse is listed with an empty
// one (loading it reports the error properly).
#include "scenarios/presets.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

namespace ckptsim::scenarios {

namespace fs = std::filesystem;

namespace {

bool has_presets(const fs::path& home) {
  std::error_code ec;
  return fs::is_directory(home / "scenarios" / "presets", ec);
}

// Natural order: runs of digits compare as numbers, so 9.6 < 15 < 17.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const bool digit_a = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool digit_b = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (digit_a && digit_b) {
      std::size_t end_a = i;
      std::size_t end_b = j;
      while (end_a < a.size() && std::isdigit(static_cast<unsigned char>(a[end_a]))) ++end_a;
      while (end_b < b.size() && std::isdigit(static_cast<unsigned char>(b[end_b]))) ++end_b;
      const std::string run_a = a.substr(i, end_a - i);
      const std::string run_b = b.substr(j, end_b - j);
      // Longer run (after leading zeros) is the larger number.
      const auto strip = [](const std::string& s) {
        const auto nz = s.find_first_not_of('0');
        return nz == std::string::npos ? std::string() : s.substr(nz);
      };
      const std::string na = strip(run_a);
      const std::string nb = strip(run_b);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = end_a;
      j = end_b;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// The presets of one kind, or of all kinds if `kind` is empty, sorted;
// descriptions are read only when asked for.
std::vector<PresetInfo> scan(const std::string& kind, bool with_descriptions) {
  std::vector<PresetInfo> presets;
  const fs::path root = project_home() / "scenarios" / "presets";
  std::error_code ec;
  for (const auto& kind_dir : fs::directory_iterator(root, ec)) {
    if (!kind_dir.is_directory()) continue;
    if (!kind.empty() && kind_dir.path().filename() != kind) continue;
    for (const auto& entry : fs::directory_iterator(kind_dir.path(), ec)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      PresetInfo info{kind_dir.path().filename().string(), entry.path().stem().string(), "", entry.path()};
      Errors ignored;
      const auto doc = with_descriptions ? read_json_file(entry.path(), info.name, ignored) : std::nullopt;
      if (doc && doc->is_object() && doc->contains("description") && (*doc)["description"].is_string()) {
        info.description = (*doc)["description"].get<std::string>();
      }
      presets.push_back(std::move(info));
    }
  }
  std::sort(presets.begin(), presets.end(), [](const PresetInfo& a, const PresetInfo& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    return natural_less(a.name, b.name);
  });
  return presets;
}

// Reads JSON text a character at a time and says which ones lie outside
// strings (quotes and escapes included), for the scans made before parsing.
class OutsideStrings {
 public:
  bool operator()(char c) {
    if (in_string_) {
      if (escaped_) escaped_ = false;
      else if (c == '\\') escaped_ = true;
      else if (c == '"') in_string_ = false;
      return false;
    }
    if (c == '"') in_string_ = true;
    return !in_string_;
  }

 private:
  bool in_string_ = false, escaped_ = false;
};

// "line L, column C" (1-based) of a byte offset.
std::string line_and_column(const std::string& text, std::size_t offset) {
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t column = line_start == std::string::npos ? offset + 1 : offset - line_start;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string too_large_message() {
  return "is larger than " + std::to_string(kMaxJsonBytes / 1024) +
         " kB: a scenario or preset is hand-written JSON, not data";
}

// The first number literal outside strings that does not fit in a double,
// with its line and column, for the error message ("1e999 at line 3, column 9").
std::string first_overflowing_number(const std::string& text) {
  OutsideStrings outside;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!outside(c)) continue;
    if (c != '-' && std::isdigit(static_cast<unsigned char>(c)) == 0) continue;
    const std::size_t end = std::min(text.find_first_not_of("0123456789+-.eE", i), text.size());
    const std::string token = text.substr(i, end - i);
    if (std::isfinite(std::strtod(token.c_str(), nullptr))) {
      i = end - 1;
      continue;
    }
    const std::string head = token.size() > 40 ? token.substr(0, 37) + "..." : token;
    return head + " at " + line_and_column(text, i);
  }
  return "a number";
}

}  // namespace

fs::path project_home() {
  if (const char* env = std::getenv("CKPTSIM_HOME"); env != nullptr && *env != '\0') return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path home = exe.parent_path().parent_path();
    if (has_presets(home)) return home;
  }
  return CKPTSIM_SOURCE_DIR;
}

std::vector<PresetInfo> list_presets() { return scan("", true); }

std::vector<std::string> preset_names(const std::string& kind) {
  std::vector<std::string> names;
  for (const PresetInfo& info : scan(kind, false)) names.push_back(info.name);
  return names;
}

std::optional<std::size_t> json_too_deep(const std::string& text) {
  int depth = 0;
  OutsideStrings outside;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!outside(c)) continue;
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

std::optional<std::string> read_json_text(const fs::path& file, const std::string& label, Errors& errors) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    errors.add(label, "cannot read " + file.string());
    return std::nullopt;
  }
  std::string text(kMaxJsonBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxJsonBytes) {
    errors.add(label, too_large_message());
    return std::nullopt;
  }
  return text;
}

namespace {

// "invalid JSON at line L, column C: reason" for a parse error in `text`.
std::string parse_error_message(const std::string& text, const json::parse_error& e) {
  // nlohmann reports a byte offset; count lines and columns ourselves.
  std::size_t line = 1;
  std::size_t column = 0;
  const std::size_t end = std::min<std::size_t>(e.byte, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  // Keep only the reason from "[json.exception...] parse error at line L, column C: reason".
  std::string reason = e.what();
  if (const auto at = reason.find("column "); at != std::string::npos) {
    if (const auto colon = reason.find(": ", at); colon != std::string::npos) reason = reason.substr(colon + 2);
  }
  return "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason;
}

}  // namespace

std::optional<json> parse_json_text(const std::string& text, const std::string& label, Errors& errors) {
  if (text.size() > kMaxJsonBytes) {
    errors.add(label, too_large_message());
    return std::nullopt;
  }
  // The JSON parser takes a NUL byte for the end of its input and would
  // accept whatever follows it: anything after the JSON value is an error.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    errors.add(label, "a NUL byte at " + line_and_column(text, nul) + ": nothing may follow the JSON value");
    return std::nullopt;
  }
  // Deep nesting would overflow the stack of the recursive copy and dump that follow parsing.
  if (const auto at = json_too_deep(text)) {
    errors.add(label,
               "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels at " + line_and_column(text, *at));
    return std::nullopt;
  }
  // A key given twice in one object would silently keep the last: name the first repeat.
  struct Level {
    bool object = false;
    std::set<std::string> keys;
    std::string key;  // the member being read
  };
  std::vector<Level> levels;
  std::string duplicate;
  const json::parser_callback_t find_duplicates = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: levels.push_back({true, {}, {}}); break;
      case json::parse_event_t::array_start: levels.push_back({false, {}, {}}); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!levels.empty()) levels.pop_back();
        break;
      case json::parse_event_t::key:
        if (!levels.empty() && levels.back().object) {
          levels.back().key = parsed.get<std::string>();
          if (!levels.back().keys.insert(levels.back().key).second && duplicate.empty()) {
            for (const Level& level : levels) {
              if (level.object) duplicate += "/" + level.key;
            }
          }
        }
        break;
      case json::parse_event_t::value: break;
    }
    return true;
  };
  try {
    json doc = json::parse(text, find_duplicates);
    if (!duplicate.empty()) {
      errors.add(label, "the key " + duplicate + " is given twice (JSON would keep only the last)");
      return std::nullopt;
    }
    return doc;
  } catch (const json::parse_error& e) {
    errors.add(label, parse_error_message(text, e));
    return std::nullopt;
  } catch (const json::out_of_range&) {
    // A number literal past double's range (1e309): nlohmann throws out_of_range
    // 406 with no position; the token is where the text first has such a number.
    errors.add(label, "invalid JSON: " + first_overflowing_number(text) +
                          " is out of range (a JSON number here is a double, at most about 1.8e308)");
    return std::nullopt;
  }
}

std::optional<json> read_json_file(const fs::path& file, const std::string& label, Errors& errors) {
  const auto text = read_json_text(file, label, errors);
  return text ? parse_json_text(*text, label, errors) : std::nullopt;
}

}  // namespace ckptsim::scenarios
