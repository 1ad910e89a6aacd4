// sim/profile.h
//
// `run --profile`: where a run's wall time goes, per component of the model
// (engine, pgbench, postgres, kernel, block layer, device), so that a user
// sees why a run is slow without a profiler.
//
// Each event is charged to the component whose code it runs: a resumed
// coroutine to the class it is a member coroutine of (its promise learns the
// type of its first parameter, *this, when the frame is made), a timer to the
// class whose lambda it calls. The caller names the components and maps a
// demangled type name to one (Classifier); what maps to none is the engine's.
// An event's wall time runs from its dispatch to its return, so it includes
// what the code does inline in the layers below it (a backend's write() into
// the page cache is postgres time); the engine's time is the rest: the queue,
// and whatever the caller does between run_until() calls.
//
// A profile is active on a thread for the life of an ActiveProfile; the
// Simulators made meanwhile charge their events to it, and it must outlive
// them.
//
// Profiling costs two clock reads and a hash lookup per event, and a hash
// insert per coroutine frame; without a profile, one thread-local test per
// frame. The figures change no output of the run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "sim/profile_hook.h"

namespace ckptsim::sim {

class Profile {
 public:
  // A demangled type name ("ckptsim::postgres::Backend") to a component index, 0 for the engine.
  using Classifier = std::function<int(std::string_view type_name)>;

  Profile(std::vector<std::string> components, Classifier classify);

  struct Component {
    std::string name;
    std::uint64_t events = 0;
    std::chrono::nanoseconds wall{0};
  };
  const std::vector<Component>& components() const noexcept { return components_; }

  // Coroutine frames, as their promises are made and destroyed.
  void frame_made(void* frame, const std::type_info& owner);
  void frame_gone(void* frame) { frame_owner_.erase(frame); }

  int component_of_frame(void* frame) const;
  int component_of(const std::type_info& type);
  void charge(int component, std::chrono::nanoseconds wall) {
    Component& c = components_[static_cast<std::size_t>(component)];
    ++c.events;
    c.wall += wall;
  }

 private:
  std::vector<Component> components_;
  Classifier classify_;
  std::unordered_map<std::type_index, int> by_type_;
  std::unordered_map<void*, int> frame_owner_;
};

// Makes `profile` (or none) the thread's active profile for its scope.
class ActiveProfile {
 public:
  explicit ActiveProfile(Profile* profile) noexcept : before_(active_profile) { active_profile = profile; }
  ~ActiveProfile() { active_profile = before_; }
  ActiveProfile(const ActiveProfile&) = delete;
  ActiveProfile& operator=(const ActiveProfile&) = delete;

 private:
  Profile* before_;
};

}  // namespace ckptsim::sim
