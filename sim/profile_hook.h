// sim/profile_hook.h
//
// What a coroutine promise tells the thread's Profile (profile.h), kept out of
// process.h's includes: the class whose code a frame runs (the type of the
// coroutine's first parameter, *this for a member coroutine) and when the
// frame is gone. Without a profile, one thread-local test.
#pragma once

#include <typeinfo>

namespace ckptsim::sim {

class Profile;
inline thread_local Profile* active_profile = nullptr;

void profile_frame_made(void* frame, const std::type_info& owner);
void profile_frame_gone(void* frame);

inline void note_frame_made(void* frame, const std::type_info& owner) {
  if (active_profile != nullptr) [[unlikely]] {
    profile_frame_made(frame, owner);
  }
}
inline void note_frame_gone(void* frame) {
  if (active_profile != nullptr) [[unlikely]] {
    profile_frame_gone(frame);
  }
}

}  // namespace ckptsim::sim
