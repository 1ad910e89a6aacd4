#include "cli/report/backend_waits.h"

#include <string>

namespace ckptsim::cli {

namespace {
using os::IoLayer;
using postgres::WaitEvent;

std::string layer_column(std::size_t i) {
  return i == static_cast<std::size_t>(IoLayer::None) ? "other" : os::io_layer_name(static_cast<IoLayer>(i));
}

BackendWaits::Totals minus(const BackendWaits::Totals& a, const BackendWaits::Totals& b) {
  BackendWaits::Totals d;
  for (std::size_t i = 0; i < d.events.size(); ++i) d.events[i] = a.events[i] - b.events[i];
  for (std::size_t i = 0; i < d.layers.size(); ++i) d.layers[i] = a.layers[i] - b.layers[i];
  return d;
}
}  // namespace

BackendWaits::BackendWaits(std::vector<const postgres::Backend*> backends)
    : backends_(std::move(backends)),
      origin_(now_totals()),
      events_at_close_(origin_.events),
      layers_at_close_(origin_.layers) {}

BackendWaits::Totals BackendWaits::now_totals() const {
  Totals t;
  for (const postgres::Backend* be : backends_) {
    sim::Duration io = 0;
    for (std::size_t i = 0; i < kEvents; ++i) {
      const auto e = static_cast<WaitEvent>(i);
      const sim::Duration d = be->waits().total(e);
      t.events[i] += d;
      if (postgres::is_io_wait(e)) io += d;
    }
    // Only a backend's time inside IO waits is split by layer; whatever of it
    // no layer claimed is "other".
    sim::Duration claimed = 0;
    for (std::size_t i = 1; i < kLayers; ++i) {
      const sim::Duration d = be->task().io_layers.total(static_cast<IoLayer>(i));
      t.layers[i] += d;
      claimed += d;
    }
    t.layers[0] += io - claimed;
  }
  return t;
}

BackendWaits::Totals BackendWaits::totals() const { return minus(now_totals(), origin_); }

void BackendWaits::add_wait_columns(sim::Table& waits) {
  std::vector<std::string> columns;
  for (std::size_t i = 0; i < kEvents; ++i) columns.emplace_back(postgres::wait_event_name(static_cast<WaitEvent>(i)));
  waits.add_source(std::move(columns), [this](const sim::Interval&, std::span<sim::Cell> row) {
    const Totals now = now_totals();
    for (std::size_t i = 0; i < kEvents; ++i) row[i] = sim::to_seconds(now.events[i] - events_at_close_[i]);
    events_at_close_ = now.events;
  });
}

void BackendWaits::add_layer_columns(sim::Table& io_layers) {
  std::vector<std::string> columns;
  for (std::size_t i = 1; i < kLayers; ++i) columns.push_back(layer_column(i));
  columns.push_back(layer_column(0));
  io_layers.add_source(std::move(columns), [this](const sim::Interval&, std::span<sim::Cell> row) {
    const Totals now = now_totals();
    for (std::size_t i = 1; i < kLayers; ++i) row[i - 1] = sim::to_seconds(now.layers[i] - layers_at_close_[i]);
    row[kLayers - 1] = sim::to_seconds(now.layers[0] - layers_at_close_[0]);
    layers_at_close_ = now.layers;
  });
}

nlohmann::ordered_json BackendWaits::summary_json() const {
  const Totals t = totals();
  nlohmann::ordered_json events = nlohmann::ordered_json::object();
  sim::Duration all = 0;
  for (std::size_t i = 0; i < kEvents; ++i) {
    events[postgres::wait_event_name(static_cast<WaitEvent>(i))] = sim::to_seconds(t.events[i]);
    all += t.events[i];
  }
  nlohmann::ordered_json layers = nlohmann::ordered_json::object();
  for (std::size_t i = 1; i < kLayers; ++i) layers[layer_column(i)] = sim::to_seconds(t.layers[i]);
  layers[layer_column(0)] = sim::to_seconds(t.layers[0]);
  return {{"backend_seconds", sim::to_seconds(all)}, {"events", events}, {"io_layers", layers}};
}

}  // namespace ckptsim::cli
