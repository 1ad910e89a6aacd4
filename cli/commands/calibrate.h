// cli/commands/calibrate.h
//
// `ckptsim calibrate FIO.json [--name NAME] [--out FILE]`: reads fio's JSON
// output of scripts/calibrate.fio, fits a device (cli/calibrate/device_fit.h)
// and writes it as a preset file for `--preset-file` (a "device" section
// holding every device setting, so no preset underneath shows through), then
// prints, per job, fio's IOPS beside the fitted device's under `devbench`'s
// job runner. The file is NAME.json in the working folder unless --out says
// otherwise; an existing file is never overwritten.
#pragma once

#include <string>

namespace ckptsim::cli {

struct CalibrateArgs {
  std::string fio_json;
  std::string name = "calibrated";
  std::string out;  // "" : NAME.json
};

int command_calibrate(const CalibrateArgs& args);

}  // namespace ckptsim::cli
