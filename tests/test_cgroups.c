/*
 * perf stat's -G and --for-each-cgroup (cgroups.h): the hierarchy found as
 * perf finds it, names paired with events by perf's rules, expanded per
 * cgroup, on a hierarchy of plain directories that a mount table written
 * here points at (opening a cgroup is opening its directory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroups.h"
#include "testutil.h"

static char *dir;
static char mounts[4096], root[4096];

static void setup(void)
{
	const char *subs[] = { "a", "a/sub", "b" };
	char path[4200];

	dir = make_tempdir();
	snprintf(root, sizeof(root), "%s/root", dir);
	mkdir(root, 0755);
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, subs[i]);
		mkdir(path, 0755);
	}
	snprintf(mounts, sizeof(mounts), "%s/mounts", dir);
	snprintf(path, sizeof(path), "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\ncgroup2 %s cgroup2 rw 0 0\n",
		 root);
	write_text(mounts, path);
}

static void teardown(void)
{
	rm_tree(dir);
	free(dir);
}

/* perf's cgroupfs_find_mountpoint(): a v1 mount with perf_event first, else cgroup2, else none. */
START_TEST(test_mountpoint)
{
	struct ud_err err = UD_ERR_INIT;
	char buf[4096], path[4200];

	ck_assert_int_eq(ud_cgroup_mountpoint(mounts, buf, sizeof(buf), &err), 0);
	ck_assert_str_eq(buf, root);
	snprintf(path, sizeof(path), "%s/v1", dir);
	write_text(path, "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
			 "cgroup /sys/fs/cgroup/perf_event cgroup rw,nosuid,perf_event 0 0\n");
	ck_assert_int_eq(ud_cgroup_mountpoint(path, buf, sizeof(buf), &err), 0);
	ck_assert_str_eq(buf, "/sys/fs/cgroup/perf_event");
	write_text(path, "cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\nproc /proc proc rw 0 0\n");
	ck_assert_int_eq(ud_cgroup_mountpoint(path, buf, sizeof(buf), &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no cgroup hierarchy with the perf_event controller"));
}
END_TEST

/* One name in all goes with every event given; "a,,b" leaves the second without one. */
START_TEST(test_pair_one_and_empty)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_cgroups_pair(&cg, "a", "cpu-clock,{page-faults,task-clock}", &err), 0);
	ck_assert_uint_eq(cg.nof, 3);
	ck_assert_int_eq(cg.of[0], 0);
	ck_assert_int_eq(cg.of[1], 0);
	ck_assert_int_eq(cg.of[2], 0);
	ck_assert_str_eq(cg.set[0].name, "a");
	ud_cgroups_free(&cg);
	ck_assert_int_eq(ud_cgroups_pair(&cg, "a,,b", "cpu-clock,page-faults,task-clock", &err), 0);
	ck_assert_int_eq(cg.of[0], 0);
	ck_assert_int_eq(cg.of[1], -1);
	ck_assert_int_eq(cg.of[2], 1);
	ck_assert_uint_eq(cg.given, 3);
	ck_assert(ud_cgroups_used(&cg));
	ud_cgroups_free(&cg);
}
END_TEST

/*
 * perf counts names over the whole line: "-e x,y -G a -e z -G b" gives x
 * and y a (one name in all), then b takes the second event, y; z has none.
 */
START_TEST(test_pair_across_options)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_cgroups_pair(&cg, "a", "x,y", &err), 0);
	ck_assert_int_eq(ud_cgroups_pair(&cg, "b", "x,y,z", &err), 0);
	ck_assert_str_eq(cg.set[cg.of[0]].name, "a");
	ck_assert_str_eq(cg.set[cg.of[1]].name, "b");
	ck_assert_int_eq(cg.of[2], -1);
	ck_assert_uint_eq(cg.n, 2);
	ud_cgroups_free(&cg);
}
END_TEST

START_TEST(test_pair_refusals)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_cgroups_pair(&cg, "a", NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "must define events before cgroups"));
	ck_assert_int_eq(ud_cgroups_pair(&cg, "a,b", "cpu-clock", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "more cgroups than events: the 2nd cgroup"));
	ud_cgroups_free(&cg);
	ck_assert_int_eq(ud_cgroups_pair(&cg, "nosuch", "cpu-clock", &err), -1);
	ck_assert_msg(strstr(err.msg, "no access to cgroup ") && strstr(err.msg, "/root/nosuch"), "%s", err.msg);
	ud_cgroups_free(&cg);
}
END_TEST

/* Names once each, in the order given; an empty one the root "/". */
START_TEST(test_each_names)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_cgroups_each(&cg, "b,a,,b", &err), 0);
	ck_assert_uint_eq(cg.n, 3);
	ck_assert_str_eq(cg.set[0].name, "b");
	ck_assert_str_eq(cg.set[1].name, "a");
	ck_assert_str_eq(cg.set[2].name, "/");
	ck_assert(ud_cgroups_used(&cg));
	ud_cgroups_free(&cg);
	ck_assert_int_eq(ud_cgroups_each(&cg, "a,nosuch", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no access to cgroup"));
	ud_cgroups_free(&cg);
}
END_TEST

/* Patterns match every cgroup's path under the hierarchy, parents first; the empty one is the root, named "". */
START_TEST(test_each_patterns)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_cgroups_each(&cg, "^a", &err), 0);
	ck_assert_uint_eq(cg.n, 2);
	ck_assert_str_eq(cg.set[0].name, "a");
	ck_assert_str_eq(cg.set[1].name, "a/sub");
	ud_cgroups_free(&cg);
	ck_assert_int_eq(ud_cgroups_each(&cg, "sub$,", &err), 0);
	ck_assert_uint_eq(cg.n, 2);
	ck_assert_str_eq(cg.set[0].name, "");
	ck_assert_str_eq(cg.set[1].name, "a/sub");
	ud_cgroups_free(&cg);
	ck_assert_int_eq(ud_cgroups_each(&cg, "z.*", &err), -1);
	ck_assert_str_eq(err.msg, "no cgroup matched: z.*");
	ud_cgroups_free(&cg);
}
END_TEST

/* cpu-clock on its own, then cycles and instructions in the group the planner made, then {cycles,branches} as asked. */
static struct ud_event *plan(void)
{
	static const char *const names[] = { "cpu-clock", "cycles", "instructions", "cycles", "branches" };
	static const int group[] = { -1, 0, 0, 1, 1 }, asked[] = { -1, -1, -1, 0, 0 };
	struct ud_event *ev = calloc(5, sizeof(*ev));

	for (size_t i = 0; i < 5; i++) {
		snprintf(ev[i].name, sizeof(ev[i].name), "%s%s", names[i], i == 3 ? "#2" : "");
		ev[i].group = group[i];
		ev[i].request_group = asked[i];
	}
	return ev;
}

/* --for-each-cgroup: the plan once per cgroup, cgroup by cgroup, each copy's groups its own and its names numbered. */
START_TEST(test_apply_each)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;
	struct ud_event *ev = plan();
	size_t n = 5;

	ck_assert_int_eq(ud_cgroups_each(&cg, "a,b", &err), 0);
	ck_assert_int_eq(ud_cgroups_apply(&cg, &ev, &n, &err), 0);
	ck_assert_uint_eq(n, 10);
	ck_assert_str_eq(ev[0].name, "cpu-clock");
	ck_assert_str_eq(ev[0].cgroup, "a");
	ck_assert_str_eq(ev[4].cgroup, "a");
	ck_assert_str_eq(ev[5].name, "cpu-clock#2");
	ck_assert_str_eq(ev[5].cgroup, "b");
	ck_assert_str_eq(ev[6].name, "cycles#3");
	ck_assert_str_eq(ev[8].name, "cycles#4");
	ck_assert_int_eq(ev[1].group, 0);
	ck_assert_int_eq(ev[4].group, 1);
	ck_assert_int_eq(ev[5].group, -1);
	ck_assert_int_eq(ev[6].group, 2);
	ck_assert_int_eq(ev[9].group, 3);
	ck_assert_int_eq(ev[9].cgroup_fd, cg.set[1].fd);
	free(ev);
	ud_cgroups_free(&cg);
}
END_TEST

/*
 * -G: the -e list's events marked, what the plan added after them left
 * alone; a planned group split across cgroups counts apart, a requested
 * one stays whole.
 */
START_TEST(test_apply_pairs)
{
	struct ud_cgroups cg = { .mounts = mounts };
	struct ud_err err = UD_ERR_INIT;
	struct ud_event *ev = plan();
	size_t n = 5;

	ck_assert_int_eq(ud_cgroups_pair(&cg, "b", "cpu-clock", &err), 0);
	ck_assert_int_eq(ud_cgroups_apply(&cg, &ev, &n, &err), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(ev[0].cgroup, "b");
	ck_assert_ptr_null(ev[1].cgroup);
	ck_assert_int_eq(ev[1].group, 0);
	free(ev);
	ud_cgroups_free(&cg);
	ev = plan();
	ck_assert_int_eq(ud_cgroups_pair(&cg, ",a,b,a", "cpu-clock,cycles,instructions,cycles,branches", &err), 0);
	ck_assert_int_eq(ud_cgroups_apply(&cg, &ev, &n, &err), 0);
	ck_assert_int_eq(ev[1].group, -1);
	ck_assert_int_eq(ev[2].group, -1);
	ck_assert_int_eq(ev[3].group, 1);
	ck_assert_int_eq(ev[4].group, 1);
	free(ev);
	ud_cgroups_free(&cg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroups");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mountpoint);
	tcase_add_test(tc, test_pair_one_and_empty);
	tcase_add_test(tc, test_pair_across_options);
	tcase_add_test(tc, test_pair_refusals);
	tcase_add_test(tc, test_each_names);
	tcase_add_test(tc, test_each_patterns);
	tcase_add_test(tc, test_apply_each);
	tcase_add_test(tc, test_apply_pairs);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
