/* The one number parser for everything a user types (options, environment hooks): plain
 * decimal only. No blanks, no '+', no hex or octal prefixes, no "inf"/"nan"; a '-' only
 * where the range allows negatives. strtol alone accepts " 5", "+5" and "0x10" and wraps
 * "-5" into an unsigned, so every caller goes through here instead. */
#ifndef GEMMPROF_ANALYSIS_NUMPARSE_H
#define GEMMPROF_ANALYSIS_NUMPARSE_H

#include <stddef.h>

/* Whole numbers in lo..hi: 0, or -1 when s is not one (out untouched). */
int parse_ll(const char *s, long long lo, long long hi, long long *out);
int parse_ull(const char *s, unsigned long long hi, unsigned long long *out);
/* Decimal reals in lo..hi ("12", "0.5", "1e-3", ".5"): 0 or -1. */
int parse_real(const char *s, double lo, double hi, double *out);

#endif
