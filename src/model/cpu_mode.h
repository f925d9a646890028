/*
 * cpu_mode.h - the privilege level CPU time or a sample belongs to, named
 * once for the profile (hotspots) and the diff (time split).
 */
#ifndef UD_CPU_MODE_H
#define UD_CPU_MODE_H

enum ud_mode { UD_MODE_USER, UD_MODE_KERNEL, UD_MODE_COUNT };

/* "user", "kernel": the JSON key and value. */
const char *ud_mode_name(enum ud_mode m);
/* 0 with *out set, or -1 for another name. */
int ud_mode_from_name(const char *name, enum ud_mode *out);

#endif
