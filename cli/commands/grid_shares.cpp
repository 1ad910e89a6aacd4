#include "cli/commands/grid_shares.h"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli/folder/printable.h"

namespace ckptsim::cli {

namespace {

std::optional<std::size_t> whole_number(const std::string& text) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

// This ckptsim's absolute path, for command lines run elsewhere.
std::string own_binary() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("ckptsim") : self.string();
}

}  // namespace

std::optional<Share> parse_share(const std::string& text) {
  const auto slash = text.find('/');
  const auto i = slash == std::string::npos ? std::nullopt : whole_number(text.substr(0, slash));
  const auto k = slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  std::string why;
  if (!i || !k) {
    why = "is not I/K";
  } else if (*k == 0) {
    why = "has no shares (K is 0)";
  } else if (*i == 0) {
    why = "names share 0, but shares are numbered from 1";
  } else if (*i > *k) {
    why = fmt::format("names share {} of only {}", *i, *k);
  }
  if (why.empty()) return Share{*i, *k};
  std::cerr << "error: --shard \"" << printable(text) << "\" " << why
            << " (expected I/K with 1 <= I <= K, e.g. --shard 2/3 for the second of three shares)\n";
  return std::nullopt;
}

std::vector<char> share_points(std::size_t points, const Share& share) {
  std::vector<char> selected(points, 0);
  for (std::size_t i = share.index - 1; i < points; i += share.of) selected[i] = 1;
  return selected;
}

std::string shell_quoted(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789@%_+=:,./-") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted.append("'\\''");
    } else {
      quoted.push_back(c);
    }
  }
  quoted.push_back('\'');
  return quoted;
}

std::string point_command_lines(const RunArgs& args, const scenarios::Plan& plan, const std::string& scenario_file,
                                const std::string& grid_dir) {
  std::vector<std::string> common{own_binary(), "run", scenario_file};
  for (const std::string& set : args.sets) common.insert(common.end(), {"--set", set});
  for (const std::string& file : args.preset_files)
    common.insert(common.end(), {"--preset-file", std::filesystem::absolute(file).lexically_normal().string()});
  if (args.seed) common.insert(common.end(), {"--seed", std::to_string(*args.seed)});
  common.insert(common.end(), {"--threshold", fmt::format("{}", args.threshold)});
  if (args.max_points != scenarios::kDefaultMaxPoints)
    common.insert(common.end(), {"--max-points", std::to_string(args.max_points)});
  if (!args.crash_at.empty()) common.insert(common.end(), {"--crash-at", args.crash_at});
  if (args.max_wall_s > 0) common.insert(common.end(), {"--max-wall", fmt::format("{}", args.max_wall_s)});
  common.push_back("--quiet");
  std::string lines;
  for (const scenarios::GridPoint& point : plan.points) {
    std::vector<std::string> words = common;
    words.insert(words.end(),
                 {"--point", point.name, "--out", (std::filesystem::path(grid_dir) / point.name).string()});
    for (std::size_t w = 0; w < words.size(); ++w) {
      if (w > 0) lines.push_back(' ');
      lines.append(shell_quoted(words[w]));
    }
    lines.push_back('\n');
  }
  return lines;
}

}  // namespace ckptsim::cli
