/*
 * The runner with workloads written for the test: setup is not counted,
 * helpers are, a crash and a hang are outcomes while the rest completes,
 * and no temporary file survives; then a built-in workload end to end.
 */
#include <dirent.h>
#include <sched.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "derived.h"
#include "host.h"
#include "runner.h"
#include "selection.h"
#include "suite.h"
#include "testutil.h"

/* A workload that is not meant to hang gets this long: under a loaded CI machine
 * a 20 ms workload has taken over 2 s, and a hang is what ctest's own timeout catches. */
#define LOAD_PROOF_TIMEOUT_S 300

static const char *const sw[] = { "page-faults", "context-switches", "task-clock" };
enum { PF, CS, TC, NSW };

static struct ud_event ev[NSW];
static char *tmproot;

static void setup(void)
{
	for (int i = 0; i < NSW; i++)
		ud_event_resolve(sw[i], &ev[i]);
	tmproot = make_tempdir();
}

static void teardown(void)
{
	rm_tree(tmproot);
	free(tmproot);
}

static struct ud_runner_opts opts(void)
{
	/* a timeout far above any workload here, so a loaded machine never reads as a hang */
	return (struct ud_runner_opts){ .target_s = 0.02, .samples = 3, .timeout_s = LOAD_PROOF_TIMEOUT_S, .ev = ev, .nev = NSW,
					.tmp_root = tmproot };
}

/* ---- workloads for the test ---- */

static int heavy_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	long page = sysconf(_SC_PAGESIZE), n = 20000;
	volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return ud_fail(err, "mmap");
	for (long i = 0; i < n; i++)
		p[i * page] = 1; /* 20000 page faults, none of them measured */
	ctx->state = (void *)p;
	return 0;
}

static int crash_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	FILE *f;
	char path[4200];

	(void)iters;
	(void)err;
	snprintf(path, sizeof(path), "%s/left-behind", ctx->tmpdir);
	f = fopen(path, "w"); /* a file the crash leaves: the runner must remove it */
	if (f)
		fclose(f);
	signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn the crash into an exit */
	raise(SIGSEGV);
	return 0;
}

static char helper_pid_file[4200];

static int hang_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	pid_t helper = fork();
	char pid[32];

	(void)ctx;
	(void)iters;
	(void)err;
	if (helper == 0)
		pause(); /* a helper that would outlive it, but for the process group */
	snprintf(pid, sizeof(pid), "%d", (int)helper);
	write_text(helper_pid_file, pid);
	pause();
	return 0;
}

/* Gone, or a zombie waiting for init: either way, not running. */
static int process_running(pid_t pid)
{
	char path[64], *stat;
	int running;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = read_text(path);
	if (!stat)
		return 0;
	running = strstr(stat, ") Z ") == NULL && strstr(stat, ") X ") == NULL;
	free(stat);
	return running;
}

static int fail_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	(void)ctx;
	return ud_fail(err, "no such device");
}

/* A helper that leaves the process group (setsid), as daemons do, and would live on. */
static int setsid_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	pid_t helper = fork();
	char pid[32];

	(void)ctx;
	(void)iters;
	(void)err;
	if (helper == 0) {
		setsid();
		/* exec, as a spec's program does: the runner's pipe is close-on-exec */
		execlp("sleep", "sleep", "300", (char *)NULL);
		_exit(127);
	}
	snprintf(pid, sizeof(pid), "%d", (int)helper);
	write_text(helper_pid_file, pid);
	return 0;
}

static const struct ud_workload_def escapes = { .name = "escapes", .units = "lps", .run = setsid_run, .once = true };

/* Forks from the 80 MB setup: each child's exit tears down a large address space. */
static int fork_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return ud_fail(err, "fork");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return 0;
}

static const struct ud_workload_def heavy_forks = { .name = "heavy-forks", .units = "lps", .higher_is_better = true,
						    .setup = heavy_setup, .run = fork_run };
static const struct ud_workload_def heavy = { .name = "heavy-setup", .units = "lps", .higher_is_better = true,
					      .setup = heavy_setup, .run = spin_workload };
static const struct ud_workload_def crash = { .name = "crash", .units = "lps", .run = crash_run };
static const struct ud_workload_def hang = { .name = "hang", .units = "lps", .run = hang_run };
static const struct ud_workload_def failing = { .name = "fails", .units = "lps", .setup = fail_setup,
						.run = spin_workload };

START_TEST(test_setup_is_not_counted)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;

	ud_run_workload(&heavy, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_OK);
	ck_assert_uint_eq(r.nsamples, 3);
	for (size_t s = 0; s < r.nsamples; s++) {
		ck_assert_int_eq(r.samples[s].counts[PF].status, UD_COUNTED);
		ck_assert_double_lt(r.samples[s].counts[PF].value, 500);
		ck_assert_double_gt(r.samples[s].counts[TC].value, 0);
		ck_assert_double_eq(r.samples[s].work, (double)r.iters);
	}
	ud_run_result_free(&r);
}
END_TEST

START_TEST(test_helpers_are_counted)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;

	ud_run_workload(&wl_ctxsw, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_OK);
	/* each round trip blocks this side and the forked helper once each */
	ck_assert_double_ge(r.samples[0].counts[CS].value, 2.0 * (double)r.iters);
	ud_run_result_free(&r);
}
END_TEST

START_TEST(test_crash_hang_and_failure_are_outcomes)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;

	ud_run_workload(&crash, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_CRASHED);
	ck_assert_ptr_nonnull(strstr(r.detail.msg, "signal 11"));
	ud_run_result_free(&r);

	o.timeout_s = 2;
	snprintf(helper_pid_file, sizeof(helper_pid_file), "%s.helper", tmproot);
	ud_run_workload(&hang, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_TIMEOUT);
	ck_assert_ptr_nonnull(strstr(r.detail.msg, "timed out"));
	ud_run_result_free(&r);
	if (access(helper_pid_file, F_OK) == 0) {
		/*
		 * The hung workload's helper died with its process group.  (A host
		 * loaded enough can time the workload out before it forked one:
		 * then there is no helper to ask after.)
		 */
		char *pid = read_text(helper_pid_file);

		ck_assert_ptr_nonnull(pid);
		/* the kill is sent; its delivery waits for the scheduler, so poll */
		for (int i = 0; i < 600 && process_running((pid_t)atoi(pid)); i++)
			usleep(100000);
		ck_assert(!process_running((pid_t)atoi(pid)));
		free(pid);
		unlink(helper_pid_file);
	}

	o.timeout_s = LOAD_PROOF_TIMEOUT_S;
	ud_run_workload(&failing, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	ck_assert_str_eq(r.detail.msg, "failed: no such device");
	ud_run_result_free(&r);

	/* and the next one still runs */
	ud_run_workload(&heavy, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_OK);
	ud_run_result_free(&r);
	ck_assert_int_eq(count_entries(tmproot), 0); /* no temporary file left, the crash's included */
}
END_TEST

START_TEST(test_setsid_helper_is_killed)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;
	char *pid;

	snprintf(helper_pid_file, sizeof(helper_pid_file), "%s.helper", tmproot);
	o.samples = 1;
	ud_run_workload(&escapes, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_OK);
	ud_run_result_free(&r);
	pid = read_text(helper_pid_file);
	ck_assert_ptr_nonnull(pid);
	/* adopted by the runner (a subreaper), killed and reaped: not even a zombie */
	ck_assert(!process_running((pid_t)atoi(pid)));
	ck_assert_int_ne(kill((pid_t)atoi(pid), 0), 0);
	free(pid);
	unlink(helper_pid_file);
}
END_TEST

/* A child the caller had before the workload (a test's busy loop, a tool's helper) is not the workload's to kill. */
START_TEST(test_callers_children_are_spared)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;
	pid_t mine = fork();

	ck_assert_int_ge(mine, 0);
	if (mine == 0) {
		pause();
		_exit(0);
	}
	snprintf(helper_pid_file, sizeof(helper_pid_file), "%s.helper", tmproot);
	o.samples = 1;
	ud_run_workload(&escapes, &o, &r); /* its setsid() helper is killed, as above */
	ck_assert_int_eq(r.outcome, UD_OUT_OK);
	ud_run_result_free(&r);
	ck_assert(process_running(mine));
	kill(mine, SIGKILL);
	waitpid(mine, NULL, 0);
	unlink(helper_pid_file);
}
END_TEST

START_TEST(test_no_temporary_directory_is_an_outcome)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;

	o.tmp_root = "/nonexistent-uarchdiff-root";
	ud_run_workload(&heavy, &o, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	ck_assert_ptr_nonnull(strstr(r.detail.msg, "cannot make a temporary directory"));
	ck_assert_uint_eq(r.nsamples, 0);
	ud_run_result_free(&r);
}
END_TEST

START_TEST(test_filecopy_end_to_end)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, wl_fcopy1k.name);

	ud_run_workload(&wl_fcopy1k, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_int_eq(ud_run_to_workload(&wl_fcopy1k, &r, ev, NSW, w), 0);
	ck_assert_str_eq(w->units, "KBps");
	ck_assert_str_eq(w->outcome, "ok");
	ck_assert_int_eq(w->runs, 3);
	ck_assert_uint_eq(w->score.nsamples, 3);
	ck_assert_double_gt(w->score.median, 0);
	/* 1 KB an iteration: work is exact */
	ck_assert_double_eq(w->work_units, 3.0 * (double)r.iters);
	ck_assert_int_eq(ud_workload_counter(w, "task-clock")->status, UD_COUNTED);
	ck_assert_int_eq(count_entries(tmproot), 0);
	ud_run_result_free(&r);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_every_builtin_runs)
{
	size_t n;
	const struct ud_workload_def *const *all = ud_workloads_all(&n);
	struct ud_runner_opts o = opts();

	o.samples = 1;
	o.target_s = 0.005;
	o.l1d = 32 << 10;
	o.l2 = 256 << 10;
	o.l3 = 2 << 20; /* small, so the memory sweeps stay quick here */
	for (size_t i = 0; i < n; i++) {
		struct ud_run_result r;
		struct ud_err err;

		if (all[i]->available && all[i]->available(&err) != 0)
			continue; /* context-switch-cross on a 1-CPU host */
		ud_run_workload(all[i], &o, &r);
		ck_assert_msg(r.outcome == UD_OUT_OK, "%s: %s", all[i]->name, r.detail.msg);
		ck_assert_msg(r.samples[0].work > 0, "%s did no work", all[i]->name);
		ud_run_result_free(&r);
	}
	ck_assert_int_eq(count_entries(tmproot), 0);
}
END_TEST

/*
 * task-clock against getrusage on a fork loop: the children's exits are
 * complete in getrusage (reaped whole), and CPUs utilized uses the larger,
 * so the inherited task-clock's shortfall (the exiting child's address-space
 * teardown, after its counters were flushed) does not read as idle time.
 */
START_TEST(test_fork_loop_cpu_time)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, heavy_forks.name);
	double tc, ru, util;

	o.target_s = 0.1;
	ud_run_workload(&heavy_forks, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_int_eq(ud_run_to_workload(&heavy_forks, &r, ev, NSW, w), 0);
	tc = ud_workload_value(w, "task-clock");
	ru = w->user_ns + w->sys_ns;
	util = ud_metric(w, UD_M_CPUS_UTILIZED);
	fprintf(stderr, "fork loop: task-clock %.1f ms, getrusage %.1f ms, elapsed %.1f ms, CPUs utilized %.2f\n",
		tc / 1e6, ru / 1e6, w->elapsed_ns / 1e6, util);
	/* getrusage holds everything task-clock does (its clock ticks aside) */
	ck_assert_double_ge(ru, 0.9 * tc);
	ck_assert_double_ge(util * w->elapsed_ns, 0.999 * (ru > tc ? ru : tc) / 1.02);
	ud_run_result_free(&r);
	ud_profile_free(p);
}
END_TEST

/* fstime's -m is KB whatever the buffer: 500, 2000 and 8000 KB files. */
START_TEST(test_filecopy_sizes_are_fstimes)
{
	const struct ud_workload_def *defs[] = { &wl_fcopy256, &wl_fcopy1k, &wl_fcopy4k };
	const long kb[] = { 500, 2000, 8000 };

	for (int i = 0; i < 3; i++) {
		struct wl_ctx ctx = { .tmpdir = tmproot, .work_per_iter = 1 };
		struct ud_err err;
		struct stat st;
		char path[4200];

		ck_assert_msg(defs[i]->setup(&ctx, &err) == 0, "%s", err.msg);
		snprintf(path, sizeof(path), "%s/copy-src", tmproot);
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_int_eq(st.st_size, kb[i] * 1024);
		defs[i]->teardown(&ctx);
		unlink(path);
		snprintf(path, sizeof(path), "%s/copy-dst", tmproot);
		unlink(path);
	}
}
END_TEST

/* spawn and exec run in the minimal helper process, found beside the build or through UARCHDIFF_HELPERS_DIR. */
START_TEST(test_spawn_runs_in_the_helper)
{
	struct ud_runner_opts o = opts();
	struct ud_run_result r;

	o.samples = 1;
	setenv("UARCHDIFF_HELPERS_DIR", tmproot, 1);
	ud_run_workload(&wl_spawn, &o, &r);
	unsetenv("UARCHDIFF_HELPERS_DIR");
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	ck_assert_msg(strstr(r.detail.msg, "/uarchdiff-spawn: No such file") != NULL, "%s", r.detail.msg);
	ud_run_result_free(&r);
	for (int i = 0; i < 2; i++) {
		const struct ud_workload_def *d = i ? &wl_exec : &wl_spawn;

		ud_run_workload(d, &o, &r);
		ck_assert_msg(r.outcome == UD_OUT_OK, "%s: %s", d->name, r.detail.msg);
		/* a new process or program an iteration, counted through the helper: a page fault each at least */
		ck_assert_double_ge(r.samples[0].counts[PF].value, (double)r.iters);
		ud_run_result_free(&r);
	}
}
END_TEST

/* context-switch pins itself to one CPU; context-switch-cross needs two and says why when it has one. */
START_TEST(test_context_switch_pinning)
{
	struct wl_ctx ctx = { .tmpdir = tmproot, .work_per_iter = 1 };
	cpu_set_t saved, one;
	struct ud_err err;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
	ck_assert_msg(wl_ctxsw.setup(&ctx, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(one), &one), 0);
	ck_assert_int_eq(CPU_COUNT(&one), 1);
	ck_assert_int_eq(wl_ctxsw.run(&ctx, 100, &err), 0);
	wl_ctxsw.teardown(&ctx);
	/* pinned to one CPU, the process is a 1-CPU host for the cross workload */
	ck_assert_int_eq(wl_ctxsw_cross.available(&err), -1);
	ck_assert_msg(strstr(err.msg, "needs 2 CPUs") != NULL, "%s", err.msg);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
	if (CPU_COUNT(&saved) >= 2) {
		ck_assert_int_eq(wl_ctxsw_cross.available(&err), 0);
		ck_assert_msg(wl_ctxsw_cross.setup(&ctx, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(wl_ctxsw_cross.run(&ctx, 100, &err), 0);
		wl_ctxsw_cross.teardown(&ctx);
		ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
	}
}
END_TEST

/* Workload selection is the library's (selection.h): run only says what it returns. */
START_TEST(test_selection)
{
	struct ud_err err = UD_ERR_INIT;
	size_t n, total;
	const struct ud_workload_def **d;

	ud_workloads_all(&total);
	d = ud_workloads_select("syscall,pipe", UD_SUITE_DEFAULT, NULL, 0, &n, NULL, NULL, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(d[0]->name, "syscall"); /* the user's order, not the registry's */
	ck_assert_str_eq(d[1]->name, "pipe");
	free(d);
	ck_assert_ptr_null(ud_workloads_select("sycall", UD_SUITE_DEFAULT, NULL, 0, &n, NULL, NULL, &err));
	ck_assert_str_eq(err.msg, "unknown workload 'sycall'; did you mean 'syscall'? ('uarchdiff workloads' lists them)");
	ck_assert_ptr_null(ud_workloads_select("syscall,syscall", UD_SUITE_DEFAULT, NULL, 0, &n, NULL, NULL, &err));
	ck_assert_str_eq(err.msg, "-w names 'syscall' twice");
	ck_assert_ptr_null(ud_workloads_select(",", UD_SUITE_DEFAULT, NULL, 0, &n, NULL, NULL, &err));
	ck_assert_str_eq(err.msg, "-w names no workload");
	d = ud_workloads_select(NULL, UD_SUITE_QUICK, NULL, 0, &n, NULL, NULL, &err);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_le(n, total);
	for (size_t i = 0; i < n; i++)
		ck_assert(d[i]->suites & UD_SUITE_QUICK);
	free(d);
}
END_TEST

/*
 * A suite whose only counter is a hardware one: where no PMU counts it (this
 * VM) the verdict names it with its reason, the scores are kept and the
 * profile written all the same.
 */
START_TEST(test_suite_verdict_without_counters)
{
	struct ud_measurement_opts mo = { .events = "cycles" };
	struct ud_measurement m = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct ud_suite_result res;
	const struct ud_workload_def **d;
	struct ud_profile *p;
	char out[4200];
	size_t n;

	ck_assert_int_eq(ud_measurement_detect(&m, &err), 0);
	ck_assert_int_eq(ud_measurement_plan(&m, &mo, &err), 0);
	d = ud_workloads_select("syscall", UD_SUITE_QUICK, NULL, 0, &n, NULL, NULL, &err);
	ck_assert_ptr_nonnull(d);
	p = ud_profile_new(ud_host_collect(&(struct ud_host_opts){ .db = &m.db }, &err));
	ck_assert_ptr_nonnull(p);
	snprintf(out, sizeof(out), "%s/p.json", tmproot);
	struct ud_suite_run s = { .m = &m, .defs = d, .ndefs = n, .suite = UD_SUITE_QUICK, .repeat = 1, .output = out,
				  .output_new = true };

	ck_assert_int_eq(ud_suite_measure(&s, p, &res, &err), 0);
	ck_assert(!res.failed);
	ck_assert_int_eq(res.stop_signal, 0);
	ck_assert_int_eq(res.save_status, 0);
	ck_assert_str_eq(res.saved.path, out);
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert(isfinite(p->workloads[0].score.median));
	if (p->workloads[0].counters[0].status == UD_COUNTED) {
		ck_assert_ptr_null(res.uncounted); /* a host whose PMU counts cycles */
	} else {
		ck_assert_ptr_nonnull(res.uncounted);
		ck_assert_str_eq(res.uncounted->name, "cycles");
		ck_assert_ptr_nonnull(res.uncounted->reason);
		ck_assert_str_ne(res.uncounted->reason, "");
	}
	ck_assert_int_eq(access(out, F_OK), 0);
	ud_profile_free(p);
	free(d);
	ud_measurement_free(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_setup_is_not_counted);
	tcase_add_test(tc, test_selection);
	tcase_add_test(tc, test_suite_verdict_without_counters);
	tcase_add_test(tc, test_helpers_are_counted);
	tcase_add_test(tc, test_crash_hang_and_failure_are_outcomes);
	tcase_add_test(tc, test_setsid_helper_is_killed);
	tcase_add_test(tc, test_callers_children_are_spared);
	tcase_add_test(tc, test_no_temporary_directory_is_an_outcome);
	tcase_add_test(tc, test_filecopy_end_to_end);
	tcase_add_test(tc, test_every_builtin_runs);
	tcase_add_test(tc, test_filecopy_sizes_are_fstimes);
	tcase_add_test(tc, test_fork_loop_cpu_time);
	tcase_add_test(tc, test_spawn_runs_in_the_helper);
	tcase_add_test(tc, test_context_switch_pinning);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
