// sim/sampler.cpp
#include "sim/sampler.h"

#include <stdexcept>
#include <utility>

namespace ckptsim::sim {

Table::Table(std::string name) : name_(std::move(name)), columns_{"time_s"} {}

void Table::add_source(std::vector<std::string> columns, Fill fill) {
  Source source{columns_.size(), columns.size(), std::move(fill)};
  for (std::string& column : columns) columns_.push_back(std::move(column));
  sources_.push_back(std::move(source));
}

void Table::add_sink(Sink sink) { sinks_.push_back(std::move(sink)); }

void Table::close(const Interval& interval) {
  row_.assign(columns_.size(), Cell{std::int64_t{0}});
  row_[0] = to_seconds(interval.end - interval.origin);
  for (const Source& source : sources_) {
    source.fill(interval, std::span<Cell>(row_).subspan(source.first_column, source.column_count));
  }
  for (const Sink& sink : sinks_) sink(*this, row_);
}

Sampler::Sampler(Simulator& sim, Duration period) : sim_(sim), period_(period), timer_(sim, [this] { on_tick(); }) {
  if (period <= 0) throw std::invalid_argument("Sampler period must be positive");
}

Table& Sampler::table(const std::string& name) {
  for (const std::unique_ptr<Table>& t : tables_) {
    if (t->name() == name) return *t;
  }
  tables_.push_back(std::make_unique<Table>(name));
  return *tables_.back();
}

void Sampler::start(Time origin) {
  origin_ = origin;
  interval_start_ = origin;
  ticks_ = 0;
  timer_.schedule_at(origin_ + period_);
}

void Sampler::stop() noexcept { timer_.cancel(); }

void Sampler::close_partial() {
  if (sim_.now() > interval_start_) close_at(sim_.now());
}

void Sampler::on_tick() {
  ++ticks_;
  close_at(sim_.now());
  timer_.schedule_at(origin_ + (ticks_ + 1) * period_);
}

void Sampler::close_at(Time end) {
  const Interval interval{interval_start_, end, closed_, origin_};
  interval_start_ = end;
  ++closed_;
  for (const std::unique_ptr<Table>& t : tables_) t->close(interval);
}

}  // namespace ckptsim::sim
