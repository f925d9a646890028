/*
 * The noise guard and the suite's sampling: thresholds turn figures into
 * warnings; samples interleave in rounds; adaptive sampling stops a steady
 * workload at six samples and a noisy one at its budget; workloads run
 * beside busy loops on every CPU each get a warning.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "noise.h"
#include "rounds.h"
#include "testutil.h"

static const char *const sw[] = { "task-clock", "context-switches" };
static struct ud_event ev[2];
static char *tmproot, logpath[4200];

static void setup(void)
{
	for (int i = 0; i < 2; i++)
		ud_event_resolve(sw[i], &ev[i]);
	tmproot = make_tempdir();
	snprintf(logpath, sizeof(logpath), "%s/log", tmproot);
}

static void teardown(void)
{
	rm_tree(tmproot);
	free(tmproot);
}

static struct ud_runner_opts opts(void)
{
	return (struct ud_runner_opts){ .target_s = 0.01, .timeout_s = 300, .ev = ev, .nev = 2, .tmp_root = tmproot };
}

/* ---- thresholds ---- */

START_TEST(test_thresholds)
{
	struct ud_noise quiet = { .cpus_utilized_min = 0.99, .steal_pct = 0.1, .load_avg = 1, .ci95_rel = 0.01 };
	struct ud_noise busy = { .cpus_utilized_min = 0.48, .steal_pct = 3.5, .load_avg = 4, .ci95_rel = 0.16 };
	struct ud_noise unknown = { .cpus_utilized_min = NAN, .steal_pct = NAN, .load_avg = NAN, .ci95_rel = NAN };

	ck_assert_int_eq(ud_noise_assess(&quiet, true), 0);
	ck_assert_uint_eq(quiet.nwarnings, 0);
	ck_assert_int_eq(ud_noise_assess(&unknown, true), 0);
	ck_assert_uint_eq(unknown.nwarnings, 0);
	ck_assert_int_eq(ud_noise_assess(&busy, true), 0);
	ck_assert_uint_eq(busy.nwarnings, 3);
	ck_assert_str_eq(busy.warnings[0], "ran at 0.48 CPUs utilized (below 0.90): something else held its CPU");
	ck_assert_ptr_nonnull(strstr(busy.warnings[1], "steal time 3.5%"));
	ck_assert_ptr_nonnull(strstr(busy.warnings[2], "95% interval 16.0% (above 5%)"));
	for (size_t i = 0; i < busy.nwarnings; i++)
		free(busy.warnings[i]);
	free(busy.warnings);
	/*
	 * Thresholds at the printed precision: 0.895 CPUs prints "0.90", which
	 * is not below 0.90, and a 5.04% interval prints "5.0%", not above 5%;
	 * 0.894 and 5.06% are.
	 */
	busy = (struct ud_noise){ .cpus_utilized_min = 0.895, .steal_pct = 2.04, .ci95_rel = 0.0504 };
	ck_assert_int_eq(ud_noise_assess(&busy, true), 0);
	ck_assert_uint_eq(busy.nwarnings, 0);
	busy = (struct ud_noise){ .cpus_utilized_min = 0.894, .steal_pct = 2.06, .ci95_rel = 0.0506 };
	ck_assert_int_eq(ud_noise_assess(&busy, true), 0);
	ck_assert_uint_eq(busy.nwarnings, 3);
	ck_assert_str_eq(busy.warnings[0], "ran at 0.89 CPUs utilized (below 0.90): something else held its CPU");
	ck_assert_ptr_nonnull(strstr(busy.warnings[1], "steal time 2.1% of the host's CPU time (above 2%)"));
	ck_assert_ptr_nonnull(strstr(busy.warnings[2], "95% interval 5.1% (above 5%)"));
	ud_noise_clear(&busy);
	/* a workload that waits across CPUs by design is not warned for it */
	busy = (struct ud_noise){ .cpus_utilized_min = 0.3, .steal_pct = 0, .ci95_rel = 0.01 };
	ck_assert_int_eq(ud_noise_assess(&busy, false), 0);
	ck_assert_uint_eq(busy.nwarnings, 0);
}
END_TEST

/* An interval too wide and the budget that ran out before narrowing it: one cause, one sentence, one line's tags. */
START_TEST(test_budget_and_interval_said_once)
{
	struct ud_noise n = { .cpus_utilized_min = 0.58, .steal_pct = 0, .ci95_rel = 0.151, .samples_taken = 15 };
	char causes[256];

	ck_assert_int_eq(ud_noise_assess(&n, true), 0);
	ck_assert_uint_eq(n.nwarnings, 2);
	ck_assert_int_eq(ud_noise_target_missed(&n, 0.02), 0);
	ck_assert_uint_eq(n.nwarnings, 2);
	ck_assert_str_eq(n.warnings[1], "95% interval 15.1% after 15 samples (above 5%): the samples disagree and the suite's "
					"time budget ran out before the 2% target");
	ud_noise_causes(&n, true, causes, sizeof(causes));
	ck_assert_str_eq(causes, "0.58 CPUs, interval 15.1%, budget ran out after 15 samples");
	ud_noise_clear(&n);
	/* under 5% but short of the 2% target: the budget alone */
	n = (struct ud_noise){ .cpus_utilized_min = 1, .steal_pct = 0, .ci95_rel = 0.031, .samples_taken = 20 };
	ck_assert_int_eq(ud_noise_assess(&n, true), 0);
	ck_assert_int_eq(ud_noise_target_missed(&n, 0.02), 0);
	ck_assert_uint_eq(n.nwarnings, 1);
	ck_assert_str_eq(n.warnings[0],
			 "95% interval 3.1% after 20 samples: the suite's time budget ran out before the 2% target");
	ud_noise_causes(&n, true, causes, sizeof(causes));
	ck_assert_str_eq(causes, "budget ran out after 20 samples");
	ud_noise_clear(&n);
}
END_TEST

/* ---- workloads for the sampling tests ---- */

/* Each child's setup notes the workload's name: calibrations and samples in the order they ran. */
static int log_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);

	if (fd < 0)
		return ud_fail(err, "log");
	dprintf(fd, "%s\n", (const char *)ctx->data);
	close(fd);
	return 0;
}

#define LOGGED(n) { .name = n, .units = "lps", .higher_is_better = true, .setup = log_setup, .run = spin_workload, .data = n }
static const struct ud_workload_def logged[] = { LOGGED("a"), LOGGED("b"), LOGGED("c") };

/* A program-like workload reporting its own score: the same every time, or scattered tenfold. */
static int steady_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)iters;
	(void)err;
	ctx->score = 100;
	snprintf(ctx->score_units, sizeof(ctx->score_units), "lps");
	return 0;
}

static int noisy_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct timespec ts;

	(void)iters;
	(void)err;
	uint64_t x;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* a different child each sample: its pid and the clock, mixed (xorshift), scatter the score over 40% */
	x = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)getpid() * 2654435761u;
	for (int i = 0; i < 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	ctx->score = 100 + (double)(x % 1000); /* 100 to 1099: no number of samples in the budget narrows it to 2% */
	snprintf(ctx->score_units, sizeof(ctx->score_units), "lps");
	usleep(10000);
	return 0;
}

static const struct ud_workload_def steady = { .name = "steady", .units = "lps", .run = steady_run, .once = true };
static const struct ud_workload_def noisy = { .name = "noisy", .units = "lps", .run = noisy_run, .once = true };

static void free_items(struct ud_suite_item *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ud_run_result_free(&items[i].res);
}

/* ---- sampling ---- */

/* With -r 3, three rounds: every workload once in each, so drift reaches every interval. */
START_TEST(test_rounds_interleave)
{
	struct ud_suite_item items[3] = { { .def = &logged[0] }, { .def = &logged[1] }, { .def = &logged[2] } };
	struct ud_rounds_plan plan = { .fixed = 3, .seed = 7 };
	struct ud_runner_opts o = opts();
	struct ud_err err;
	char *log, *line, *save = NULL, seq[32] = "";
	int seen[3] = { 0 };
	size_t len = 0;

	for (int i = 0; i < 3; i++)
		items[i].timeout_s = 300;
	ck_assert_int_eq(ud_rounds_run(items, 3, &o, &plan, NULL, NULL, &err), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(items[i].res.nsamples, 3);
	log = read_text(logpath);
	/* the first time a name shows is its calibration; the rest are its samples */
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (seen[line[0] - 'a']++)
			seq[len++] = line[0];
	ck_assert_uint_eq(len, 9);
	for (int round = 0; round < 3; round++) {
		ck_assert_msg(memchr(seq + 3 * round, 'a', 3) && memchr(seq + 3 * round, 'b', 3) &&
				      memchr(seq + 3 * round, 'c', 3), "round %d of %s", round, seq);
	}
	free(log);
	free_items(items, 3);
}
END_TEST

/*
 * Adaptive: a steady score stops at six samples; a scattered one goes on
 * until the suite's budget has no room for its next sample.  How many it
 * took is the host's doing (a loaded one spends the budget on the first
 * six): printed, not asserted.
 */
START_TEST(test_adaptive_stops)
{
	struct ud_suite_item items[2] = { { .def = &steady, .timeout_s = 300 }, { .def = &noisy, .timeout_s = 300 } };
	/* 2.2 s, as the suite would give two workloads of 0.1 s samples: six samples of milliseconds leave room */
	struct ud_rounds_plan plan = { .target_ci95 = UD_ROUNDS_TARGET_CI95, .min_samples = UD_ROUNDS_MIN_SAMPLES,
				    .budget_s = UD_ROUNDS_BUDGET_FACTOR * 2 * UD_ROUNDS_MIN_SAMPLES * 0.1, .seed = 1 };
	struct ud_runner_opts o = opts();
	struct ud_err err;

	o.target_s = 0.1;
	ck_assert_int_eq(ud_rounds_run(items, 2, &o, &plan, NULL, NULL, &err), 0);
	ck_assert_uint_eq(items[0].res.nsamples, UD_ROUNDS_MIN_SAMPLES);
	fprintf(stderr, "noisy: %zu samples in %.2f s\n", items[1].res.nsamples, items[1].seen.sampled_ns / 1e9);
	ck_assert_uint_ge(items[1].res.nsamples, UD_ROUNDS_MIN_SAMPLES);
	/* the steady one reached its target; the noisy one ran out of time and says so, interval under 5% or not */
	ck_assert(!items[0].target_missed);
	ck_assert(items[1].target_missed);
	for (int i = 0; i < 2; i++) {
		struct ud_profile *p = ud_profile_new(NULL);
		struct ud_workload *w = ud_profile_add_workload(p, items[i].def->name);
		bool said = false;

		ck_assert_int_eq(ud_run_to_workload(items[i].def, &items[i].res, ev, 2, w), 0);
		ck_assert_int_eq(ud_noise_measure(&items[i], ev, 2, w), 0);
		for (size_t k = 0; k < w->noise->nwarnings; k++)
			said |= strstr(w->noise->warnings[k], "time budget ran out before the 2% target") != NULL;
		ck_assert_msg(said == (i == 1 && !(w->noise->ci95_rel <= UD_ROUNDS_TARGET_CI95)), "%s", w->name);
		ud_profile_free(p);
	}
	free_items(items, 2);
}
END_TEST

/*
 * Past the first six rounds: the workloads still above the target, widest
 * first (an interval that could not be computed before all), each while its
 * next sample fits in what is left; one that does not fit is dropped, a
 * cheaper one after it may still fit.  Made-up intervals and sample times.
 */
START_TEST(test_pick_widest_that_fit)
{
	struct ud_suite_item items[5] = {
		{ .active = true, .ci95 = 0.03 },  /* 1.0 s a sample */
		{ .active = false, .ci95 = 0.01 }, /* reached its target */
		{ .active = true, .ci95 = 0.30 },  /* 3.0 s a sample: too dear for what is left after the NAN one */
		{ .active = true, .ci95 = NAN },   /* 0.5 s a sample */
		{ .active = true, .ci95 = 0.10 },  /* 1.0 s a sample */
	};
	double cost_s[5] = { 1.0, 1.0, 3.0, 0.5, 1.0 };
	size_t order[5], dropped, m;

	for (int i = 0; i < 5; i++) {
		items[i].res.nsamples = 4;
		items[i].seen.sampled_ns = 4 * cost_s[i] * 1e9;
	}
	m = ud_rounds_pick(items, 5, 3.0, order, &dropped);
	ck_assert_uint_eq(m, 3);
	ck_assert_uint_eq(dropped, 1);
	ck_assert_uint_eq(order[0], 3);
	ck_assert_uint_eq(order[1], 4);
	ck_assert_uint_eq(order[2], 0);
	ck_assert_uint_eq(order[3], 2);
	/* nothing left: every one still above the target is dropped */
	m = ud_rounds_pick(items, 5, 0.1, order, &dropped);
	ck_assert_uint_eq(m, 0);
	ck_assert_uint_eq(dropped, 4);
}
END_TEST

/* Busy loops on every CPU, four each: a workload gets about a fifth of a CPU and must say so. */
START_TEST(test_busy_host_warns)
{
	const struct ud_workload_def *defs[] = { &wl_int, &wl_syscall };
	struct ud_suite_item items[2] = { { .def = defs[0], .timeout_s = 300 }, { .def = defs[1], .timeout_s = 300 } };
	struct ud_rounds_plan plan = { .fixed = 5, .seed = 3 };
	struct ud_runner_opts o = opts();
	struct ud_err err;
	long nbusy;
	int *busy;

	o.target_s = 0.2; /* samples long enough for the scheduler to share the CPUs out */
	busy = busy_loops_start(4, &nbusy);
	ck_assert_int_eq(ud_rounds_run(items, 2, &o, &plan, NULL, NULL, &err), 0);
	busy_loops_stop(busy, nbusy);
	for (int i = 0; i < 2; i++) {
		struct ud_profile *p = ud_profile_new(NULL);
		struct ud_workload *w = ud_profile_add_workload(p, defs[i]->name);

		ck_assert_msg(items[i].res.outcome == UD_OUT_OK, "%s", items[i].res.detail.msg);
		ck_assert_int_eq(ud_run_to_workload(defs[i], &items[i].res, ev, 2, w), 0);
		ck_assert_int_eq(ud_noise_measure(&items[i], ev, 2, w), 0);
		fprintf(stderr, "%s beside %ld busy loops: %.2f CPUs utilized at least, load %.1f, steal %.1f%%\n",
			defs[i]->name, nbusy, w->noise->cpus_utilized_min, w->noise->load_avg, w->noise->steal_pct);
		ck_assert_int_eq(w->noise->samples_taken, 5);
		/* the CPU share is the expected warning; samples that disagree are the other sign of the loops */
		ck_assert_msg(w->noise->nwarnings >= 1, "%s: no warning at %.2f CPUs, interval %.1f%%", defs[i]->name,
			      w->noise->cpus_utilized_min, 100 * w->noise->ci95_rel);
		ck_assert(strstr(w->noise->warnings[0], "CPUs utilized") || strstr(w->noise->warnings[0], "interval"));
		ck_assert(isfinite(w->noise->load_avg));
		ck_assert(w->noise->steal_pct >= 0);
		ud_profile_free(p);
	}
	free_items(items, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("noise");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_thresholds);
	tcase_add_test(tc, test_budget_and_interval_said_once);
	tcase_add_test(tc, test_rounds_interleave);
	tcase_add_test(tc, test_adaptive_stops);
	tcase_add_test(tc, test_pick_widest_that_fit);
	tcase_add_test(tc, test_busy_host_warns);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
