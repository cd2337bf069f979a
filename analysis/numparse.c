/* analysis/numparse.h: strict decimal parsing on top of strtoll/strtoull/strtod, which
 * are lenient about exactly the things a user should be told about. */
#include "analysis/numparse.h"

#include <errno.h>
#include <stdlib.h>

/* Past a run of decimal digits; *n counts them. */
static const char *skip_digits(const char *s, int *n)
{
    for (; *s >= '0' && *s <= '9'; s++)
        (*n)++;
    return s;
}

/* s is [-]digits: the only text the integer parsers hand to strto*. */
static int plain_integer(const char *s, int allow_minus)
{
    int digits = 0;
    if (allow_minus && *s == '-')
        s++;
    s = skip_digits(s, &digits);
    return digits && *s == '\0';
}

int parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !plain_integer(s, lo < 0))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_ull(const char *s, unsigned long long hi, unsigned long long *out)
{
    if (!s || !plain_integer(s, 0))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* [-]digits[.digits][e[-+]digits], at least one digit before the exponent. */
static int plain_real(const char *s, int allow_minus)
{
    int digits = 0, exp_digits = 0;
    if (allow_minus && *s == '-')
        s++;
    s = skip_digits(s, &digits);
    if (*s == '.')
        s = skip_digits(s + 1, &digits);
    if (!digits)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '-' || *s == '+')
            s++;
        s = skip_digits(s, &exp_digits);
        if (!exp_digits)
            return 0;
    }
    return *s == '\0';
}

int parse_real(const char *s, double lo, double hi, double *out)
{
    if (!s || !plain_real(s, lo < 0))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}
