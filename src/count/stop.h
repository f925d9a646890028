/*
 * stop.h - the signals that stop a measurement and keep what it measured:
 * every signal whose default would end the process but a crash's, caught
 * for the length of a run and given back after, and named as kill -l
 * names them.
 */
#ifndef UD_STOP_H
#define UD_STOP_H

#include <signal.h>
#include <stddef.h>

/* The stop signals and the SIGRTMIN..SIGRTMAX ones (33 on Linux) */
#define UD_STOP_MAX (15 + 64)

struct ud_stop {
	int sigs[UD_STOP_MAX];
	struct sigaction old[UD_STOP_MAX];
	size_t n;
};

/*
 * Catches the stop signals (their old actions kept in s) and returns the
 * flag they set: 0 until one arrives, then its number.  A signal ignored
 * now (nohup's SIGHUP) stays ignored, but for SIGINT and SIGQUIT, which a
 * shell ignores for its `&` jobs.  One catch at a time: the flag is
 * the process's.
 */
volatile sig_atomic_t *ud_stop_catch(struct ud_stop *s);
/* Gives the signals back their old actions. */
void ud_stop_release(struct ud_stop *s);
/* "SIGTERM", "SIGRTMIN+3", "signal 99". */
void ud_signal_name(int sig, char *buf, size_t len);

#endif
