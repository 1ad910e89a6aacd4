#include "scenarios/pgbench_arguments.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <initializer_list>
#include <string_view>

namespace ckptsim::scenarios {

namespace {

// option_parse_int's reading: strtol in base 10, blanks allowed after the digits.
std::optional<std::string> integer_problem(const std::string& argument, std::string_view shown, long low, long high) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(argument.c_str(), &end, 10);
  while (end != nullptr && (*end == ' ' || *end == '\t' || *end == '\n')) ++end;
  if (end == argument.c_str() || *end != '\0' || errno == ERANGE)
    return "invalid value \"" + argument + "\" for option " + std::string(shown);
  if (value < low || value > high)
    return std::string(shown) + " must be in range " + std::to_string(low) + ".." + std::to_string(high);
  return std::nullopt;
}

// pgbench reads these with atof: the leading number counts, a word reads as 0.
std::optional<std::string> above_zero_problem(const std::string& argument, std::string_view what) {
  if (std::atof(argument.c_str()) > 0.0) return std::nullopt;
  return std::string(what) + ": \"" + argument + "\" (pgbench requires more than 0)";
}

bool one_of(const std::string& argument, std::initializer_list<std::string_view> names, bool any_case) {
  for (std::string_view name : names) {
    if (argument.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < name.size() && same; ++i) {
      const auto a = static_cast<unsigned char>(argument[i]);
      same = any_case ? std::tolower(a) == std::tolower(static_cast<unsigned char>(name[i])) : a == name[i];
    }
    if (same) return true;
  }
  return false;
}

// set_random_seed: "time", "rand" or an unsigned 64-bit integer and nothing after it.
bool is_random_seed(const std::string& argument) {
  if (argument == "time" || argument == "rand") return true;
  std::size_t i = 0;
  while (i < argument.size() && (argument[i] == ' ' || argument[i] == '\t')) ++i;
  if (i < argument.size() && argument[i] == '+') ++i;
  if (i == argument.size()) return false;
  for (; i < argument.size(); ++i) {
    if (argument[i] < '0' || argument[i] > '9') return false;
  }
  errno = 0;
  std::strtoull(argument.c_str(), nullptr, 10);
  return errno != ERANGE;
}

}  // namespace

std::optional<std::string> pgbench_argument_problem(std::string_view long_name, const std::string& argument) {
  constexpr long kIntMax = INT_MAX;
  if (long_name == "client") return integer_problem(argument, "-c/--clients", 1, kIntMax);
  if (long_name == "jobs") return integer_problem(argument, "-j/--jobs", 1, kIntMax);
  if (long_name == "scale") return integer_problem(argument, "-s/--scale", 1, kIntMax);
  if (long_name == "transactions") return integer_problem(argument, "-t/--transactions", 1, kIntMax);
  if (long_name == "time") return integer_problem(argument, "-T/--time", 1, kIntMax);
  if (long_name == "progress") return integer_problem(argument, "-P/--progress", 1, kIntMax);
  if (long_name == "aggregate-interval") return integer_problem(argument, "--aggregate-interval", 1, kIntMax);
  if (long_name == "fillfactor") return integer_problem(argument, "-F/--fillfactor", 10, 100);
  if (long_name == "partitions") return integer_problem(argument, "--partitions", 0, kIntMax);
  if (long_name == "rate") return above_zero_problem(argument, "invalid rate limit");
  if (long_name == "latency-limit") return above_zero_problem(argument, "invalid latency limit");
  if (long_name == "sampling-rate") {
    const double rate = std::atof(argument.c_str());
    if (rate > 0.0 && rate <= 1.0) return std::nullopt;
    return "invalid sampling rate: \"" + argument + "\" (pgbench requires more than 0 and at most 1)";
  }
  if (long_name == "max-tries") {
    if (std::atoi(argument.c_str()) >= 0) return std::nullopt;
    return "invalid number of maximum tries: \"" + argument + "\"";
  }
  if (long_name == "protocol") {
    if (one_of(argument, {"simple", "extended", "prepared"}, false)) return std::nullopt;
    return "invalid query mode (-M): \"" + argument + "\" (expected simple, extended or prepared)";
  }
  if (long_name == "partition-method") {
    if (one_of(argument, {"range", "hash"}, true)) return std::nullopt;
    return "invalid partition method, expecting \"range\" or \"hash\", got: \"" + argument + "\"";
  }
  if (long_name == "random-seed") {
    if (is_random_seed(argument)) return std::nullopt;
    return "unrecognized random seed option \"" + argument + "\" (expecting an unsigned integer, \"time\" or \"rand\")";
  }
  if (long_name == "define") {
    const std::size_t equals = argument.find('=');
    if (equals != std::string::npos && equals != 0 && equals + 1 < argument.size()) return std::nullopt;
    return "invalid variable definition: \"" + argument + "\"";
  }
  if (long_name == "init-steps") {
    for (const char step : argument) {
      if (std::string_view("dtgGvpf ").find(step) == std::string_view::npos)
        return std::string("unrecognized initialization step \"") + step +
               "\" (allowed step characters are: \"dtgGvpf\")";
    }
  }
  return std::nullopt;
}

}  // namespace ckptsim::scenarios
