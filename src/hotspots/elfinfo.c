#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfinfo.h"

#define NT_GNU_BUILD_ID_TYPE 3

int ud_elf_build_id(const char *path, char *hex, size_t len, struct ud_err *err)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	int fd, found = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return ud_fail(err, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ud_fail(err, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return ud_fail(err, "%s: not an ELF file", path);
	}
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data = NULL;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		while (!found && (data = elf_getdata(scn, data)) != NULL) {
			size_t off = 0, name_off, desc_off;
			GElf_Nhdr nhdr;

			while (!found && (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
				const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;

				if (nhdr.n_type != NT_GNU_BUILD_ID_TYPE || nhdr.n_namesz != 4 ||
				    memcmp((const char *)data->d_buf + name_off, "GNU", 4) != 0)
					continue;
				if (2 * nhdr.n_descsz + 1 > len)
					break;
				for (size_t i = 0; i < nhdr.n_descsz; i++)
					sprintf(hex + 2 * i, "%02x", desc[i]);
				found = 1;
			}
		}
	}
	elf_end(elf);
	close(fd);
	return found ? 0 : ud_fail(err, "%s: no GNU build-id note", path);
}

/* access(X_OK) also passes a directory, which exec refuses. */
static int is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int ud_which(const char *name, char *out, size_t len, struct ud_err *err)
{
	char candidate[PATH_MAX], resolved[PATH_MAX];
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0 || !realpath(name, resolved))
			return ud_fail(err, "%s: %s", name, strerror(errno));
		if (!is_regular(resolved))
			return ud_fail(err, "%s: not a program (not a regular file)", name);
		snprintf(out, len, "%s", resolved);
		return 0;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
		if (access(candidate, X_OK) == 0 && realpath(candidate, resolved) && is_regular(resolved)) {
			snprintf(out, len, "%s", resolved);
			return 0;
		}
		p += n + (p[n] == ':');
	}
	return ud_fail(err, "%s: command not found", name);
}
