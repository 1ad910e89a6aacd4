// scenarios/paste.h
//
// What an engineer would paste: postgresql.conf text (postgres.conf),
// sysctl.conf text (os.sysctl) and a pgbench command line (pgbench.command,
// warmup.command). Each is read as its owner reads it and turned into the
// same settings as the JSON keys, each with where in the text it came from.
// Names the real program accepts but ckptsim does not model are collected
// for one warning; names that are not real are errors with a suggestion.
#pragma once

#include <string>
#include <vector>

#include "scenarios/schema.h"

namespace ckptsim::scenarios {

struct PastedSetting {
  std::string key;    // the JSON key it sets
  json value;         // as written (a string), or null: the key is cleared
  std::string where;  // "/postgres/conf: line 3"
};

struct Pasted {
  std::vector<PastedSetting> settings;  // in the text's order: a later one wins
  std::vector<std::string> unmodelled;  // real names the model ignores, once each
  std::vector<std::string> notes;       // lines the real program ignores, each with why (a whole warning)
};

// postgresql.conf as the server's guc-file.l reads it: `name [=] value`, `#`
// comments, single-quoted values ('' and backslash escapes), names in any
// case. `modelled` are the postgres section's keys.
Pasted paste_postgresql_conf(const std::string& text, const std::string& where,
                             const std::vector<std::string>& modelled, Errors& errors);

// sysctl.conf as procps `sysctl -p` reads it: `name = value`, `#` or `;`
// comment lines, `/` or `.` between a name's parts, a leading `-` to ignore
// a failing line. `modelled` are the os section's keys.
Pasted paste_sysctl_conf(const std::string& text, const std::string& where, const std::vector<std::string>& modelled,
                         Errors& errors);

// A pgbench command line, split as a shell would and read with pgbench 15's
// getopt_long options (short bundles, `-c4`, `--client=4`, unique prefixes of
// long names). `with_scale` is false for the warmup, which runs on the
// measured run's database.
Pasted paste_pgbench_command(const std::string& text, const std::string& where, bool with_scale, Errors& errors);

// A block-throttle limit as a user would paste it: a cgroup v2 io.max line,
// cgroup v1 blkio.throttle.*_device lines (or the echo that wrote them), or
// systemd's IO{Read,Write}{IOPS,Bandwidth}Max= lines (scenarios/paste_blkio.cpp).
// The keys are `prefix` + read_iops, write_iops, read_bps, write_bps; 0 = no limit.
Pasted paste_blkio_throttle(const std::string& text, const std::string& where, const std::string& prefix,
                            Errors& errors);

// The lines of a pasted text ("\n" or "\r\n" ends).
std::vector<std::string> lines_of(const std::string& text);

// Whether a setting path names pasted text: postgres.conf, os.sysctl, pgbench.command, warmup.command.
bool is_pasted_path(const std::string& path);

}  // namespace ckptsim::scenarios
