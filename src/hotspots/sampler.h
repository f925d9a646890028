/*
 * sampler.h - sampled profiles with perf_event_open: one sampling event
 * (cycles where the PMU counts, else the software cpu-clock, which works on
 * a VM without a PMU) at a fixed frequency, PERF_SAMPLE_IP | PERF_SAMPLE_TID,
 * with the side-band records that map user addresses to files (MMAP2, COMM,
 * FORK), inherited by everything the sampled process forks.
 *
 * One event and one ring a CPU; the rings are emptied by a helper process
 * (ring_drainer.h, forked before the events open, so it is neither sampled
 * nor counted) whenever one is half full and at close, into a file
 * descriptor: the output is the kernel's record stream as perf_records.h
 * decodes it, preceded, for the calling process, by MMAP records for what it
 * had mapped before the events opened (the kernel announces only later
 * mappings).  A full ring makes the kernel drop records and say so in a LOST
 * record.
 *
 * Ownership: ud_sampler_open() returns a sampler that ud_sampler_close()
 * stops and frees; the output descriptor stays the caller's.
 */
#ifndef UD_SAMPLER_H
#define UD_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "count_status.h"
#include "error.h"

/*
 * perf record's default is 4000 Hz; at 1000 Hz cpu-clock sampling cost
 * under 1% on the quick suite here (bench/hotspots-overhead.sh) and still
 * gives about 150 samples a 0.15 s sample.
 */
#define UD_SAMPLER_DEFAULT_HZ 1000

/* What to open, decided once (ud_sampler_choose()) and used by every sampled process. */
struct ud_sampler_config {
	const char *event;        /* "cycles" or "cpu-clock"; static */
	uint32_t type;            /* perf_event_attr's type and config */
	uint64_t config;
	unsigned frequency_hz;
	bool exclude_kernel;
	char kernel_reason[UD_REASON_MAX]; /* why kernel code is not sampled; "" when it is */
};

/*
 * Picks the event this host can sample at frequency_hz: cycles where it
 * opens, else cpu-clock; kernel code too where perf_event_paranoid allows.
 * -1 with err when no sampling event opens at all.
 */
int ud_sampler_choose(unsigned frequency_hz, struct ud_sampler_config *c, struct ud_err *err);

/* Programmable counters the sampling event holds while it runs: 1 on cycles, 0 on cpu-clock. */
int ud_sampler_counters_held(const struct ud_sampler_config *c);

enum {
	UD_SAMPLER_ENABLE_ON_EXEC = 1 << 0, /* for a held child: start at its exec (launch.h) */
};

struct ud_sampler;

/*
 * Opens sampling on pid (0: this process, whose current mappings are then
 * written to out_fd first), disabled until ud_sampler_enable() or exec.
 * NULL with err when the event, the ring or the thread cannot be had.
 * The caller frees it with ud_sampler_close().
 */
struct ud_sampler *ud_sampler_open(const struct ud_sampler_config *c, pid_t pid, unsigned flags, int out_fd,
				   struct ud_err *err);
int ud_sampler_enable(struct ud_sampler *s, struct ud_err *err);
int ud_sampler_disable(struct ud_sampler *s, struct ud_err *err);
/* Drains what is left and frees s; -1 with err when writing the records failed at any point. */
int ud_sampler_close(struct ud_sampler *s, struct ud_err *err);

/*
 * A place for the records of several sampled processes in turn: an
 * anonymous file (memfd, close-on-exec) that children inherit and append
 * to.  -1 with err when none can be made.
 */
int ud_records_fd_new(struct ud_err *err);
/*
 * Reads everything written to fd into *buf (malloc'd, the caller frees;
 * NULL when empty) and *len.  -1 with err when reading fails.
 */
int ud_records_fd_read(int fd, uint8_t **buf, size_t *len, struct ud_err *err);

#endif
