// scenarios/paste_conf.cpp
//
// postgresql.conf (PostgreSQL's guc-file.l, ParseConfigFp) and sysctl.conf
// (procps-ng sysctl.c, Preload) text. Left out: include directives, which
// name files the simulator cannot see, and the server's unquoted-string
// subtleties beyond "one word up to a space or #".
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "scenarios/paste.h"
#include "scenarios/real_settings.h"

namespace ckptsim::scenarios {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void note_unmodelled(Pasted& pasted, const std::string& name) {
  if (!contains(pasted.unmodelled, name)) pasted.unmodelled.push_back(name);
}

std::string unknown_name(const std::string& name, const std::vector<std::string>& modelled,
                         const std::vector<std::string>& real, const std::string& what) {
  std::vector<std::string> known = modelled;
  known.insert(known.end(), real.begin(), real.end());
  const auto suggestion = nearest_name(name, known);
  return "\"" + name + "\" is not " + what + (suggestion ? "; did you mean " + *suggestion + "?" : "");
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// One line of postgresql.conf: name, value and whether it parsed.
struct ConfLine {
  std::string name, value;
  std::string problem;  // empty when it parsed
};

// A quoted value's escapes, as DeescapeQuotedString does: '' and \' are a
// quote, \b \f \n \r \t the control characters, \ooo an octal byte.
bool read_quoted(const std::string& line, std::size_t& at, std::string& out) {
  for (++at; at < line.size(); ++at) {
    const char c = line[at];
    if (c == '\'') {
      if (at + 1 < line.size() && line[at + 1] == '\'') {
        out += '\'';
        ++at;
        continue;
      }
      ++at;
      return true;
    }
    if (c != '\\' || at + 1 == line.size()) {
      out += c;
      continue;
    }
    const char e = line[++at];
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      default:
        if (e >= '0' && e <= '7') {
          int byte = 0;
          for (int digits = 0; digits < 3 && at < line.size() && line[at] >= '0' && line[at] <= '7'; ++digits) {
            byte = byte * 8 + (line[at++] - '0');
          }
          --at;
          out += static_cast<char>(byte);
        } else {
          out += e;
        }
    }
  }
  return false;
}

ConfLine read_conf_line(const std::string& line) {
  ConfLine out;
  std::size_t at = 0;
  const auto skip_space = [&] {
    while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
  };
  skip_space();
  if (at == line.size() || line[at] == '#') return out;
  // A name, or a dotted extension name (pg_stat_statements.max).
  for (;;) {
    if (at == line.size() || !is_name_start(line[at])) {
      out.problem = "syntax error near \"" + line.substr(at, 20) + "\" (expected a parameter name)";
      return out;
    }
    while (at < line.size() && is_name_char(line[at])) out.name += line[at++];
    if (at < line.size() && line[at] == '.') {
      out.name += line[at++];
      continue;
    }
    break;
  }
  skip_space();
  if (at < line.size() && line[at] == '=') ++at;
  skip_space();
  if (at == line.size() || line[at] == '#') {
    out.problem = "no value for " + out.name;
    return out;
  }
  if (line[at] == '\'') {
    if (!read_quoted(line, at, out.value)) {
      out.problem = "unterminated quoted string in the value of " + out.name;
      return out;
    }
  } else {
    while (at < line.size() && !std::isspace(static_cast<unsigned char>(line[at])) && line[at] != '#') {
      out.value += line[at++];
    }
  }
  skip_space();
  if (at < line.size() && line[at] != '#') {
    out.problem = "syntax error near \"" + line.substr(at, 20) + "\" after the value of " + out.name;
  }
  out.name = lower(out.name);
  return out;
}


}  // namespace

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

Pasted paste_postgresql_conf(const std::string& text, const std::string& where,
                             const std::vector<std::string>& modelled, Errors& errors) {
  // postgres.version picks the release; it is not a postgresql.conf line.
  std::vector<std::string> settable = modelled;
  std::erase(settable, "version");
  // data_checksums is initdb's choice: a read-only parameter the server does
  // not take from postgresql.conf (postgres.data_checksums sets it).
  std::erase(settable, "data_checksums");
  const std::vector<std::string>& real = postgres_parameter_names();
  Pasted pasted;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string line_where = where + ": line " + std::to_string(n + 1);
    const ConfLine line = read_conf_line(lines[n]);
    if (!line.problem.empty()) {
      errors.add(line_where, line.problem);
    } else if (line.name.empty()) {
      continue;
    } else if (line.name == "include" || line.name == "include_if_exists" || line.name == "include_dir") {
      errors.add(line_where, line.name + " is not followed: paste the included file's lines instead");
    } else if (contains(settable, line.name)) {
      pasted.settings.push_back({line.name, line.value, line_where});
    } else if (line.name == "data_checksums") {
      pasted.notes.push_back(line_where +
                             ": data_checksums is fixed by initdb (--data-checksums), and the server ignores it in "
                             "postgresql.conf; set postgres.data_checksums instead");
    } else if (contains(real, line.name) || line.name.find('.') != std::string::npos) {
      note_unmodelled(pasted, line.name);  // a dotted name is an extension's, which the server accepts
    } else {
      errors.add(line_where, unknown_name(line.name, settable, real, "a PostgreSQL parameter"));
    }
  }
  return pasted;
}

Pasted paste_sysctl_conf(const std::string& text, const std::string& where, const std::vector<std::string>& modelled,
                         Errors& errors) {
  std::vector<std::string> sysctls;  // the modelled keys that are sysctls: vm.*
  std::copy_if(modelled.begin(), modelled.end(), std::back_inserter(sysctls),
               [](const std::string& key) { return key.starts_with("vm."); });
  const std::vector<std::string>& real = linux_vm_sysctl_names();
  Pasted pasted;
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string line_where = where + ": line " + std::to_string(n + 1);
    std::string line(trim(lines[n]));
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '-') line.erase(0, 1);  // "ignore errors" changes nothing here: errors are the user's
    const auto equals = line.find('=');
    if (equals == std::string::npos) {
      errors.add(line_where, "\"" + line + "\" is not name = value");
      continue;
    }
    std::string name(trim(std::string_view(line).substr(0, equals)));
    const std::string value(trim(std::string_view(line).substr(equals + 1)));
    std::replace(name.begin(), name.end(), '/', '.');
    const std::string directory = name.substr(0, name.find('.'));
    if (contains(sysctls, name)) {
      pasted.settings.push_back({name, value, line_where});
    } else if (contains(real, name) || (name.find('.') != std::string::npos && is_other_sysctl_directory(directory))) {
      note_unmodelled(pasted, name);
    } else if (contains(modelled, name)) {
      errors.add(line_where, "\"" + name + "\" is not a sysctl: os." + name +
                                 " is a block-queue or model setting; give it as a JSON key");
    } else if (const auto near = nearest_name(directory, other_sysctl_directories());
               near && name.find('.') != std::string::npos && directory != "vm") {
      errors.add(line_where,
                 "\"" + name + "\" is not a Linux sysctl; did you mean " + *near + name.substr(directory.size()) + "?");
    } else {
      errors.add(line_where, unknown_name(name, sysctls, real, "a Linux sysctl"));
    }
  }
  return pasted;
}

}  // namespace ckptsim::scenarios
