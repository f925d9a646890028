/*
 * profile_json_priv.h - what the profile's writer (profile_write.c) and its
 * reader (profile_read.c) share so that they say it the same way; private
 * to model/.
 */
#ifndef UD_PROFILE_JSON_PRIV_H
#define UD_PROFILE_JSON_PRIV_H

#include "profile.h"

/* The key a target's ids go under ("cpus", "pids", "tids"), a static string; NULL for a command. */
const char *ud_target_ids_key(enum ud_target_kind kind);

#endif
