#include <fcntl.h>
#include <gelf.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfinfo.h"
#include "symbols.h"
#include "symtab.h"

/* One sampled file: its symbols by the file's own addresses, and its loadable segments. */
struct dso {
	bool loaded, elf;
	struct ud_symtab syms;
	GElf_Phdr *load;   /* PT_LOAD headers */
	size_t nload;
};

/* Reads the symbols of one symbol-table section; -1 when out of memory. */
static int read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct ud_symtab *t)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = data && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF || !sym.st_size)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (name && *name && ud_symtab_add(t, sym.st_value, sym.st_size, name, NULL) != 0)
			return -1;
	}
	return 0;
}

/* .symtab where the file has one (it names static functions too), else .dynsym.  1 when .symtab was read. */
static int load_symbols(Elf *elf, struct ud_symtab *t)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *full = NULL;
	GElf_Shdr sh, dsh, fsh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			full = scn, fsh = sh;
		else if (sh.sh_type == SHT_DYNSYM)
			dyn = scn, dsh = sh;
	}
	if (full)
		return read_symbols(elf, full, &fsh, t) != 0 ? -1 : 1;
	if (dyn)
		return read_symbols(elf, dyn, &dsh, t);
	return 0;
}

static int load_segments(Elf *elf, struct dso *d)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	d->load = calloc(n ? n : 1, sizeof(*d->load));
	if (!d->load)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &d->load[d->nload]) && d->load[d->nload].p_type == PT_LOAD)
			d->nload++;
	return 0;
}

/*
 * Where distributions install a stripped file's symbols (libc6-dbg and the
 * like), by build-id, as gdb and perf look for them.
 */
#define DEBUG_BUILD_ID_DIR "/usr/lib/debug/.build-id"

/* Loads what path offers; a file that is not ELF (or gone) leaves d without symbols.  -1 when out of memory. */
static int dso_load_file(struct dso *d, const char *path, bool segments)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	Elf *elf;

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		d->elf = true;
		if (segments && load_segments(elf, d) != 0)
			ret = -1;
		else
			ret = load_symbols(elf, &d->syms);
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* The file's symbols: its .symtab, else a debug file's found by build-id, else its .dynsym. */
static int dso_load(struct dso *d, const char *path)
{
	char id[130], debug[sizeof(id) + sizeof(DEBUG_BUILD_ID_DIR) + 16];
	struct ud_err ignore = UD_ERR_INIT;
	struct ud_symtab dynamic;
	int ret;

	d->loaded = true;
	ret = dso_load_file(d, path, true);
	if (ret == 0 && ud_elf_build_id(path, id, sizeof(id), &ignore) == 0 && strlen(id) > 2) {
		snprintf(debug, sizeof(debug), "%s/%.2s/%s.debug", DEBUG_BUILD_ID_DIR, id, id + 2);
		dynamic = d->syms;
		memset(&d->syms, 0, sizeof(d->syms));
		ret = dso_load_file(d, debug, false);
		if (ret == 1)
			ud_symtab_free(&dynamic);
		else if (ret == 0) {
			ud_symtab_free(&d->syms);
			d->syms = dynamic;
		}
	}
	ud_symtab_sort(&d->syms);
	return ret < 0 ? -1 : 0;
}

/* The file's own address for a file offset: the PT_LOAD segment holding it; false when none does. */
static bool offset_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < d->nload; i++) {
		const GElf_Phdr *p = &d->load[i];

		if (off >= p->p_offset && off - p->p_offset < p->p_filesz) {
			*vaddr = off - p->p_offset + p->p_vaddr;
			return true;
		}
	}
	return false;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

struct resolver {
	const struct ud_histogram *h;
	struct dso *dsos;
	struct ud_symtab kernel;
	bool kernel_named;
	struct ud_hotspots *out;
	double total;
};

static int add(struct resolver *r, const char *symbol, const char *dso, enum ud_mode mode, uint64_t count)
{
	return ud_hotspots_add(r->out, symbol, dso, mode, (double)count / r->total, (double)count);
}

static int add_kernel(struct resolver *r, const struct ud_hit *hit)
{
	const struct ud_sym *s = r->kernel_named ? ud_symtab_find(&r->kernel, hit->addr) : NULL;
	char buf[300];

	if (!r->kernel_named)
		return add(r, UD_KERNEL_ROW, UD_KERNEL_DSO, UD_MODE_KERNEL, hit->count);
	if (s && s->module) {
		snprintf(buf, sizeof(buf), "[%s]", s->module); /* as perf names a module */
		return add(r, s->name, buf, UD_MODE_KERNEL, hit->count);
	}
	if (s)
		return add(r, s->name, UD_KERNEL_DSO, UD_MODE_KERNEL, hit->count);
	snprintf(buf, sizeof(buf), UD_HOTSPOT_UNKNOWN " 0x%llx", (unsigned long long)hit->addr);
	return add(r, buf, UD_KERNEL_DSO, UD_MODE_KERNEL, hit->count);
}

static int add_user(struct resolver *r, const struct ud_hit *hit)
{
	const char *path;
	struct dso *d;
	const struct ud_sym *s = NULL;
	uint64_t vaddr;
	char buf[4200];

	if (hit->dso == UD_HIT_NO_DSO) {
		snprintf(buf, sizeof(buf), UD_HOTSPOT_UNKNOWN " 0x%llx", (unsigned long long)hit->addr);
		return add(r, buf, NULL, UD_MODE_USER, hit->count);
	}
	path = r->h->dsos[hit->dso];
	d = &r->dsos[hit->dso];
	if (!d->loaded && dso_load(d, path) != 0)
		return -1;
	if (offset_to_vaddr(d, hit->addr, &vaddr))
		s = ud_symtab_find(&d->syms, vaddr);
	if (s)
		return add(r, s->name, path, UD_MODE_USER, hit->count);
	snprintf(buf, sizeof(buf), UD_HOTSPOT_UNKNOWN " %s+0x%llx", base_name(path), (unsigned long long)hit->addr);
	return add(r, buf, path, UD_MODE_USER, hit->count);
}

/* The build-ids of the files that samples landed in. */
static int add_dsos(struct resolver *r)
{
	for (size_t i = 0; i < r->h->ndsos; i++) {
		char id[130];
		struct ud_err ignore = UD_ERR_INIT;

		if (!r->dsos[i].loaded)
			continue;
		if (ud_hotspots_add_dso(r->out, r->h->dsos[i], ud_elf_build_id(r->h->dsos[i], id, sizeof(id), &ignore) == 0
									 ? id
									 : NULL) != 0)
			return -1;
	}
	return 0;
}

static bool has_kernel_hits(const struct ud_histogram *h)
{
	for (size_t i = 0; i < h->nhits; i++)
		if (h->hits[i].kernel)
			return true;
	return false;
}

/* Reads kallsyms when kernel samples need it; out's kernel_symbols says how it went. */
static int load_kernel(struct resolver *r, const char *kallsyms)
{
	struct ud_err why = UD_ERR_INIT;
	char text[sizeof(why.msg) + 64];

	if (!has_kernel_hits(r->h))
		return 0;
	r->kernel_named = ud_kallsyms_load(kallsyms, &r->kernel, &why) == 0;
	snprintf(text, sizeof(text), "%s%s", r->kernel_named ? "kallsyms" : "not named: ",
		 r->kernel_named ? "" : why.msg);
	free(r->out->sampling.kernel_symbols);
	r->out->sampling.kernel_symbols = strdup(text);
	return r->out->sampling.kernel_symbols ? 0 : -1;
}

int ud_symbols_resolve(const struct ud_histogram *h, const char *kallsyms, struct ud_hotspots *out,
		       struct ud_err *err)
{
	struct resolver r = { .h = h, .out = out, .total = (double)h->samples };
	int ret = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return ud_fail(err, "libelf: %s", elf_errmsg(-1));
	out->sampling.samples = (double)h->samples;
	out->sampling.lost = (double)h->lost;
	out->sampling.truncated = (double)h->truncated;
	r.dsos = calloc(h->ndsos ? h->ndsos : 1, sizeof(*r.dsos));
	if (!r.dsos || load_kernel(&r, kallsyms) != 0)
		ret = -1;
	for (size_t i = 0; ret == 0 && i < h->nhits; i++)
		ret = h->hits[i].kernel ? add_kernel(&r, &h->hits[i]) : add_user(&r, &h->hits[i]);
	if (ret == 0)
		ret = add_dsos(&r);
	if (ret == 0)
		ret = ud_hotspots_finish(out);
	for (size_t i = 0; r.dsos && i < h->ndsos; i++) {
		ud_symtab_free(&r.dsos[i].syms);
		free(r.dsos[i].load);
	}
	free(r.dsos);
	ud_symtab_free(&r.kernel);
	return ret == 0 ? 0 : ud_fail(err, "out of memory");
}

struct ud_hotspots *ud_symbols_from_records(const void *records, size_t len, const char *event, unsigned hz,
					    const char *kernel_reason, struct ud_err *err)
{
	struct ud_hotspots *hs = ud_hotspots_new();
	struct ud_histogram h;
	int ret = -1;
	bool said = false; /* err already holds the reason */

	ud_histogram_init(&h);
	if (!hs || !(hs->sampling.event = strdup(event)) || ud_histogram_feed(&h, records, len) != 0)
		goto out;
	ud_histogram_finish(&h);
	hs->sampling.frequency_hz = hz;
	if (ud_symbols_resolve(&h, ud_kallsyms_path(), hs, err) != 0) {
		said = true;
		goto out;
	}
	if (kernel_reason && *kernel_reason) {
		free(hs->sampling.kernel_symbols);
		if (!(hs->sampling.kernel_symbols = strdup(kernel_reason)))
			goto out;
	}
	ret = 0;
out:
	ud_histogram_free(&h);
	if (ret != 0) {
		ud_hotspots_free(hs);
		if (!said)
			ud_fail(err, "out of memory");
		return NULL;
	}
	return hs;
}
