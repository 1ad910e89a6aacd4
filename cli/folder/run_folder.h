// cli/folder/run_folder.h
//
// An output folder holds the files of exactly one run (or one grid), never a
// mix of two. The rule, chosen over an --overwrite flag:
// - a run goes into a folder that is new, empty, or holds nothing but
//   ckptsim's outputs (an earlier run, an earlier grid, temporaries of a killed
//   one, the results index's index.html and _index/ pages); those outputs are
//   replaced as a whole, and only once the new run has its own set
//   (cli/folder/staged_folder.h): a killed or failed run leaves the earlier set;
// - a file counts as ckptsim's output only beside a record of ckptsim's own
//   (run.json with ckptsim's version, grid.json, or a point folder holding
//   such a run.json): a real pgbench.log, a pgbench_log.4711 in a user's
//   folder are the user's. index.html and _index/ pages count only with the
//   results index's generator mark; a point folder only with its run.json (an
//   empty subfolder is the user's); a symbolic link never counts;
// - a folder holding anything else is refused, because ckptsim never deletes
//   a file that it did not write;
// - one run at a time writes into a folder (cli/folder/output_lock.h);
// - a grid resumes: a point folder whose summary.json says "complete": true
//   and whose run.json (the ckptsim version, the --threshold and the point's
//   resolved settings) equals the new point's is kept as it is; every other
//   point is run again into a temporary folder that then takes its place. A chained grid never resumes:
//   its points start from each other's state, so all of them run again.
//
// run.json is written when a point starts, summary.json last of all its files
// (with "complete": false when the run was stopped), so a folder is complete
// only when every file was committed.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stability.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/output_lock.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

// A point's place in a chained grid (scenarios/chain.h): 1-based, of how
// many, and the point it runs after ("" for the first).
struct ChainPlace {
  std::size_t position = 0;
  std::size_t of = 0;
  std::string after;
};

// A grid point's place among the others, as its run.json records it:
//   "repeat": K, "repeat_of": NAME   with "repeat" (scenarios/repeat.h)
//   "warmup_shared_with": NAME       the first point of its warmup group (cli/run/warmup_group.h)
//   "reloaded_after_warmup": {...}   its PostgreSQL settings that a reload set after the
//                                    warmup (the warmup ran with the scenario's own)
struct PointPlace {
  int repeat = 0;
  std::string repeat_of;
  std::string warmup_shared_with;
  scenarios::json reloaded_after_warmup;  // null: none
};
PointPlace point_place(const scenarios::GridPoint& point, const std::string& warmup_shared_with);

// The recorded settings of one point: the text of its run.json. A point of a
// chained grid records its place: "chain": {"position": 2, "of": 4, "after": NAME}.
// "scenario_file" names the file the run came from (scenario_file_from), when known.
std::string run_record(const scenarios::Scenario& scenario, double threshold,
                       std::optional<sim::Duration> crash_at = std::nullopt,
                       const std::optional<ChainPlace>& chain = std::nullopt, const std::string& scenario_file = "",
                       const PointPlace& place = {});

// The key under which run.json and grid.json name the scenario file.
inline constexpr char kScenarioFileKey[] = "scenario_file";

// The scenario file (absolute) as run.json and grid.json record it: a path
// from the run's output folder `out` (a grid's folder, for its points too),
// e.g. "../../A/test.json". It tells two files apart as an absolute path
// does, and it neither shows where a results folder lay on the machine that
// ran it nor goes wrong when the folder is copied, with its scenario, to
// another machine.
std::string scenario_file_from(const std::filesystem::path& out, const std::filesystem::path& scenario_file);

// The default output folder (out/<scenario file's stem>) is this scenario
// file's only: throws FolderRefused when `out` holds a run (or a grid, or a
// grid's point) recorded as coming from another file, naming that file and
// suggesting --out. A run recorded without its file is taken as this one's;
// one recorded with an absolute path (an earlier release) is compared as such.
// A grid resume compares settings, not where the scenario file lies.
void refuse_other_scenario(const std::filesystem::path& out, const std::filesystem::path& scenario_file);

// The results index's own folder (cli/pages/index_layout.h): its own pages
// (generator-marked) and their temporaries only, no symbolic link.
bool is_index_folder(const std::filesystem::path& dir);

// Prints "warning: ..." on stderr, unless `warning` is empty.
void warn_if_any(const std::string& warning);

// A file's whole text ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path);

// The key under which run.json and grid.json record the checksum of the
// plot.gp ckptsim wrote (cli/report/plot_folder.h); not part of the settings a
// grid resume compares.
inline constexpr char kPlotChecksumKey[] = "plot_gp_fnv1a";

// What a kept point contributes to its grid, read back from its folder.
struct KeptPoint {
  analysis::Stability stability;
  std::int64_t events = 0;
  double simulated_seconds = 0;
};

// The folder of a run that went to its end with these recorded settings, or nullopt.
std::optional<KeptPoint> complete_run(const std::filesystem::path& dir, const std::string& record);
// What a run folder's summary.json says, when it says "complete": true (any settings).
std::optional<KeptPoint> finished_run(const std::filesystem::path& dir);

// The output folder of a run, resolved as the kernel will resolve it
// ("d/new/.." is d, checked before anything is created), checked (a folder
// holding anything ckptsim did not write is refused), created, and locked for
// the run's lifetime (cli/folder/output_lock.h). Throws FolderRefused naming `out`.
struct ClaimedOutput {
  std::filesystem::path dir;
  std::unique_ptr<OutputLock> lock;
};
// Without `lock`, the folder is checked and made but not locked (a share of a grid, cli/commands/grid_shares.h).
// `remedy` ends a refusal: what the command that claims the folder can do instead.
inline constexpr char kRunRemedy[] = "a run replaces only ckptsim's own outputs, so choose another --out or move them away";
ClaimedOutput claim_output(const std::filesystem::path& out, bool lock = true, const std::string& remedy = kRunRemedy);

// Readies `out` for a run: removes what a killed run left (its temporary
// folders and files), and returns, per point of a grid, whether its folder
// holds a complete run of the same record (kept). The earlier run's results
// stay until the new ones replace them (staged_folder.h). Throws
// FolderRefused for a folder holding other files.
std::vector<std::optional<KeptPoint>> prepare_output(const std::filesystem::path& out,
                                                     const std::vector<std::string>& point_names,
                                                     const std::vector<std::string>& records, bool grid);

// Removes the temporaries of ckptsim's naming pattern (run_files.h) that a
// dead run left in `out` and its point folders: again when a run ends, since
// a killed run's gnuplot may finish its image after the next run started.
void remove_left_behind(const std::filesystem::path& out);

// Once every point of a grid is done: removes what the folder still holds
// of an earlier run that is not this grid's (another grid's points, a single
// run's files).
void finish_grid_output(const std::filesystem::path& out, const std::vector<std::string>& point_names);

}  // namespace ckptsim::cli
