/*
 * Guarding the user's data, all in one include: which device may be
 * written (safety/safety_target.h), --preserve (safety/preserve.h), signals (safety/signals.h),
 * --restore (safety/restore.h), the lock on what a run tests (safety/lock.h).
 */
#ifndef FB_SAFETY_H
#define FB_SAFETY_H

#include "safety/lock.h"
#include "safety/preserve.h"
#include "safety/restore.h"
#include "safety/safety_target.h"
#include "safety/signals.h"

#endif
