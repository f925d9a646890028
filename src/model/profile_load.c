/*
 * profile_load.c - many profile files loaded at once, on threads: each
 * kept, or each folded as it is read (a fleet of 10,000 never held whole).
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "profile.h"

/* More threads than this only contend for memory bandwidth. */
#define UD_LOAD_THREADS_MAX 16

/* One loader thread's view of the work: it takes the next path until none is left. */
struct load_all {
	char *const *paths;
	struct ud_profile **out;
	struct ud_err *errs;
	size_t n;
	size_t next; /* taken with __atomic_fetch_add */
};

static void *load_worker(void *arg)
{
	struct load_all *job = arg;

	for (size_t i; (i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->n;)
		job->out[i] = ud_profile_load(job->paths[i], &job->errs[i]);
	return NULL;
}

long ud_profile_load_each(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *errs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), failed = 0;
	size_t nthreads = cpus > 1 ? (size_t)cpus - 1 : 0, started = 0;
	struct load_all job = { paths, out, errs, n, 0 };
	pthread_t threads[UD_LOAD_THREADS_MAX];

	if (nthreads > UD_LOAD_THREADS_MAX)
		nthreads = UD_LOAD_THREADS_MAX;
	for (; started < nthreads && started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, load_worker, &job) != 0)
			break; /* fewer threads: this one does the rest */
	load_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < n; i++)
		failed += !out[i];
	return failed;
}

/* One folding loader's work: threads parse, the fold runs one call at a time under the lock. */
struct load_fold {
	char *const *paths;
	size_t n;
	size_t next; /* taken with __atomic_fetch_add */
	ud_profile_fold_fn fold;
	void *ctx;
	pthread_mutex_t lock;
	int failed; /* a fold returned -1: the others stop taking paths */
};

static void *fold_worker(void *arg)
{
	struct load_fold *job = arg;

	for (size_t i; !__atomic_load_n(&job->failed, __ATOMIC_RELAXED) &&
		       (i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->n;) {
		struct ud_err err = UD_ERR_INIT;
		struct ud_profile *p = ud_profile_load(job->paths[i], &err);

		pthread_mutex_lock(&job->lock);
		if (!job->failed && job->fold(job->ctx, i, p, &err) != 0)
			job->failed = 1;
		pthread_mutex_unlock(&job->lock);
	}
	return NULL;
}

int ud_profile_load_fold(char *const *paths, size_t n, ud_profile_fold_fn fold, void *ctx)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = cpus > 1 ? (size_t)cpus - 1 : 0, started = 0;
	struct load_fold job = { paths, n, 0, fold, ctx, PTHREAD_MUTEX_INITIALIZER, 0 };
	pthread_t threads[UD_LOAD_THREADS_MAX];

	if (nthreads > UD_LOAD_THREADS_MAX)
		nthreads = UD_LOAD_THREADS_MAX;
	for (; started < nthreads && started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, fold_worker, &job) != 0)
			break; /* fewer threads: this one does the rest */
	fold_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	pthread_mutex_destroy(&job.lock);
	return job.failed ? -1 : 0;
}

int ud_profile_load_all(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err)
{
	struct ud_err *errs = calloc(n ? n : 1, sizeof(*errs));
	int ret = 0;

	if (!errs)
		return ud_fail(err, "out of memory");
	ud_profile_load_each(paths, n, out, errs);
	for (size_t i = 0; i < n; i++) {
		if (!out[i] && ret == 0) {
			*err = errs[i];
			ret = -1;
		}
	}
	for (size_t i = 0; ret != 0 && i < n; i++) {
		ud_profile_free(out[i]);
		out[i] = NULL;
	}
	free(errs);
	return ret;
}
