#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perf_records.h"
#include "histogram.h"
#include "sort.h"

struct map {
	uint64_t start, len, pgoff;
	uint32_t dso;
};

/* One process's executable mappings, as the records announced them. */
struct proc {
	uint32_t pid, ppid;
	bool execed; /* its own address space since an exec: no parent to fall back on */
	struct map *maps;
	size_t nmaps, cap;
};

struct ud_proc_maps {
	struct proc *p;
	size_t n, cap;
	size_t last; /* the process looked up last: samples come in runs */
};

/* Grows *arr (of elem-sized items, *cap of them) to hold one more than n; -1 when out of memory. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *m;

	if (n < *cap)
		return 0;
	m = realloc(*arr, c * elem);
	if (!m)
		return -1;
	*arr = m;
	*cap = c;
	return 0;
}

void ud_histogram_init(struct ud_histogram *h)
{
	memset(h, 0, sizeof(*h));
}

static struct proc *proc_find(struct ud_proc_maps *pm, uint32_t pid)
{
	if (pm->last < pm->n && pm->p[pm->last].pid == pid)
		return &pm->p[pm->last];
	for (size_t i = pm->n; i-- > 0;)
		if (pm->p[i].pid == pid) {
			pm->last = i;
			return &pm->p[i];
		}
	return NULL;
}

/* The process, made when first seen; NULL when out of memory. */
static struct proc *proc_get(struct ud_histogram *h, uint32_t pid)
{
	struct ud_proc_maps *pm = h->procs;
	struct proc *p;

	if (!pm) {
		pm = h->procs = calloc(1, sizeof(*pm));
		if (!pm)
			return NULL;
	}
	p = proc_find(pm, pid);
	if (p)
		return p;
	if (grow((void **)&pm->p, &pm->cap, pm->n, sizeof(*pm->p)) != 0)
		return NULL;
	p = &pm->p[pm->n];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = pid; /* no parent known */
	pm->last = pm->n++;
	return p;
}

static int dso_index(struct ud_histogram *h, const char *name, uint32_t *out)
{
	for (size_t i = h->ndsos; i-- > 0;)
		if (strcmp(h->dsos[i], name) == 0)
			return *out = (uint32_t)i, 0;
	if (h->ndsos >= UD_HIT_NO_DSO || grow((void **)&h->dsos, &h->dso_cap, h->ndsos, sizeof(*h->dsos)) != 0)
		return -1;
	h->dsos[h->ndsos] = strdup(name);
	if (!h->dsos[h->ndsos])
		return -1;
	*out = (uint32_t)h->ndsos++;
	return 0;
}

static int add_map(struct ud_histogram *h, const struct ud_record *r)
{
	struct proc *p = proc_get(h, r->pid);
	uint32_t dso;

	if (!p || dso_index(h, r->name, &dso) != 0 || grow((void **)&p->maps, &p->cap, p->nmaps, sizeof(*p->maps)) != 0)
		return -1;
	p->maps[p->nmaps++] = (struct map){ .start = r->start, .len = r->len, .pgoff = r->pgoff, .dso = dso };
	return 0;
}

/* The mapping at addr in pid's address space, newest first, else its parent's (a fork shares them). */
static const struct map *map_at(struct ud_histogram *h, uint32_t pid, uint64_t addr)
{
	/* A fork chain longer than this is a loop made by a corrupt stream. */
	for (int depth = 0; h->procs && depth < 64; depth++) {
		struct proc *p = proc_find(h->procs, pid);

		if (!p)
			return NULL;
		for (size_t i = p->nmaps; i-- > 0;)
			if (addr - p->maps[i].start < p->maps[i].len)
				return &p->maps[i];
		if (p->execed || p->ppid == pid)
			return NULL;
		pid = p->ppid;
	}
	return NULL;
}

static int add_sample(struct ud_histogram *h, const struct ud_record *r)
{
	struct ud_hit hit = { .dso = UD_HIT_NO_DSO, .addr = r->ip, .count = 1 };

	h->samples++;
	hit.kernel = (r->misc & UD_REC_MISC_CPUMODE_MASK) == UD_REC_MISC_KERNEL;
	if (!hit.kernel) {
		const struct map *m = map_at(h, r->pid, r->ip);

		if (m) {
			hit.dso = m->dso;
			hit.addr = r->ip - m->start + m->pgoff;
		}
	}
	if (grow((void **)&h->hits, &h->hit_cap, h->nhits, sizeof(*h->hits)) != 0)
		return -1;
	h->hits[h->nhits++] = hit;
	return 0;
}

static int on_task(struct ud_histogram *h, const struct ud_record *r)
{
	struct proc *p;

	if (r->type == UD_REC_FORK && r->pid != r->ppid) { /* a new process, not a thread */
		p = proc_get(h, r->pid);
		if (!p)
			return -1;
		p->ppid = r->ppid;
		p->execed = false;
		p->nmaps = 0; /* a reused pid starts over */
	} else if (r->type == UD_REC_COMM && (r->misc & UD_REC_MISC_COMM_EXEC)) {
		p = proc_get(h, r->pid);
		if (!p)
			return -1;
		p->execed = true;
		p->nmaps = 0;
	}
	return 0;
}

int ud_histogram_feed(struct ud_histogram *h, const void *buf, size_t len)
{
	struct ud_rec_reader rd;
	struct ud_record r;
	enum ud_rec_status st;
	int ret = 0;

	ud_rec_reader_init(&rd, buf, len);
	while (ret == 0 && (st = ud_rec_next(&rd, &r)) == UD_REC_OK) {
		switch (r.type) {
		case UD_REC_SAMPLE:
			ret = add_sample(h, &r);
			break;
		case UD_REC_MMAP:
		case UD_REC_MMAP2:
			ret = add_map(h, &r);
			break;
		case UD_REC_LOST:
			h->lost += r.lost;
			break;
		case UD_REC_FORK:
		case UD_REC_COMM:
			ret = on_task(h, &r);
			break;
		default:
			break;
		}
	}
	if (ret == 0 && st == UD_REC_TRUNCATED)
		h->truncated++;
	return ret;
}

static int cmp_key(const void *x, const void *y)
{
	const struct ud_hit *a = x, *b = y;

	if (a->kernel != b->kernel)
		return a->kernel - b->kernel;
	if (a->dso != b->dso)
		return a->dso < b->dso ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int cmp_count(const void *x, const void *y)
{
	const struct ud_hit *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return cmp_key(x, y);
}

void ud_histogram_finish(struct ud_histogram *h)
{
	size_t n = 0;

	if (!h->nhits)
		return;
	ud_sort(h->hits, h->nhits, sizeof(*h->hits), cmp_key);
	for (size_t i = 1; i < h->nhits; i++) {
		if (cmp_key(&h->hits[n], &h->hits[i]) == 0)
			h->hits[n].count += h->hits[i].count;
		else
			h->hits[++n] = h->hits[i];
	}
	h->nhits = n + 1;
	ud_sort(h->hits, h->nhits, sizeof(*h->hits), cmp_count);
}

void ud_histogram_free(struct ud_histogram *h)
{
	for (size_t i = 0; i < h->ndsos; i++)
		free(h->dsos[i]);
	free(h->dsos);
	free(h->hits);
	if (h->procs) {
		for (size_t i = 0; i < h->procs->n; i++)
			free(h->procs->p[i].maps);
		free(h->procs->p);
		free(h->procs);
	}
	ud_histogram_init(h);
}
