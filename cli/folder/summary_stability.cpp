#include "cli/folder/summary_stability.h"

namespace ckptsim::cli {

nlohmann::ordered_json stability_json(const analysis::Stability& s) {
  return {{"tps_mean", s.tps_mean},     {"tps_stddev", s.tps_stddev},
          {"threshold", s.threshold},   {"pct_below_threshold", s.pct_below_threshold},
          {"tps_min", s.tps_min},       {"tps_q1", s.tps_q1},
          {"tps_median", s.tps_median}, {"tps_q3", s.tps_q3},
          {"tps_max", s.tps_max},       {"skipped_pct", s.skipped_pct},
          {"late_pct", s.late_pct}};
}

analysis::Stability stability_from_json(const nlohmann::json& j) {
  analysis::Stability s;
  s.tps_mean = j.at("tps_mean").get<double>();
  s.tps_stddev = j.at("tps_stddev").get<double>();
  s.threshold = j.at("threshold").get<double>();
  s.pct_below_threshold = j.at("pct_below_threshold").get<double>();
  s.tps_min = j.at("tps_min").get<double>();
  s.tps_q1 = j.at("tps_q1").get<double>();
  s.tps_median = j.at("tps_median").get<double>();
  s.tps_q3 = j.at("tps_q3").get<double>();
  s.tps_max = j.at("tps_max").get<double>();
  s.skipped_pct = j.at("skipped_pct").get<double>();
  s.late_pct = j.at("late_pct").get<double>();
  return s;
}

}  // namespace ckptsim::cli
