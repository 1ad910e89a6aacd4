// scenarios/version_gates.h
//
// PostgreSQL settings whose existence or range depends on the release, and
// values the model does not cover. The server refuses a parameter it does not
// have ("unrecognized configuration parameter") and a value outside its
// release's range; so does the loader, rather than let the model ignore it.
// Only values a scenario wrote are checked (a version preset writes the
// release's own defaults, e.g. checkpoint_flush_after 0 before 9.6).
#pragma once

#include "scenarios/layers.h"
#include "scenarios/scenario.h"

namespace ckptsim::scenarios {

// wal_sync_method values that exist but are not modelled (open_datasync,
// open_sync) or not on Linux (fsync_writethrough): an error each, and the
// key is dropped so that the schema does not report it again.
void refuse_unmodelled_values(Layers& layers, Errors& errors);

// `written` is the postgres section as the scenario's layers wrote it,
// before the version preset was laid under it.
void check_version_gates(const json& written, const Layers& layers, const Scenario& s, Errors& errors);

}  // namespace ckptsim::scenarios
