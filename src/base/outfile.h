/*
 * outfile.h - output files that are never left half-written.
 *
 * What -o does with each kind of path:
 *   "-", /dev/stdout   standard output; /dev/stderr standard error.
 *   a new path         kept in memory until commit, then written to a
 *                      temporary file in the same directory, synced and
 *                      renamed into place (mode 0666 less the umask).
 *   a regular file     the same, keeping the existing file's mode (another
 *                      user's: no more than a new file would get, so that a
 *                      planted 0666 file does not make the output
 *                      world-writable); refused when the file is not
 *                      writable (read-only): only what could be written in
 *                      place is replaced.
 *   a symbolic link    followed: its target is replaced as above and the link
 *                      stays; a link to nothing is refused.  A link in a
 *                      sticky world-writable folder (/tmp) is followed only
 *                      when it is the caller's or the folder owner's: the
 *                      rule of fs.protected_symlinks=1, applied by the tool
 *                      itself to every link on the way, so that another user
 *                      cannot plant /tmp/report.html -> /etc/shadow for root
 *                      to overwrite, whatever the system's setting.
 *   a FIFO or a        opened and written in place (renaming over it would
 *   character device   replace the node): /dev/null, a terminal, /dev/full.
 *                      A FIFO must have a reader when the output is opened,
 *                      else it is refused ("a FIFO with no reader") instead
 *                      of waiting for one.
 *   anything else      refused: a directory, a socket, a block device, "".
 *
 * In a sticky world-writable folder a file, FIFO or character device at the
 * path is likewise written only when it is the caller's or the folder
 * owner's (fs.protected_fifos and protected_regular's rule): another user's
 * FIFO in /tmp would receive the output.  The refusal says to pick another
 * path.
 *
 * The path is walked a component at a time and its folder held open from
 * open to commit, so that nothing on the way can be swapped meanwhile; the
 * temporary is created exclusively and never through a link.  A replaced
 * file's permission bits are kept, its set-user-ID, set-group-ID and
 * sticky bits are not.
 *
 * ud_outfile_check() makes the same decision without creating or opening
 * anything, so that a command can refuse an unusable -o before it measures
 * (opening a FIFO to test it would hand its reader an EOF).  The temporary
 * exists only inside ud_outfile_commit(), with SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT held (delivered after it), so neither a signal nor a crash while
 * the output is produced leaves it behind; SIGXFSZ is ignored meanwhile, so
 * that a file-size limit fails the write with "File too large" instead of
 * killing the process.
 *
 * ud_outfile_create() and ud_outfile_check_new() are for a name the user
 * did not choose (a default file name): a regular file that must not exist,
 * refused when it does, at open and again at commit, so that nothing is
 * overwritten that nobody named.
 *
 * Ownership: the caller owns the ud_outfile and must end it with exactly one
 * of ud_outfile_commit() or ud_outfile_abort(), which free it.
 */
#ifndef UD_OUTFILE_H
#define UD_OUTFILE_H

#include <stdio.h>

#include "error.h"

struct ud_outfile;

/* 0 when path could be written as above, else -1 with err naming it; creates and opens nothing. */
int ud_outfile_check(const char *path, struct ud_err *err);
/* The same, and refused when path exists (creates nothing either). */
int ud_outfile_check_new(const char *path, struct ud_err *err);
/*
 * ud_outfile_check(), and refused when path is one of the files a command
 * reads (-o naming its own input would replace what it reads): "OPT PATH
 * is the input INPUT: write elsewhere".  One file is one file however it
 * is named (./, //, .., a symbolic or hard link); a path that does not
 * exist yet is one with another that names the same folder and name.
 * Called before any input is read, so that the refusal comes first.
 */
int ud_outfile_check_inputs(const char *opt, const char *path, const char *const *inputs, size_t ninputs,
			    struct ud_err *err);
/* Both paths checked as outputs, and refused when they are one file (or one standard stream): "name the same file". */
int ud_outfile_check_apart(const char *opt, const char *path, const char *other_opt, const char *other,
			   struct ud_err *err);
/* Owned by the caller, ended by commit or abort; NULL with err when path cannot be written. */
struct ud_outfile *ud_outfile_open(const char *path, struct ud_err *err);
/* The same for a file that must not exist: "exists already: not replaced" at open or at commit. */
struct ud_outfile *ud_outfile_create(const char *path, struct ud_err *err);
/*
 * The same, adding to the file instead of replacing it (perf stat's
 * --append): a regular file or a new path gets what was written at each
 * ud_outfile_flush() and at commit, each time in one O_APPEND write, so
 * that reports of concurrent writers stay whole and in order and a reader
 * following the file sees each as it comes.  Other kinds are written as
 * ud_outfile_open() writes them.
 */
struct ud_outfile *ud_outfile_append(const char *path, struct ud_err *err);
/* What was written so far: appended (ud_outfile_append()), or flushed to a stream written in place; 0 or -1. */
int ud_outfile_flush(struct ud_outfile *out, struct ud_err *err);
/* Borrowed: the stream to write the output to, until commit or abort. */
FILE *ud_outfile_stream(struct ud_outfile *out);
/* Flushes, renames into place; returns 0 or -1 with err (and removes the temp). */
int ud_outfile_commit(struct ud_outfile *out, struct ud_err *err);
/* Discards everything written; the target is left as it was. */
void ud_outfile_abort(struct ud_outfile *out);

#endif
