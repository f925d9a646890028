/*
 * raw_config.h - a table entry's event code as the raw perf config the
 * kernel takes for it, shared by the counting engine (events.c) and the
 * top-down events (topdown_method.c).  Portable: arithmetic only.
 */
#ifndef UD_RAW_CONFIG_H
#define UD_RAW_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch.h"

/*
 * The raw perf config of an event on u's PMU: x86's PerfEvtSel layout
 * (event select bits 0-7, unit mask 8-15, edge 18, invert 23, counter mask
 * 24-31, AMD's extended event bits 32-35), or Arm's event number.  umask
 * -1 is none.
 */
uint64_t ud_uarch_raw_config(const struct ud_uarch *u, unsigned code, int umask, int cmask, bool inv, bool edge);

#endif
