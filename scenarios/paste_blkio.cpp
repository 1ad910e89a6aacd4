// scenarios/paste_blkio.cpp
//
// A pasted block-throttle limit (os.blkio_throttle, os.wal_blkio_throttle),
// in any of the three forms that set blk-throttle (block/blk-throttle.c
// tg_set_conf and tg_set_limit, Linux 6.x; systemd's config_parse_io_limit;
// docs/reference/blk-throttle.md section 2.9):
//
//   cgroup v1   blkio.throttle.write_iops_device   7:0 300        (0 removes the limit)
//               echo "7:0 300" > /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device
//   cgroup v2   7:0 riops=max wiops=300 rbps=max wbps=41943040   (io.max; "max" = none, 0 refused)
//   systemd     IOWriteIOPSMax=/dev/loop0 300                     (K M G T to the base 1000; "infinity")
//
// A v1 file name may also stand alone on its line, the MAJ:MIN VALUE line
// below it (as `grep . blkio.throttle.*` or a file listing shows them). The
// device is not looked up: one key is one device, so a text naming two
// devices is refused.
#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "scenarios/paste.h"

namespace ckptsim::scenarios {

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : line) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

bool is_device_number(const std::string& word) {
  const auto colon = word.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (i != colon && !std::isdigit(static_cast<unsigned char>(word[i]))) return false;
  }
  return true;
}

std::optional<std::int64_t> decimal(const std::string& word) {
  if (word.empty() || word.size() > 18) return std::nullopt;
  std::int64_t n = 0;
  for (const char c : word) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

// systemd's parse_size(.., 1000, ..): a decimal with K, M, G or T to the base 1000.
std::optional<std::int64_t> systemd_size(const std::string& word) {
  if (word.empty()) return std::nullopt;
  std::int64_t factor = 1;
  std::string digits = word;
  switch (word.back()) {
    case 'K': factor = 1000; break;
    case 'M': factor = 1000 * 1000; break;
    case 'G': factor = 1000 * 1000 * 1000; break;
    case 'T': factor = 1000LL * 1000 * 1000 * 1000; break;
    default: break;
  }
  if (factor != 1) digits.pop_back();
  const auto n = decimal(digits);
  if (!n || *n > std::numeric_limits<std::int64_t>::max() / factor) return std::nullopt;
  return *n * factor;
}

// Each limit as the three syntaxes name it: the scenario key, the v1 file's
// (blkio.throttle.KEY_device), io.max's and systemd's.
struct LimitNames {
  const char *key, *io_max, *systemd;
};
constexpr LimitNames kLimits[] = {{"read_iops", "riops", "IOReadIOPSMax"},
                                  {"write_iops", "wiops", "IOWriteIOPSMax"},
                                  {"read_bps", "rbps", "IOReadBandwidthMax"},
                                  {"write_bps", "wbps", "IOWriteBandwidthMax"}};

// The scenario key that `name` means in one syntax (`spelling` picks it), or nullopt.
std::optional<std::string> key_named(const std::string& name, const char* LimitNames::*spelling) {
  for (const LimitNames& limit : kLimits) {
    if (name == limit.*spelling) return std::string(limit.key);
  }
  return std::nullopt;
}

// The scenario key of a v1 file name ("blkio.throttle.write_iops_device", maybe under a path).
std::optional<std::string> v1_key(const std::string& word) {
  const std::string base = word.substr(word.rfind('/') == std::string::npos ? 0 : word.rfind('/') + 1);
  const std::string head = "blkio.throttle.", tail = "_device";
  if (base.size() <= head.size() + tail.size() || !base.starts_with(head) || !base.ends_with(tail)) return std::nullopt;
  return key_named(base.substr(head.size(), base.size() - head.size() - tail.size()), &LimitNames::key);
}

class Reader {
 public:
  Reader(std::string prefix, Errors& errors) : prefix_(std::move(prefix)), errors_(errors) {}

  void line(std::string text, const std::string& where) {
    where_ = where;
    // `echo "..." > FILE` and `echo "..." | tee FILE`: the file says which limit.
    std::string target;
    if (const auto redirect = text.find_first_of(">|"); redirect != std::string::npos) {
      std::vector<std::string> after = words_of(text.substr(redirect + 1));
      if (!after.empty() && (after[0] == "tee" || after[0] == "sudo")) after.erase(after.begin());
      if (!after.empty() && after[0] == "tee") after.erase(after.begin());
      if (!after.empty() && after[0] == "-a") after.erase(after.begin());
      if (!after.empty()) target = after.back();
      text = text.substr(0, redirect);
    }
    std::vector<std::string> words = words_of(text);
    if (!words.empty() && words[0] == "echo") words.erase(words.begin());
    if (!target.empty()) words.insert(words.begin(), target);
    if (words.empty()) return;
    // `blkio.throttle.write_iops_device: 7:0 300` (grep's FILE:LINE) splits at the first colon after the name.
    if (const auto colon = words[0].find("_device:"); colon != std::string::npos) {
      const std::string rest = words[0].substr(colon + 8);
      words[0].resize(colon + 7);
      if (!rest.empty()) words.insert(words.begin() + 1, rest);
    }

    if (words[0].starts_with("IO") && words[0].find('=') != std::string::npos) return systemd(words);
    if (const auto key = v1_key(words[0])) return v1(*key, {words.begin() + 1, words.end()});
    if (words[0] == "io.max" || words[0].ends_with("/io.max")) words.erase(words.begin());
    if (words.empty()) return;
    if (words.size() >= 2 && words[1].find('=') != std::string::npos) return io_max(words);
    if (!pending_v1_.empty() && is_device_number(words[0])) return v1(pending_v1_, words);
    errors_.add(where_, "\"" + text + "\" is not a cgroup v2 io.max line (MAJ:MIN riops= wiops= rbps= wbps=), " +
                            "a v1 blkio.throttle.*_device line (FILE MAJ:MIN VALUE) or a systemd " +
                            "IO{Read,Write}{IOPS,Bandwidth}Max= line");
  }

  Pasted done() {
    if (!pending_v1_.empty()) {
      errors_.add(where_, "blkio.throttle." + pending_v1_ + "_device is not followed by its MAJ:MIN VALUE line");
    }
    return std::move(pasted_);
  }

 private:
  void set(const std::string& key, std::int64_t value) { pasted_.settings.push_back({prefix_ + key, value, where_}); }

  bool same_device(const std::string& device) {
    if (device_.empty()) device_ = device;
    if (device == device_) return true;
    errors_.add(where_, "names " + device_ + " and " + device +
                            ": one key holds one device's limits (os.blkio_throttle the data device's, "
                            "os.wal_blkio_throttle the WAL device's)");
    return false;
  }

  // tg_set_conf: "MAJ:MIN VALUE", a u64 without units; 0 clears the limit.
  void v1(std::string key, const std::vector<std::string>& rest) {
    if (rest.empty()) {
      pending_v1_ = key;  // the MAJ:MIN VALUE line follows
      return;
    }
    pending_v1_.clear();
    const auto value = rest.size() == 2 ? decimal(rest[1]) : std::nullopt;
    if (!is_device_number(rest[0]) || !value) {
      errors_.add(where_, "blkio.throttle." + key + "_device takes \"MAJ:MIN VALUE\" (e.g. 7:0 300), a plain number");
      return;
    }
    if (same_device(rest[0])) set(key, *value);
  }

  // tg_set_limit: MAJ:MIN, then any of rbps= wbps= riops= wiops=, each a number or max; 0 is -ERANGE.
  void io_max(const std::vector<std::string>& words) {
    if (!is_device_number(words[0])) {
      errors_.add(where_, "\"" + words[0] + "\" is not MAJ:MIN: an io.max line starts with the device (e.g. 7:0)");
      return;
    }
    if (!same_device(words[0])) return;
    for (std::size_t i = 1; i < words.size(); ++i) {
      const auto equals = words[i].find('=');
      const auto key =
          equals == std::string::npos ? std::nullopt : key_named(words[i].substr(0, equals), &LimitNames::io_max);
      if (!key) {
        errors_.add(where_, "\"" + words[i] + "\" is not one of rbps=, wbps=, riops=, wiops= (io.max)");
        continue;
      }
      const std::string value = words[i].substr(equals + 1);
      if (value == "max") {
        set(*key, 0);
      } else if (const auto n = decimal(value); n && *n > 0) {
        set(*key, *n);
      } else {
        errors_.add(where_, "\"" + words[i] + "\": io.max takes a positive number or max (0 is refused, ERANGE)");
      }
    }
  }

  // IOWriteIOPSMax=PATH VALUE (systemd.resource-control): PATH is the device or a file on it.
  void systemd(const std::vector<std::string>& words) {
    const std::string& first = words[0];
    const auto equals = first.find('=');
    const std::string name = first.substr(0, equals);
    const auto key = key_named(name, &LimitNames::systemd);
    std::vector<std::string> rest(words.begin() + 1, words.end());
    if (equals + 1 < first.size()) rest.insert(rest.begin(), first.substr(equals + 1));
    if (!key) {
      errors_.add(where_, fmt::format("\"{}\" is not one of IOReadIOPSMax, IOWriteIOPSMax, IOReadBandwidthMax, "
                                      "IOWriteBandwidthMax",
                                      name));
      return;
    }
    if (rest.size() != 2) {
      errors_.add(where_, fmt::format("{}= takes \"PATH VALUE\" (e.g. /dev/loop0 300)", name));
      return;
    }
    const auto value = rest[1] == "infinity" ? std::optional<std::int64_t>(0) : systemd_size(rest[1]);
    if (!value) {
      errors_.add(where_, "\"" + rest[1] + "\" is not a number with K, M, G or T (base 1000) or infinity");
      return;
    }
    if (same_device(rest[0])) set(*key, *value);
  }

  std::string prefix_;
  Errors& errors_;
  std::string where_;
  std::string device_;      // the one MAJ:MIN or path the text names
  std::string pending_v1_;  // a v1 file name on a line of its own
  Pasted pasted_;
};

}  // namespace

Pasted paste_blkio_throttle(const std::string& text, const std::string& where, const std::string& prefix,
                            Errors& errors) {
  Reader reader(prefix, errors);
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string line(trim(lines[n]));
    if (line.empty() || line[0] == '#' || line[0] == '$') {
      if (line.size() > 2 && line[0] == '$') reader.line(line.substr(1), where + ": line " + std::to_string(n + 1));
      continue;
    }
    reader.line(line, lines.size() == 1 ? where : where + ": line " + std::to_string(n + 1));
  }
  return reader.done();
}

}  // namespace ckptsim::scenarios
