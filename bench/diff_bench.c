/*
 * diff_bench N: the diff engine alone, in process, on two generated
 * profiles of N workloads each (default 1000): the time of the diff (the
 * model, ud_diff_build()) and of each report's rendering (JSON streamed
 * from the model, the others through the view built from it), and the
 * peak memory.  Prints figures; asserts nothing.  Target: the diff under
 * 100 ms for 1,000 workloads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "diff.h"
#include "report.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void put(struct ud_workload *w, const char *name, double v)
{
	struct ud_counter *c = ud_workload_add_counter(w, name);

	c->status = UD_COUNTED;
	c->value = v;
	c->semantics = strdup("retired");
}

static struct ud_profile *generate(size_t n, unsigned seed, const char *label, const char *uarch)
{
	struct ud_host *h = ud_host_new();
	struct ud_profile *p;

	if (!h || ud_host_set_string(&h->label, label) || ud_host_set_string(&h->cpu.uarch, uarch) ||
	    ud_host_set_string(&h->kernel, label) || ud_host_add_vuln(h, "retbleed", label)) {
		ud_host_free(h);
		return NULL;
	}
	p = ud_profile_new(h);

	srand(seed);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		struct ud_workload *w;
		double s = 1000 * (1 + rand() / (double)RAND_MAX), samples[5], c = 3e9 * (1 + rand() / (double)RAND_MAX);
		double insn = c * (0.5 + 2 * rand() / (double)RAND_MAX);

		snprintf(name, sizeof(name), "workload-%zu", i);
		w = ud_profile_add_workload(p, name);
		for (int k = 0; k < 5; k++)
			samples[k] = s * (0.99 + 0.005 * k);
		ud_score_set_samples(&w->score, samples, 5);
		w->higher_is_better = 1;
		w->units = strdup("lps");
		w->elapsed_ns = 1e9;
		w->user_ns = 4e8;
		w->sys_ns = 6e8 * rand() / (double)RAND_MAX;
		put(w, "cycles", c);
		put(w, "instructions", insn);
		put(w, "branches", insn / 5);
		put(w, "branch-misses", insn / 500 * rand() / (double)RAND_MAX);
		put(w, "L1-dcache-loads", insn / 3);
		put(w, "L1-dcache-load-misses", insn / 60 * rand() / (double)RAND_MAX);
		put(w, "task-clock", 9e8 + 1e8 * rand() / (double)RAND_MAX);
	}
	return p;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	struct ud_profile *a = generate(n, 1, "A", "zen4"), *b = generate(n, 2, "B", "zen5");
	struct ud_uarch_db db;
	struct ud_err err;
	struct rusage ru;
	struct ud_diff *model = NULL;
	double best = 1e9;

	if (ud_uarch_db_load(NULL, &db, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (int round = 0; round < 5; round++) {
		struct ud_diff_input in = { a, b, "A", "B", &db };
		double t = now_ms();

		ud_diff_free(model);
		if (!(model = ud_diff_build(&in, &err))) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		t = now_ms() - t;
		best = t < best ? t : best;
		printf("diff, %zu workloads each, round %d: %7.1f ms\n", n, round + 1, t);
	}
	printf("diff best: %.1f ms (target: under 100 ms for 1,000)\n", best);
	for (int f = UD_REPORT_TEXT; f <= UD_REPORT_HTML; f++) {
		static const char *const names[] = { "text", "json", "md", "html" };
		FILE *out = fopen("/dev/null", "w");
		double t = now_ms();

		if (ud_report_write(model, (enum ud_report_format)f, NULL, out, &err) != 0)
			fprintf(stderr, "%s\n", err.msg);
		fclose(out);
		printf("render %-4s: %7.1f ms\n", names[f], now_ms() - t);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS: %ld KB\n", ru.ru_maxrss);
	ud_diff_free(model);
	ud_profile_free(a);
	ud_profile_free(b);
	ud_uarch_db_free(&db);
	return 0;
}
