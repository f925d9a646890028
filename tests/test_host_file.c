/* import --host's reader: a host object, alone or inside a profile, and every way a file can fail to be one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "testutil.h"

static const char host_object[] =
	"{\"label\": \"e5\", \"cpu\": {\"uarch\": \"zen4\"}, \"kernel\": \"5.15.0\", \"hypervisor\": \"KVM\",\n"
	" \"vulnerabilities\": {\"spec_rstack_overflow\": \"Mitigation: Safe RET\"}}\n";

static struct ud_host *load_text(const char *text, struct ud_err *err)
{
	char *dir = make_tempdir(), path[4096];
	struct ud_host *host;

	snprintf(path, sizeof(path), "%s/host.json", dir);
	write_text(path, text);
	host = ud_host_file_load(path, err);
	rm_tree(dir);
	free(dir);
	return host;
}

START_TEST(test_host_object_alone)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_host *host = load_text(host_object, &err);

	ck_assert_msg(host != NULL, "%s", err.msg);
	ck_assert_str_eq(host->kernel, "5.15.0");
	ud_host_free(host);
}
END_TEST

START_TEST(test_host_inside_a_document)
{
	struct ud_err err = UD_ERR_INIT;
	char doc[1024];
	struct ud_host *host;

	snprintf(doc, sizeof(doc), "{\"schema\": \"uarchdiff.profile/1\", \"host\": %s, \"workloads\": []}", host_object);
	host = load_text(doc, &err);
	ck_assert_msg(host != NULL, "%s", err.msg);
	ck_assert_str_eq(host->cpu.uarch, "zen4");
	ud_host_free(host);
}
END_TEST

START_TEST(test_bad_files_say_why_on_one_line)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "{\"cpu\": ", "host.json:1:" },          /* not JSON: line and column */
		{ "[1, 2]", "not a host object" },
		{ "{\"workloads\": []}", "no \"cpu\"" },
		{ "{\"cpu\": 3, \"kernel\": null, \"hypervisor\": null, \"vulnerabilities\": null}", "\"cpu\" is not an object" },
		/* the profile's reader, every fact type-checked */
		{ "{\"cpu\": {\"family\": \"25\"}, \"kernel\": null, \"hypervisor\": null, \"vulnerabilities\": null}",
		  "host.json: host.cpu.family: expected an integer or null" },
	};
	struct ud_err err = UD_ERR_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_ptr_null(load_text(cases[i].text, &err));
		ck_assert_msg(strstr(err.msg, cases[i].says) != NULL, "%s: %s", cases[i].text, err.msg);
		ck_assert_ptr_null(strchr(err.msg, '\n'));
	}
	ck_assert_ptr_null(ud_host_file_load("/nonexistent/host.json", &err));
	ck_assert_str_eq(err.msg, "/nonexistent/host.json: No such file or directory");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("host_file");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, test_host_object_alone);
	tcase_add_test(tc, test_host_inside_a_document);
	tcase_add_test(tc, test_bad_files_say_why_on_one_line);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
