/*
 * count_status.h - what became of one counter, in the words of SPEC §3.
 *
 * Portable on purpose: the profile, the importers and the diff speak of
 * counter statuses without the Linux counting engine behind them.
 */
#ifndef UD_COUNT_STATUS_H
#define UD_COUNT_STATUS_H

enum ud_count_status {
	UD_NOT_SUPPORTED, /* the kernel or PMU refused it, or the name is unknown */
	UD_NOT_COUNTED,   /* opened, but never scheduled or not trustworthy */
	UD_COUNTED,
};

/* "counted", "not_supported", "not_counted": the profile's spelling. */
const char *ud_count_status_name(enum ud_count_status s);
/* 0 and *s set when name is one of the three spellings, else -1. */
int ud_count_status_parse(const char *name, enum ud_count_status *s);

#endif
