/*
 * text.h - small string helpers shared by the parsers.
 */
#ifndef UD_TEXT_H
#define UD_TEXT_H

/* Strips leading and trailing white space in place; returns the new start. */
char *ud_trim(char *s);

#endif
