/*
 * Guarding the user's data, all in one include: which device may be
 * written (safety_target.h), --preserve (preserve.h), signals (signals.h),
 * --restore (restore.h).
 */
#ifndef FB_SAFETY_H
#define FB_SAFETY_H

#include "preserve.h"
#include "restore.h"
#include "safety_target.h"
#include "signals.h"

#endif
