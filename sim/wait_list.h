// sim/wait_list.h
//
// The intrusive FIFO of suspended coroutines behind a Condition, an Event or
// a Resource. Each node lives in the awaiter object, inside the waiting
// coroutine's frame, so waiting allocates nothing.
//
// auto_unlink makes teardown safe in either order: a frame destroyed while
// waiting (by ~Simulator) takes its node out of the list, and a list
// destroyed first marks its nodes unlinked so the frames no longer point
// at it.
#pragma once

#include <coroutine>

#include <boost/intrusive/list.hpp>

namespace ckptsim::sim {

using WaitHook = boost::intrusive::list_base_hook<boost::intrusive::link_mode<boost::intrusive::auto_unlink>>;

struct Waiter : WaitHook {
  std::coroutine_handle<> coroutine;
};

template <class Node>
using WaitList = boost::intrusive::list<Node, boost::intrusive::constant_time_size<false>>;

}  // namespace ckptsim::sim
