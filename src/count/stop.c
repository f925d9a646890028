#include <stdio.h>
#include <string.h>

#include "stop.h"

/* The signal that stopped the run, 0 while none has. */
static volatile sig_atomic_t stop_requested;

/*
 * Every signal whose default would end the process, but for the faults a
 * crash raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS:
 * nothing is safe to save after them): Ctrl-C, kill's default, a closed
 * terminal, a closed pipe (`run 2>&1 | head -1`), a CPU or file-size limit,
 * the timers and user signals, and the real-time signals.  Each means
 * "stop and keep what was measured".
 */
static const int stop_signals[] = { SIGHUP,  SIGINT,    SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1,  SIGUSR2,
				    SIGXCPU, SIGXFSZ,   SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSTKFLT };
#define NSTOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))
_Static_assert(NSTOP_SIGNALS + 64 <= UD_STOP_MAX, "UD_STOP_MAX holds the stop signals and the real-time ones");

static void on_stop_signal(int sig)
{
	stop_requested = sig;
}

void ud_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sig >= SIGRTMIN && sig <= SIGRTMAX ? NULL : sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "signal %d", sig);
}

/*
 * A signal ignored when the process started stays ignored: `nohup uarchdiff
 * run &` must outlive the logout's SIGHUP.  SIGINT and SIGQUIT are the
 * exception: a non-interactive shell ignores them for every `&` job, which
 * is the shell's choice and not the user's, and `kill -INT` of such a run
 * must stop it as it stops perf stat.
 */
static void catch_unless_ignored(struct ud_stop *s, int sig, const struct sigaction *sa)
{
	struct sigaction now;

	if (sig != SIGINT && sig != SIGQUIT && (sigaction(sig, NULL, &now) != 0 || now.sa_handler == SIG_IGN))
		return;
	if (sigaction(sig, sa, &s->old[s->n]) == 0)
		s->sigs[s->n++] = sig;
}

volatile sig_atomic_t *ud_stop_catch(struct ud_stop *s)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	stop_requested = 0;
	s->n = 0;
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		catch_unless_ignored(s, stop_signals[i], &sa);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX && s->n < UD_STOP_MAX; sig++)
		catch_unless_ignored(s, sig, &sa);
	return &stop_requested;
}

void ud_stop_release(struct ud_stop *s)
{
	for (size_t i = 0; i < s->n; i++)
		sigaction(s->sigs[i], &s->old[i], NULL);
	s->n = 0;
}
