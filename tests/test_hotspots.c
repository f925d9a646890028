/*
 * Sampled hotspots without the kernel: the record decoder and the ring copy,
 * the address-space tracking, the hotspots model and its JSON, kallsyms,
 * and symbol resolution of synthetic samples in the test programs (a PIE, a
 * non-PIE and a shared library) checked against nm.
 */
#include <check.h>
#include <gelf.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "host.h"
#include "hotspots.h"
#include "measure.h"
#include "perf_records.h"
#include "profile.h"
#include "histogram.h"
#include "symbols.h"
#include "symtab.h"
#include "uarch.h"
#include "testutil.h"

/* A record stream built in memory, laid out as the kernel writes it. */
struct stream {
	uint8_t buf[8192];
	size_t len;
};

static void put(struct stream *s, const void *p, size_t n)
{
	ck_assert(s->len + n <= sizeof(s->buf));
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void header(struct stream *s, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t sz = (uint16_t)size;

	put(s, &type, 4);
	put(s, &misc, 2);
	put(s, &sz, 2);
}

static void sample(struct stream *s, uint16_t mode, uint32_t pid, uint64_t ip)
{
	header(s, UD_REC_SAMPLE, mode, 24);
	put(s, &ip, 8);
	put(s, &pid, 4);
	put(s, &pid, 4);
}

static void mmap2(struct stream *s, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *name)
{
	uint8_t zero[40] = { 0 };
	size_t nlen = strlen(name) + 1, pad = (8 - nlen % 8) % 8;

	header(s, UD_REC_MMAP2, UD_REC_MISC_USER, 8 + 64 + nlen + pad);
	put(s, &pid, 4);
	put(s, &pid, 4);
	put(s, &start, 8);
	put(s, &len, 8);
	put(s, &pgoff, 8);
	put(s, zero, 32); /* maj min ino generation prot flags */
	put(s, name, nlen);
	put(s, zero, pad);
}

static void task(struct stream *s, uint32_t type, uint32_t pid, uint32_t ppid)
{
	uint64_t time = 0;

	header(s, type, 0, 32);
	put(s, &pid, 4);
	put(s, &ppid, 4);
	put(s, &pid, 4);
	put(s, &ppid, 4);
	put(s, &time, 8);
}

static void comm_exec(struct stream *s, uint32_t pid)
{
	header(s, UD_REC_COMM, UD_REC_MISC_COMM_EXEC, 24);
	put(s, &pid, 4);
	put(s, &pid, 4);
	put(s, "prog\0\0\0\0", 8);
}

static void lost(struct stream *s, uint64_t n)
{
	uint64_t id = 1;

	header(s, UD_REC_LOST, 0, 24);
	put(s, &id, 8);
	put(s, &n, 8);
}

START_TEST(test_records_decode_and_truncate)
{
	struct stream s = { .len = 0 };
	struct ud_rec_reader r;
	struct ud_record rec;

	mmap2(&s, 10, 0x400000, 0x1000, 0x2000, "/bin/x");
	sample(&s, UD_REC_MISC_USER, 10, 0x400123);
	ud_rec_reader_init(&r, s.buf, s.len);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_OK);
	ck_assert_uint_eq(rec.type, UD_REC_MMAP2);
	ck_assert_uint_eq(rec.start, 0x400000);
	ck_assert_uint_eq(rec.pgoff, 0x2000);
	ck_assert_str_eq(rec.name, "/bin/x");
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_OK);
	ck_assert_uint_eq(rec.ip, 0x400123);
	ck_assert_uint_eq(rec.pid, 10);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_END);
	/* Cut inside the sample: truncated, and it stays so. */
	ud_rec_reader_init(&r, s.buf, s.len - 5);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_OK);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_TRUNCATED);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_TRUNCATED);
	/* A size of 0 would loop forever; a name without its NUL would run off. */
	s.len = 0;
	header(&s, UD_REC_SAMPLE, 0, 0);
	ud_rec_reader_init(&r, s.buf, 8);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_TRUNCATED);
	s.len = 0;
	mmap2(&s, 1, 0, 1, 0, "abcdefg"); /* 8 bytes with the NUL: no padding */
	s.buf[s.len - 1] = 'h';
	ud_rec_reader_init(&r, s.buf, s.len);
	ck_assert_int_eq(ud_rec_next(&r, &rec), UD_REC_TRUNCATED);
}
END_TEST

START_TEST(test_ring_copy_wraps)
{
	uint8_t ring[16], out[16];

	for (int i = 0; i < 16; i++)
		ring[i] = (uint8_t)i;
	/* Unread bytes from position 12 (ring offset 12) to 20 (offset 4): wraps. */
	ck_assert_uint_eq(ud_ring_copy(ring, 16, 12 + 32, 20 + 32, out, sizeof(out)), 8);
	ck_assert_int_eq(out[0], 12);
	ck_assert_int_eq(out[3], 15);
	ck_assert_int_eq(out[4], 0);
	ck_assert_int_eq(out[7], 3);
	ck_assert_uint_eq(ud_ring_copy(ring, 16, 5, 5, out, sizeof(out)), 0);
	ck_assert_uint_eq(ud_ring_copy(ring, 16, 0, 12, out, 4), 4);
}
END_TEST

START_TEST(test_hist_follows_forks_and_execs)
{
	struct stream s = { .len = 0 };
	struct ud_histogram h;

	mmap2(&s, 100, 0x1000, 0x1000, 0x3000, "/bin/parent");
	sample(&s, UD_REC_MISC_USER, 100, 0x1010);        /* parent: /bin/parent offset 0x3010 */
	task(&s, UD_REC_FORK, 101, 100);
	sample(&s, UD_REC_MISC_USER, 101, 0x1010);        /* the fork shares it */
	comm_exec(&s, 101);
	sample(&s, UD_REC_MISC_USER, 101, 0x1010);        /* after exec: nothing mapped there */
	mmap2(&s, 101, 0x1000, 0x1000, 0, "/bin/child");
	sample(&s, UD_REC_MISC_USER, 101, 0x1020);        /* /bin/child offset 0x20 */
	sample(&s, UD_REC_MISC_KERNEL, 101, 0xffffffff81000010ULL);
	lost(&s, 7);
	ud_histogram_init(&h);
	ck_assert_int_eq(ud_histogram_feed(&h, s.buf, s.len), 0);
	ud_histogram_finish(&h);
	ck_assert_uint_eq(h.samples, 5);
	ck_assert_uint_eq(h.lost, 7);
	ck_assert_uint_eq(h.truncated, 0);
	ck_assert_uint_eq(h.nhits, 4);
	ck_assert_uint_eq(h.hits[0].count, 2); /* the two at /bin/parent+0x3010 first */
	ck_assert_str_eq(h.dsos[h.hits[0].dso], "/bin/parent");
	ck_assert_uint_eq(h.hits[0].addr, 0x3010);
	for (size_t i = 1; i < h.nhits; i++) {
		const struct ud_hit *x = &h.hits[i];

		if (x->kernel)
			ck_assert_uint_eq(x->addr, 0xffffffff81000010ULL);
		else if (x->dso == UD_HIT_NO_DSO)
			ck_assert_uint_eq(x->addr, 0x1010);
		else
			ck_assert(strcmp(h.dsos[x->dso], "/bin/child") == 0 && x->addr == 0x20);
	}
	/* A second stream cut short counts as truncated, what came before it kept. */
	ck_assert_int_eq(ud_histogram_feed(&h, s.buf, 30), 0);
	ck_assert_uint_eq(h.truncated, 1);
	ud_histogram_free(&h);
}
END_TEST

/* A workload that got no samples: no rows, no [other], and no sanitizer report (qsort of a null array). */
START_TEST(test_no_samples)
{
	struct ud_hotspots *h = ud_hotspots_new();

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(ud_hotspots_finish(h), 0);
	ck_assert_uint_eq(h->nrows, 0);
	ud_hotspots_free(h);
}
END_TEST

START_TEST(test_model_other_and_json)
{
	struct ud_hotspots *h = ud_hotspots_new();
	struct ud_profile *p = ud_profile_new(NULL), *back;
	struct ud_err err = UD_ERR_INIT;
	double sum = 0;
	json_t *j;
	char name[32];

	for (int i = 0; i < UD_HOTSPOTS_TOP + 5; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		ck_assert_int_eq(ud_hotspots_add(h, name, "/bin/x", UD_MODE_USER, (double)(30 - i) / 1000, 30 - i), 0);
	}
	ck_assert_int_eq(ud_hotspots_add(h, "f00", "/bin/x", UD_MODE_USER, 0.1, 100), 0); /* merges */
	ck_assert_int_eq(ud_hotspots_finish(h), 0);
	ck_assert_uint_eq(h->nrows, UD_HOTSPOTS_TOP + 1);
	ck_assert_str_eq(h->rows[0].symbol, "f00");
	ck_assert_double_eq(h->rows[0].samples, 130);
	ck_assert_str_eq(h->rows[UD_HOTSPOTS_TOP].symbol, UD_HOTSPOT_OTHER);
	ck_assert(isnan(h->rows[UD_HOTSPOTS_TOP].samples)); /* shares short of 1: [other] has no count */
	for (size_t i = 0; i < h->nrows; i++)
		sum += h->rows[i].share;
	ck_assert_double_eq_tol(sum, 1, 1e-9);
	h->sampling.event = strdup("cpu-clock");
	ud_profile_add_workload(p, "w")->hotspots = h;
	j = profile_tree(p);
	back = profile_from_tree(j, "p.json", &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert_uint_eq(back->workloads[0].hotspots->nrows, h->nrows);
	ck_assert_str_eq(back->workloads[0].hotspots->sampling.event, "cpu-clock");
	ck_assert_int_eq(back->workloads[0].hotspots->rows[UD_HOTSPOTS_TOP].mode, UD_MODE_COUNT);
	/* A malformed row: one line naming the file and the workload. */
	json_object_set_new(json_array_get(json_object_get(json_array_get(json_object_get(j, "workloads"), 0),
							   "hotspots"), 0), "mode", json_string("both"));
	ud_profile_free(back);
	ck_assert_ptr_null(profile_from_tree(j, "p.json", &err));
	ck_assert_msg(strstr(err.msg, "p.json: workloads[0]: hotspots") != NULL, "%s", err.msg);
	json_decref(j);
	ud_profile_free(p);
}
END_TEST

/* One kernel hit, resolved with the kallsyms file text (NULL: a missing file). */
static struct ud_hotspots *resolve_kernel(const char *text, uint64_t addr)
{
	char *dir = make_tempdir(), path[512];
	struct ud_histogram h;
	struct ud_hotspots *hs = ud_hotspots_new();
	struct ud_err err = UD_ERR_INIT;
	struct stream s = { .len = 0 };

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	if (text)
		write_text(path, text);
	sample(&s, UD_REC_MISC_KERNEL, 1, addr);
	ud_histogram_init(&h);
	ck_assert_int_eq(ud_histogram_feed(&h, s.buf, s.len), 0);
	ud_histogram_finish(&h);
	ck_assert_int_eq(ud_symbols_resolve(&h, path, hs, &err), 0);
	ud_histogram_free(&h);
	rm_tree(dir);
	free(dir);
	return hs;
}

START_TEST(test_kallsyms_named_or_stated)
{
	struct ud_hotspots *hs;

	hs = resolve_kernel("ffffffff81000000 T _stext\nffffffff81000100 t entry_SYSCALL_64\n"
			    "ffffffff81000200 D some_data\nffffffffc0000000 t ext4_fn\t[ext4]\n",
			    0xffffffff81000150ULL);
	ck_assert_str_eq(hs->rows[0].symbol, "entry_SYSCALL_64");
	ck_assert_str_eq(hs->rows[0].dso, UD_KERNEL_DSO);
	ck_assert_int_eq(hs->rows[0].mode, UD_MODE_KERNEL);
	ck_assert_str_eq(hs->sampling.kernel_symbols, "kallsyms");
	ud_hotspots_free(hs);
	hs = resolve_kernel("ffffffffc0000000 t ext4_fn\t[ext4]\n", 0xffffffffc0000010ULL);
	ck_assert_str_eq(hs->rows[0].symbol, "ext4_fn");
	ck_assert_str_eq(hs->rows[0].dso, "[ext4]");
	ud_hotspots_free(hs);
	/* Addresses hidden by kptr_restrict, or no file: one [kernel] row and the reason. */
	hs = resolve_kernel("0000000000000000 T _stext\n0000000000000000 t entry_SYSCALL_64\n", 0xffffffff81000150ULL);
	ck_assert_uint_eq(hs->nrows, 1);
	ck_assert_str_eq(hs->rows[0].symbol, UD_KERNEL_ROW);
	ck_assert_double_eq(hs->rows[0].share, 1);
	ck_assert_msg(strstr(hs->sampling.kernel_symbols, "kptr_restrict") != NULL, "%s", hs->sampling.kernel_symbols);
	ud_hotspots_free(hs);
	hs = resolve_kernel(NULL, 0xffffffff81000150ULL);
	ck_assert_str_eq(hs->rows[0].symbol, UD_KERNEL_ROW);
	ck_assert_msg(strstr(hs->sampling.kernel_symbols, "No such file") != NULL, "%s", hs->sampling.kernel_symbols);
	ud_hotspots_free(hs);
	/* Below the first symbol: unknown, never the nearest name. */
	hs = resolve_kernel("ffffffff81000000 T _stext\n", 0xffffffff80000000ULL);
	ck_assert(strncmp(hs->rows[0].symbol, UD_HOTSPOT_UNKNOWN, strlen(UD_HOTSPOT_UNKNOWN)) == 0);
	ud_hotspots_free(hs);
}
END_TEST

/* The address nm prints for name in path (a defined text symbol), or 0. */
static uint64_t nm_address(const char *path, const char *name)
{
	char cmd[1024], line[1024];
	unsigned long long addr = 0, a;
	char type, sym[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm %s", path);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %511s", &a, &type, sym) == 3 && (type == 'T' || type == 't') &&
		    strcmp(sym, name) == 0)
			addr = a;
	pclose(f);
	return addr;
}

/* The file offset of the address vaddr of path, and the page-aligned offset of its PT_LOAD segment. */
static void file_offset(const char *path, uint64_t vaddr, uint64_t *off, uint64_t *seg_off)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	size_t n;

	ck_assert_int_ge(fd, 0);
	ck_assert(elf_version(EV_CURRENT) != EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_int_eq(elf_getphdrnum(elf, &n), 0);
	*off = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr p;

		if (gelf_getphdr(elf, (int)i, &p) && p.p_type == PT_LOAD && vaddr >= p.p_vaddr &&
		    vaddr - p.p_vaddr < p.p_filesz) {
			*off = vaddr - p.p_vaddr + p.p_offset;
			*seg_off = p.p_offset & ~(uint64_t)0xfff;
		}
	}
	elf_end(elf);
	close(fd);
	ck_assert_uint_ne(*off, 0);
}

/*
 * A sample in name, with path's text segment mapped where a loader might put
 * it (at an arbitrary base, with the segment's file offset as pgoff),
 * resolves to the name nm prints, in that file.
 */
static void check_resolves(const char *path, const char *name, uint64_t base)
{
	uint64_t vaddr = nm_address(path, name), off, seg;
	struct stream s = { .len = 0 };
	struct ud_histogram h;
	struct ud_hotspots *hs = ud_hotspots_new();
	struct ud_err err = UD_ERR_INIT;

	ck_assert_msg(vaddr != 0, "nm finds no %s in %s", name, path);
	file_offset(path, vaddr + 4, &off, &seg);
	mmap2(&s, 7, base, 0x100000, seg, path);
	sample(&s, UD_REC_MISC_USER, 7, base + (off - seg));
	ud_histogram_init(&h);
	ck_assert_int_eq(ud_histogram_feed(&h, s.buf, s.len), 0);
	ud_histogram_finish(&h);
	ck_assert_int_eq(ud_symbols_resolve(&h, "/nonexistent", hs, &err), 0);
	ck_assert_str_eq(hs->rows[0].symbol, name);
	ck_assert_str_eq(hs->rows[0].dso, path);
	ck_assert_uint_eq(hs->sampling.ndsos, 1);
	ck_assert_ptr_nonnull(hs->sampling.dsos[0].build_id);
	ud_histogram_free(&h);
	ud_hotspots_free(hs);
}

START_TEST(test_user_symbols_match_nm)
{
	check_resolves(UD_HOTPIE, "ud_hot_prog_spin", 0x555555554000ULL);
	check_resolves(UD_HOTNOPIE, "ud_hot_prog_spin", 0x400000ULL);
	check_resolves(UD_HOTLIB, "ud_hot_lib_spin", 0x7f0000000000ULL);
}
END_TEST

START_TEST(test_unresolved_is_unknown)
{
	struct stream s = { .len = 0 };
	struct ud_histogram h;
	struct ud_hotspots *hs = ud_hotspots_new();
	struct ud_err err = UD_ERR_INIT;

	mmap2(&s, 7, 0x10000, 0x1000, 0, "/nonexistent/libgone.so");
	sample(&s, UD_REC_MISC_USER, 7, 0x10040);
	sample(&s, UD_REC_MISC_USER, 7, 0x90000); /* nothing mapped */
	ud_histogram_init(&h);
	ck_assert_int_eq(ud_histogram_feed(&h, s.buf, s.len), 0);
	ud_histogram_finish(&h);
	ck_assert_int_eq(ud_symbols_resolve(&h, "/nonexistent", hs, &err), 0);
	ck_assert_uint_eq(hs->nrows, 2);
	ck_assert(strcmp(hs->rows[0].symbol, "[unknown] libgone.so+0x40") == 0 ||
		  strcmp(hs->rows[1].symbol, "[unknown] libgone.so+0x40") == 0);
	ck_assert(strcmp(hs->rows[0].symbol, "[unknown] 0x90000") == 0 ||
		  strcmp(hs->rows[1].symbol, "[unknown] 0x90000") == 0);
	ud_histogram_free(&h);
	ud_hotspots_free(hs);
}
END_TEST

/* The largest number of hardware events planned into one group. */
static int largest_group(const struct ud_event *ev, size_t n)
{
	int most = 0;

	for (size_t i = 0; i < n; i++) {
		int k = 0;

		for (size_t j = 0; j < n; j++)
			k += ev[j].hardware && ev[j].group >= 0 && ev[j].group == ev[i].group;
		most = k > most ? k : most;
	}
	return most;
}

START_TEST(test_plan_leaves_the_sampler_a_counter)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *u;
	struct ud_event *all, *left;
	size_t n_all = 0, n_left = 0;
	int usable;

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	u = ud_uarch_find(&db, "zen4"); /* no fixed counters: every hardware event takes a programmable one */
	ck_assert_ptr_nonnull(u);
	usable = ud_uarch_usable_counters(u, ud_measure_nmi_watchdog());
	all = ud_measure_plan(u, NULL, &n_all, &err);
	left = ud_measure_plan_reserving(u, NULL, 1, &n_left, &err);
	ck_assert(all && left);
	ck_assert_int_eq(largest_group(all, n_all), usable);
	ck_assert_int_eq(largest_group(left, n_left), usable - 1);
	free(all);
	free(left);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hotspots");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_records_decode_and_truncate);
	tcase_add_test(tc, test_ring_copy_wraps);
	tcase_add_test(tc, test_hist_follows_forks_and_execs);
	tcase_add_test(tc, test_model_other_and_json);
	tcase_add_test(tc, test_no_samples);
	tcase_add_test(tc, test_kallsyms_named_or_stated);
	tcase_add_test(tc, test_user_symbols_match_nm);
	tcase_add_test(tc, test_unresolved_is_unknown);
	tcase_add_test(tc, test_plan_leaves_the_sampler_a_counter);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
