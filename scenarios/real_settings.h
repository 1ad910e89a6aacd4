// scenarios/real_settings.h
//
// The names the real programs accept, whether or not ckptsim models them, so
// that pasted postgresql.conf or sysctl.conf text can tell a real setting the
// simulator ignores (a warning) from a typo (an error with a suggestion).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ckptsim::scenarios {

// Every postgresql.conf parameter of PostgreSQL 9.0 to 18 (the union; the
// server's own pg_settings names, lower case).
const std::vector<std::string>& postgres_parameter_names();

// Every vm.* sysctl of Linux 3.0 to 6.x (Documentation/admin-guide/sysctl/vm.rst).
const std::vector<std::string>& linux_vm_sysctl_names();

// The other top-level sysctl directories (kernel, fs, net, ...): too many
// names to list, none of them modelled, so any name under them counts as real.
bool is_other_sysctl_directory(std::string_view directory);
const std::vector<std::string>& other_sysctl_directories();

}  // namespace ckptsim::scenarios
