// cli/pages/results_tree.h
//
// What `ckptsim index DIR` finds under DIR: every run folder (run.json, which
// a run writes first; summary.json once it ended) and every grid folder
// (grid.json: its title and its points' folder names in grid order). The walk
// goes down through plain folders, does not follow symbolic links, skips
// hidden folders and the index's own _index/ folder, and does not look inside
// a run folder. A grid's points are
// runs like any other, and know their grid.
//
// Unreadable JSON does not stop the walk: the run is listed with what could
// be read (a run still going has no summary.json yet).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

struct RunEntry {
  std::filesystem::path dir;  // relative to the tree's root ("." for the root itself)
  nlohmann::json record;      // run.json (null if unreadable)
  nlohmann::json summary;     // summary.json (null if absent or unreadable)
  // From progress.csv (empty when it is missing or unreadable): the tps of
  // each interval, and the worst interval's latency_p99_ms when it has one.
  std::vector<double> tps;
  double interval_s = 1;
  std::optional<double> worst_p99_ms;
  std::optional<std::size_t> grid;  // index into ResultsTree::grids
  std::string point;                // its point name in that grid

  std::string id() const;  // dir as a '/'-separated string: the compare page's key
  bool complete() const;   // summary.json says "complete": true
};

struct GridEntry {
  std::filesystem::path dir;
  std::string title;
  std::vector<std::string> grid_paths;  // the varied settings: summary.csv's leading columns
  std::vector<std::string> points;      // grid.json's point folder names, in grid order
  std::vector<std::size_t> runs;        // its points' runs, in grid order (missing ones left out)
  bool chained = false;                 // grid.json's "chain": points run one after another on one host

  std::string id() const;
};

struct ResultsTree {
  std::filesystem::path root;
  std::vector<RunEntry> runs;    // by path
  std::vector<GridEntry> grids;  // by path
};

// Throws std::runtime_error if `root` is not a folder.
ResultsTree scan_results(const std::filesystem::path& root);

// The JSON of a file, or null when it is missing or not JSON.
nlohmann::json read_json_file(const std::filesystem::path& path);

}  // namespace ckptsim::cli
