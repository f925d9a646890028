/*
 * control.h - perf stat's --control: commands read from a descriptor or a
 * FIFO while counting, in perf 6.1's words (tools/perf/util/evlist.c,
 * evlist__ctlfd_process()): "enable", "disable", "enable NAME",
 * "disable NAME", "snapshot", "evlist", "stop" and "ping", one a line,
 * each acknowledged with perf's "ack\n" and its NUL but snapshot and words
 * perf does not know.  Here the descriptors and the words only: the
 * session (launch.h) does what each command asks.
 *
 * Ownership: a struct ud_control is the caller's; ud_control_close()
 * closes the FIFOs it opened, never a descriptor it was given (fd:N).
 */
#ifndef UD_CONTROL_H
#define UD_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* perf's EVLIST_CTL_CMD_MAX_LEN: a longer line is cut there, its rest read as the next command. */
#define UD_CONTROL_LINE_MAX 64

enum ud_control_verb {
	UD_CONTROL_ENABLE,
	UD_CONTROL_DISABLE,
	UD_CONTROL_SNAPSHOT, /* perf record's: stat ignores it, unacknowledged */
	UD_CONTROL_EVLIST,   /* the events' names */
	UD_CONTROL_STOP,     /* perf record's: stat acknowledges it and goes on, as perf stat 6.1 */
	UD_CONTROL_PING,
	UD_CONTROL_UNKNOWN,
};

struct ud_control_cmd {
	enum ud_control_verb verb;
	/* after the word: "" none, else what follows its space; NULL when malformed ("enablex"); borrowed until the next take */
	const char *arg;
};

struct ud_control {
	int fd, ack;          /* -1: none */
	bool own_fd, own_ack; /* opened here (fifo:): closed by ud_control_close() */
	bool done;            /* end of file or an error: nothing more to read */
	char buf[UD_CONTROL_LINE_MAX * 4];
	size_t len;
	char line[UD_CONTROL_LINE_MAX];
};

/*
 * Opens perf's --control spec: "fd:CTL[,ACK]" (descriptors this process
 * was given) or "fifo:CTL[,ACK]" (FIFOs: the control one opened read-write,
 * so that a writer closing it is no end; the ack one write-only, which
 * waits for its reader as perf's does).  -1 with err when malformed or
 * unopenable.
 */
int ud_control_open(const char *spec, struct ud_control *c, struct ud_err *err);
void ud_control_close(struct ud_control *c);
/* Reads what the control descriptor holds (one read: it may be blocking); at its end or an error, done. */
void ud_control_fill(struct ud_control *c);
/* The next whole command read, split at a newline or a NUL as perf's; false when none is. */
bool ud_control_take(struct ud_control *c, struct ud_control_cmd *cmd);
/* The acknowledgement perf writes for the commands it acknowledges (the verb's), where there is an ack descriptor. */
void ud_control_ack(struct ud_control *c, enum ud_control_verb verb);

#endif
