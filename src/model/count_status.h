/*
 * count_status.h - what became of one counter, in the words of SPEC §3.
 *
 * Portable on purpose: the profile, the importers and the diff speak of
 * counter statuses without the Linux counting engine behind them.
 */
#ifndef UD_COUNT_STATUS_H
#define UD_COUNT_STATUS_H

/*
 * The one size for "why not counted" text, wherever it is kept in a fixed
 * buffer (a count, an unresolved event): long enough for the longest
 * reason the engine writes, a PMU probe's explanation included.
 */
#define UD_REASON_MAX 320

enum ud_count_status {
	UD_NOT_SUPPORTED, /* the kernel or PMU refused it, or the name is unknown */
	UD_NOT_COUNTED,   /* opened, but never scheduled or not trustworthy */
	UD_COUNTED,
};

/* "counted", "not_supported", "not_counted": the profile's spelling.  Returns a static string. */
const char *ud_count_status_name(enum ud_count_status s);
/* 0 and *s set when name is one of the three spellings, else -1. */
int ud_count_status_parse(const char *name, enum ud_count_status *s);

#endif
