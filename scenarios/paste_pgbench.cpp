// scenarios/paste_pgbench.cpp
//
// A pgbench command line read with pgbench 15's options (pgbench.c, main():
// getopt_long over "bc:CdD:f:F:h:iI:j:lL:M:nNp:P:qrR:s:St:T:U:v" and its
// long_options). Options that set a modelled setting map to the pgbench
// section's keys; options that change nothing the simulator measures
// (connection, reporting, retry) are listed for the warning; options that
// would run a different benchmark (-i, -f, -D, several scripts) are errors,
// since ignoring them would simulate something other than what was typed.
// Every argument is checked first as pgbench checks it (pgbench_arguments.h),
// and the checks pgbench makes once all options are read follow them.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "models/pgbench/pgbench_config.h"
#include "scenarios/paste.h"
#include "scenarios/pgbench_arguments.h"

namespace ckptsim::scenarios {

namespace {

enum class Role {
  kSetting,     // sets `key` to the option's argument
  kScript,      // -b, -N, -S: the builtin script
  kLog,         // -l
  kNoEffect,    // -n: ckptsim never vacuums before a run
  kUnmodelled,  // real, ignored, listed in the warning
  kRefused,     // real, but it would simulate another benchmark
};

struct Option {
  char short_name;  // 0 for a long-only option
  std::string_view long_name;
  bool has_arg;
  Role role;
  std::string_view key;  // kSetting: the JSON key; kRefused: why
};

constexpr std::array<Option, 45> kOptions{{
    {'b', "builtin", true, Role::kScript, ""},
    {'c', "client", true, Role::kSetting, "clients"},
    {'C', "connect", false, Role::kUnmodelled, ""},
    {'d', "debug", false, Role::kUnmodelled, ""},
    {'D', "define", true, Role::kRefused, "variables are for custom scripts, which ckptsim does not run"},
    {'f', "file", true, Role::kRefused, "ckptsim runs the builtin scripts only (-b, -N, -S)"},
    {'F', "fillfactor", true, Role::kRefused, "is an option of pgbench -i"},
    {'h', "host", true, Role::kUnmodelled, ""},
    {'i', "initialize", false, Role::kRefused,
     "initialises a database; give the benchmark's command (the init section is the host's state after -i)"},
    {'I', "init-steps", true, Role::kRefused, "is an option of pgbench -i"},
    {'j', "jobs", true, Role::kSetting, "threads"},
    {'l', "log", false, Role::kLog, ""},
    {'L', "latency-limit", true, Role::kSetting, "latency_limit"},
    {'M', "protocol", true, Role::kSetting, "protocol"},
    {'n', "no-vacuum", false, Role::kNoEffect, ""},
    {'N', "skip-some-updates", false, Role::kScript, ""},
    {'p', "port", true, Role::kUnmodelled, ""},
    {'P', "progress", true, Role::kSetting, "progress"},
    {'q', "quiet", false, Role::kRefused, "is an option of pgbench -i"},
    {'r', "report-per-command", false, Role::kUnmodelled, ""},
    {'R', "rate", true, Role::kSetting, "rate"},
    {'s', "scale", true, Role::kSetting, "scale"},
    {'S', "select-only", false, Role::kScript, ""},
    {'t', "transactions", true, Role::kSetting, "transactions"},
    {'T', "time", true, Role::kSetting, "duration"},
    {'U', "username", true, Role::kUnmodelled, ""},
    {'v', "vacuum-all", false, Role::kUnmodelled, ""},
    {'V', "version", false, Role::kRefused, "prints pgbench's version; it runs nothing"},
    {'?', "help", false, Role::kRefused, "prints pgbench's help; it runs nothing"},
    {0, "aggregate-interval", true, Role::kSetting, "aggregate_interval"},
    {0, "exit-on-abort", false, Role::kUnmodelled, ""},
    {0, "failures-detailed", false, Role::kUnmodelled, ""},
    {0, "foreign-keys", false, Role::kRefused, "is an option of pgbench -i"},
    {0, "index-tablespace", true, Role::kRefused, "is an option of pgbench -i"},
    {0, "log-prefix", true, Role::kUnmodelled, ""},
    {0, "max-tries", true, Role::kUnmodelled, ""},
    {0, "partition-method", true, Role::kRefused, "is an option of pgbench -i"},
    {0, "partitions", true, Role::kRefused, "is an option of pgbench -i"},
    {0, "progress-timestamp", false, Role::kUnmodelled, ""},
    {0, "random-seed", true, Role::kUnmodelled, ""},
    {0, "sampling-rate", true, Role::kUnmodelled, ""},
    {0, "show-script", true, Role::kRefused, "prints a builtin script; it runs nothing"},
    {0, "tablespace", true, Role::kRefused, "is an option of pgbench -i"},
    {0, "unlogged-tables", false, Role::kRefused, "is an option of pgbench -i"},
    {0, "verbose-errors", false, Role::kUnmodelled, ""},
}};

// Words as a POSIX shell splits them: blanks separate, '...' is literal,
// "..." keeps blanks and takes \" \\ \$ \`, a backslash quotes the next
// character (and a backslash-newline continues the line).
std::optional<std::vector<std::string>> shell_words(const std::string& text, std::string& problem) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] == '\n') {
        ++i;
        continue;
      }
      if (i + 1 < text.size()) word += text[++i];
      in_word = true;
    } else if (c == '\'' || c == '"') {
      const std::size_t open = i;
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (c == '"' && text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
          ++i;
        word += text[i];
      }
      if (i == text.size()) {
        problem = std::string("unterminated ") + c + " quote from character " + std::to_string(open + 1);
        return std::nullopt;
      }
      in_word = true;
    } else if (std::string_view("|&;<>()`$").find(c) != std::string_view::npos) {
      // A shell would act on these (a pipe, a background job, a redirect, an
      // expansion); ckptsim runs no shell, and pgbench would never see them.
      problem = std::string("shell operator '") + c + "' at character " + std::to_string(i + 1) +
                " is refused: ckptsim reads the pgbench command line, it runs no shell (quote it if it is part of "
                "a value)";
      return std::nullopt;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// NAME=VALUE before the program: an environment assignment for a shell.
bool is_environment_assignment(const std::string& word) {
  const std::size_t equals = word.find('=');
  if (equals == 0 || equals == std::string::npos || std::isdigit(static_cast<unsigned char>(word[0]))) return false;
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(equals),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// pgbench's findBuiltin: a builtin script by a unique prefix of its name.
std::optional<std::string> builtin_named(const std::string& name, std::string& problem) {
  std::vector<std::string> matches;
  for (const auto& [full, value] : pgbench::kBuiltinNames) {
    if (std::string_view(full).starts_with(name)) matches.emplace_back(full);
  }
  if (matches.size() == 1 && !name.empty()) return matches.front();
  problem = "\"" + name + "\" is " + (matches.empty() ? "no" : "more than one") +
            " builtin script (tpcb-like, simple-update, select-only)";
  return std::nullopt;
}

const Option* long_option(const std::string& name, std::string& problem) {
  std::vector<const Option*> matches;
  for (const Option& option : kOptions) {
    if (option.long_name == name) return &option;
    if (option.long_name.starts_with(name)) matches.push_back(&option);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    std::vector<std::string> names;
    for (const Option& option : kOptions) names.emplace_back(option.long_name);
    const auto suggestion = nearest_name(name, names);
    problem = "--" + name + " is not a pgbench option" + (suggestion ? "; did you mean --" + *suggestion + "?" : "");
  } else {
    problem = "--" + name + " is ambiguous (--" + std::string(matches[0]->long_name) + ", --" +
              std::string(matches[1]->long_name) + ")";
  }
  return nullptr;
}

const Option* short_option(char name) {
  const auto it =
      std::find_if(kOptions.begin(), kOptions.end(), [name](const Option& o) { return o.short_name == name; });
  return it == kOptions.end() ? nullptr : &*it;
}

// The command as pgbench's main() would act on it, before it is laid.
struct Command {
  Pasted pasted;
  std::vector<std::string> scripts;  // as typed, for the "one script" error
  std::string builtin;
  bool log = false;
  std::string aggregate_where;  // where --aggregate-interval was given
  std::string duration_where, transactions_where;
  // For pgbench's checks once every option is read.
  std::string sampling_where, log_prefix_where, progress_timestamp_where, unlimited_tries_where;
  bool progress = false, latency_limit = false;
  long duration = 0, aggregate_interval = 0;
};

// What pgbench's checks after getopt need to know of one option.
void note_for_later_checks(Command& command, const Option& option, const std::string& argument,
                           const std::string& option_where) {
  const std::string_view name = option.long_name;
  if (name == "sampling-rate") command.sampling_where = option_where;
  if (name == "log-prefix") command.log_prefix_where = option_where;
  if (name == "progress-timestamp") command.progress_timestamp_where = option_where;
  if (name == "max-tries" && std::atoi(argument.c_str()) == 0) command.unlimited_tries_where = option_where;
  if (name == "progress") command.progress = true;
  if (name == "latency-limit") command.latency_limit = true;
  if (name == "time") command.duration = std::atol(argument.c_str());
  if (name == "aggregate-interval") command.aggregate_interval = std::atol(argument.c_str());
}

void apply(Command& command, const Option& option, const std::string& typed, const std::string& argument,
           const std::string& where, bool with_scale, Errors& errors) {
  const std::string option_where = where + ": " + typed;
  if (const auto problem = option.has_arg ? pgbench_argument_problem(option.long_name, argument) : std::nullopt) {
    errors.add(option_where, *problem);
    return;
  }
  note_for_later_checks(command, option, argument, option_where);
  switch (option.role) {
    case Role::kSetting:
      if (option.key == "scale" && !with_scale) {
        errors.add(option_where, "the warmup runs on the measured run's database: give -s in pgbench.command");
        return;
      }
      command.pasted.settings.push_back({std::string(option.key), argument, option_where});
      if (option.key == "duration") command.duration_where = option_where;
      if (option.key == "transactions") command.transactions_where = option_where;
      if (option.key == "aggregate_interval") command.aggregate_where = option_where;
      return;
    case Role::kScript: {
      command.scripts.push_back(typed + (option.has_arg ? " " + argument : ""));
      if (option.short_name == 'N') command.builtin = "simple-update";
      if (option.short_name == 'S') command.builtin = "select-only";
      if (option.short_name == 'b' && argument == "list") {
        errors.add(option_where, "-b list prints the builtin scripts; it runs nothing");
        return;
      }
      if (option.short_name == 'b') {
        std::string name = argument, problem;
        const auto at = name.find('@');  // NAME@WEIGHT: a weight matters only between several scripts
        if (at != std::string::npos) {
          const std::string weight_text = name.substr(at + 1);
          const auto weight = parse_integer(json(weight_text));
          if (!weight || *weight < 0) {
            std::string problem_text = "\"";
            problem_text.append(weight_text).append("\" is not a weight (expected an integer of at least 0)");
            errors.add(option_where, problem_text);
          }
          name.resize(at);
        }
        const auto builtin = builtin_named(name, problem);
        if (!builtin) errors.add(option_where, problem);
        command.builtin = builtin.value_or("");
      }
      command.pasted.settings.push_back({"builtin", command.builtin, option_where});
      return;
    }
    case Role::kLog: command.log = true; return;
    case Role::kNoEffect: return;
    case Role::kUnmodelled: {
      const std::string name =
          option.short_name != 0 ? std::string("-") + option.short_name : "--" + std::string(option.long_name);
      if (std::find(command.pasted.unmodelled.begin(), command.pasted.unmodelled.end(), name) ==
          command.pasted.unmodelled.end()) {
        command.pasted.unmodelled.push_back(name);
      }
      return;
    }
    case Role::kRefused: errors.add(option_where, std::string(option.key)); return;
  }
}

// getopt_long over the words after the program name, from `i`: each option applied to
// `command`, the other words kept in `positional`.
void read_options(const std::vector<std::string>& words, std::size_t i, Command& command,
                  std::vector<std::string>& positional, const std::string& where, bool with_scale, Errors& errors) {
  std::string problem;
  bool options_end = false;
  for (; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (options_end || word.size() < 2 || word[0] != '-') {
      positional.push_back(word);
      continue;
    }
    if (word == "--") {
      options_end = true;
      continue;
    }
    // The argument of an option that takes one: glued, after '=', or the next word.
    const auto take_argument = [&](const std::string& typed, std::string glued,
                                   bool has_glued) -> std::optional<std::string> {
      if (has_glued) return glued;
      if (i + 1 < words.size()) return words[++i];
      errors.add(where + ": " + typed, "needs an argument");
      return std::nullopt;
    };
    if (word.starts_with("--")) {
      const auto equals = word.find('=');
      const std::string name = word.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
      const Option* option = long_option(name, problem);
      if (option == nullptr) {
        errors.add(where, problem);
        continue;
      }
      const std::string typed = "--" + std::string(option->long_name);
      if (!option->has_arg) {
        if (equals != std::string::npos) errors.add(where + ": " + typed, "takes no argument");
        else apply(command, *option, typed, "", where, with_scale, errors);
        continue;
      }
      const auto argument =
          take_argument(typed, equals == std::string::npos ? "" : word.substr(equals + 1), equals != std::string::npos);
      if (argument) apply(command, *option, typed, *argument, where, with_scale, errors);
      continue;
    }
    // A bundle of short options: -nS, -c4, -c 4.
    for (std::size_t k = 1; k < word.size(); ++k) {
      const Option* option = short_option(word[k]);
      const std::string typed = std::string("-") + word[k];
      if (option == nullptr) {
        errors.add(where, typed + " is not a pgbench option");
        break;
      }
      if (!option->has_arg) {
        apply(command, *option, typed, "", where, with_scale, errors);
        continue;
      }
      const auto argument = take_argument(typed, word.substr(k + 1), k + 1 < word.size());
      if (argument) apply(command, *option, typed, *argument, where, with_scale, errors);
      break;
    }
  }
}

// pgbench's own checks after getopt, with its words.
void check_after_getopt(const Command& command, const std::string& where, Errors& errors) {
  if (command.scripts.size() > 1) {
    std::string list;
    for (const std::string& script : command.scripts) list += (list.empty() ? "" : ", ") + script;
    errors.add(where, "ckptsim runs one builtin script; the command gives " + std::to_string(command.scripts.size()) +
                          " (" + list + ")");
  }
  if (!command.duration_where.empty() && !command.transactions_where.empty()) {
    errors.add(where, "specify either a number of transactions (-t) or a duration (-T), not both");
  }
  if (!command.aggregate_where.empty() && !command.log) {
    errors.add(command.aggregate_where, "log aggregation is allowed only when actually logging transactions (-l)");
  }
  if (!command.sampling_where.empty() && !command.log)
    errors.add(command.sampling_where, "log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
  if (!command.sampling_where.empty() && !command.aggregate_where.empty())
    errors.add(command.sampling_where,
               "log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
  if (!command.log_prefix_where.empty() && !command.log)
    errors.add(command.log_prefix_where,
               "log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
  if (command.duration > 0 && command.aggregate_interval > command.duration)
    errors.add(command.aggregate_where,
               "number of seconds for aggregation (" + std::to_string(command.aggregate_interval) +
                   ") must not be higher than test duration (" + std::to_string(command.duration) + ")");
  else if (command.duration > 0 && command.aggregate_interval > 0 && command.duration % command.aggregate_interval != 0)
    errors.add(command.aggregate_where, "duration (" + std::to_string(command.duration) +
                                            ") must be a multiple of aggregation interval (" +
                                            std::to_string(command.aggregate_interval) + ")");
  if (!command.progress_timestamp_where.empty() && !command.progress)
    errors.add(command.progress_timestamp_where, "--progress-timestamp is allowed only under --progress");
  if (!command.unlimited_tries_where.empty() && !command.latency_limit && command.duration <= 0)
    errors.add(command.unlimited_tries_where,
               "an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
}

}  // namespace

Pasted paste_pgbench_command(const std::string& text, const std::string& where, bool with_scale, Errors& errors) {
  std::string problem;
  const auto words = shell_words(text, problem);
  if (!words) {
    errors.add(where, problem);
    return {};
  }
  std::size_t i = 0;
  for (; i < words->size() && is_environment_assignment((*words)[i]); ++i) {
    errors.add(where, "environment assignment \"" + (*words)[i] +
                          "\" is refused: ckptsim runs no shell; the command starts with pgbench");
  }
  if (i == words->size()) {
    errors.add(where, "no pgbench command (expected e.g. \"pgbench -c 4 -T 60\")");
    return {};
  }
  const std::string& program = (*words)[i];
  if (program != "pgbench" && !program.ends_with("/pgbench")) {
    errors.add(where, "\"" + program + "\" is not pgbench: the command starts with pgbench (or a path to it)");
    return {};
  }
  Command command;
  std::vector<std::string> positional;
  read_options(*words, i + 1, command, positional, where, with_scale, errors);

  check_after_getopt(command, where, errors);
  if (command.log && command.aggregate_where.empty()) command.pasted.unmodelled.push_back("-l (a per-transaction log)");
  // The command fixes the run's length: the other of -T and -t no longer applies.
  if (!command.duration_where.empty())
    command.pasted.settings.push_back({"transactions", nullptr, command.duration_where});
  if (!command.transactions_where.empty())
    command.pasted.settings.push_back({"duration", nullptr, command.transactions_where});
  if (positional.size() > 1) {
    errors.add(where, "too many command-line arguments (first is \"" + positional[1] + "\")");
  } else if (positional.size() == 1) {
    command.pasted.unmodelled.push_back("dbname " + positional[0]);
  }
  return command.pasted;
}

}  // namespace ckptsim::scenarios
