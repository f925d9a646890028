/* The hot functions of the symbol tests' programs, spinning for ms of CPU time. */
#ifndef UD_HOT_H
#define UD_HOT_H

unsigned long ud_hot_lib_spin(long ms);

#endif
