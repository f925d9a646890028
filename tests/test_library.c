/*
 * The public library through its header and the shared library's exports
 * alone (issue 37, doc/library.md): import, profile, diff and fleet, each
 * rendered, and the failures each reports.  Linked to libuarchdiff.so, not
 * to the stages, so a function missing from the version script fails here.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uarchdiff/uarchdiff.h>

/* Real pastes of `perf stat -d fstime` on two OCI shapes (tests/data/README.md gives their origin). */
#define E5_PASTE UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt"
#define E6_PASTE UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt"
#define RUN_A UD_TEST_DATA "/profiles-v1/run-e3aba48.json"
#define RUN_B UD_TEST_DATA "/profiles-v1/run-bf7ebcd.json"
#define RUN_C UD_TEST_DATA "/profiles-v1/run-f23f8e4.json"

/* The file at path imported as label's host; a new reference. */
static struct uarchdiff_profile *import_file(const char *path, const char *label)
{
	struct uarchdiff_error err = { "" };
	char text[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;
	struct uarchdiff_profile *p;

	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	p = uarchdiff_profile_import(text, n, path, NULL, label, &err);
	ck_assert_msg(p != NULL, "%s: %s", path, err.text);
	return p;
}

/* What a write function put in a memory stream; the caller frees it. */
#define CAPTURE(buf, call)                                       \
	do {                                                     \
		size_t len_;                                     \
		FILE *f_ = open_memstream(&(buf), &len_);        \
		ck_assert_ptr_nonnull(f_);                       \
		ck_assert_int_eq((call), 0);                     \
		fclose(f_);                                      \
	} while (0)

START_TEST(test_version)
{
	ck_assert_str_eq(uarchdiff_version(), UARCHDIFF_VERSION);
}
END_TEST

START_TEST(test_import_diff_render)
{
	struct uarchdiff_error err = { "" };
	struct uarchdiff_profile *a = import_file(E5_PASTE, "e5"), *b = import_file(E6_PASTE, "e6");
	struct uarchdiff_diff *d;
	char *out = NULL;

	ck_assert_str_eq(uarchdiff_profile_label(a), "e5");
	ck_assert_uint_eq(uarchdiff_profile_workloads(a), 1);
	CAPTURE(out, uarchdiff_profile_write(a, f_, &err));
	ck_assert_ptr_nonnull(strstr(out, "\"label\": \"e5\""));
	free(out);
	d = uarchdiff_diff_new(a, b, "e5.txt", "e6.txt", NULL, &err);
	ck_assert_msg(d != NULL, "%s", err.text);
	CAPTURE(out, uarchdiff_diff_write(d, UARCHDIFF_FORMAT_JSON, f_, &err));
	ck_assert_ptr_nonnull(strstr(out, "uarchdiff.diff/"));
	free(out);
	CAPTURE(out, uarchdiff_diff_write(d, UARCHDIFF_FORMAT_MARKDOWN, f_, &err));
	ck_assert_ptr_nonnull(strstr(out, "e6.txt"));
	free(out);
	uarchdiff_diff_free(d);
	uarchdiff_profile_free(b);
	uarchdiff_profile_free(a);
}
END_TEST

START_TEST(test_fleet)
{
	struct uarchdiff_error err = { "" };
	const char *paths[] = { RUN_A, RUN_B, RUN_C };
	struct uarchdiff_fleet *f = uarchdiff_fleet_new(paths, 3, NULL, &err);
	char *out = NULL;

	ck_assert_msg(f != NULL, "%s", err.text);
	CAPTURE(out, uarchdiff_fleet_write(f, UARCHDIFF_FORMAT_JSON, f_, &err));
	ck_assert_ptr_nonnull(strstr(out, "uarchdiff.compare/"));
	free(out);
	CAPTURE(out, uarchdiff_fleet_write(f, UARCHDIFF_FORMAT_TEXT, f_, &err));
	ck_assert(strlen(out) > 0);
	free(out);
	uarchdiff_fleet_free(f);
}
END_TEST

START_TEST(test_failures_said)
{
	struct uarchdiff_error err = { "" };
	const char *one[] = { RUN_A };

	ck_assert_ptr_null(uarchdiff_profile_load(UD_TEST_DATA "/no-such-profile.json", &err));
	ck_assert_ptr_nonnull(strstr(err.text, "no-such-profile.json"));
	err.text[0] = '\0';
	ck_assert_ptr_null(uarchdiff_profile_import("x", 1, "x.txt", "no-such-format", NULL, &err));
	ck_assert_ptr_nonnull(strstr(err.text, "no-such-format"));
	err.text[0] = '\0';
	ck_assert_ptr_null(uarchdiff_fleet_new(one, 1, NULL, &err));
	ck_assert_str_eq(err.text, "give at least two profiles");
	/* NULL err: the message is dropped, the failure still returned */
	ck_assert_ptr_null(uarchdiff_profile_load(UD_TEST_DATA "/no-such-profile.json", NULL));
	uarchdiff_profile_free(NULL);
	uarchdiff_diff_free(NULL);
	uarchdiff_fleet_free(NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("library");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_import_diff_render);
	tcase_add_test(tc, test_fleet);
	tcase_add_test(tc, test_failures_said);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
