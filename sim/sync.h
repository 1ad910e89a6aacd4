// sim/sync.h
//
// The synchronisation primitives processes wait on, in one include:
// Condition (a wait list), Event (a latch), LWLock (shared / exclusive, scoped),
// Resource (a pool of servers).
#pragma once

#include "sim/condition.h"
#include "sim/event.h"
#include "sim/lwlock.h"
#include "sim/resource.h"
