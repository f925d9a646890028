/*
 * profile_find.h - the profile files a fleet's operands name: a file as it
 * is named, a folder searched for the profiles under it (the fleet
 * playbook's HOST/profile.json among its host.json, run.log and reports),
 * and a list of such paths read a line at a time (compare's `-`, so that a
 * fleet of any size can be named without the kernel's argument limit).
 *
 * A file under a folder is taken as a profile when its name ends in .json
 * and its first key is a "schema" of uarchdiff.profile/ (as every profile
 * uarchdiff writes begins); every other file is counted and skipped, and
 * so are the playbook's set-aside *.rejected.json.  A folder's profiles
 * come in byte order of their names, level by level, so that a report
 * does not depend on the order the file system lists them in.  A named
 * path that does not exist, or a folder that cannot be read, is an error
 * that names it: a fleet silently missing a part is the wrong report.
 */
#ifndef UD_PROFILE_FIND_H
#define UD_PROFILE_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

struct ud_profile_paths {
	char **paths;    /* owned, each owned: in the order named, a folder's sorted */
	size_t n, cap;
	size_t nfolders; /* folders searched (named ones and those under them) */
	size_t nnamed_folders; /* folders named, given or listed */
	size_t nfound;   /* profiles found under the folders (the others in paths were named) */
	size_t nother;   /* files under the folders that are not profiles, skipped */
};


/* Adds operand: a file as it is, a folder's profiles; 0, or -1 with err naming the path and what to do. */
int ud_profile_paths_add(struct ud_profile_paths *l, const char *operand, struct ud_err *err);

/*
 * Adds every line of in (name: what to call it in errors, "standard
 * input") as an operand, empty lines skipped; 0, or -1 with err naming the
 * line.
 */
int ud_profile_paths_read(struct ud_profile_paths *l, FILE *in, const char *name, struct ud_err *err);

/*
 * 0, or -1 with err naming the first file named twice (the same device and
 * inode: ./a.json, dir//a.json, a symlink or a hard link to it, or a file
 * named and found again under a named folder).  A host counted twice would
 * be two votes for its results in its group's median and two rows of one
 * machine, so the fleet refuses it rather than guess which naming was
 * meant; a path that no longer stats is left to the loader to name.
 */
int ud_profile_paths_check_distinct(const struct ud_profile_paths *l, struct ud_err *err);

void ud_profile_paths_free(struct ud_profile_paths *l);

#endif
