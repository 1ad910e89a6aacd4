// models/disk/write_amplification.h
//
// Steady-state write amplification of an SSD under uniform random
// overwrites with greedy garbage collection, as a function of
// over-provisioning rho = spare / user capacity (docs/reference/os-disk-model.md 5.3).
//
// Xiang and Kurkoski (2012): WA = alpha / (alpha + W0(-alpha e^-alpha)),
// alpha = 1 + rho, with W0 the principal branch of Lambert's W. It tracks
// simulation closely (rho = 0.3 gives 2.36; Agarwal and Marrow's simpler
// (1 + rho) / (2 rho) gives 2.17).
//
// Left out: hot/cold separation, TRIM, wear levelling traffic.
#pragma once

namespace ckptsim::disk {

// Principal branch of Lambert's W on [-1/e, 0].
double lambert_w0(double x);

double steady_state_write_amplification(double over_provisioning);

}  // namespace ckptsim::disk
