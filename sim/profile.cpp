#include "sim/profile.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ckptsim::sim {

namespace {

std::string demangled(const std::type_info& type) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                         &std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(type.name());
}

}  // namespace

Profile::Profile(std::vector<std::string> components, Classifier classify) : classify_(std::move(classify)) {
  for (std::string& name : components) components_.push_back(Component{std::move(name)});
  if (components_.empty()) components_.push_back(Component{"engine"});
}

int Profile::component_of(const std::type_info& type) {
  const auto [it, inserted] = by_type_.try_emplace(std::type_index(type), 0);
  if (inserted) {
    const int c = classify_ ? classify_(demangled(type)) : 0;
    it->second = c >= 0 && static_cast<std::size_t>(c) < components_.size() ? c : 0;
  }
  return it->second;
}

void Profile::frame_made(void* frame, const std::type_info& owner) { frame_owner_[frame] = component_of(owner); }

void profile_frame_made(void* frame, const std::type_info& owner) { active_profile->frame_made(frame, owner); }
void profile_frame_gone(void* frame) { active_profile->frame_gone(frame); }

int Profile::component_of_frame(void* frame) const {
  const auto it = frame_owner_.find(frame);
  return it == frame_owner_.end() ? 0 : it->second;
}

}  // namespace ckptsim::sim
