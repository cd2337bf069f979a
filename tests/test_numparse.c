/* analysis/numparse.h: the one parser every typed number goes through. */
#include <limits.h>

#include "analysis/numparse.h"
#include "tests/test.h"

int main(void)
{
    long long ll = 42;
    unsigned long long u = 42;
    double d = 42;

    CHECK(parse_ll("12", 0, 100, &ll) == 0 && ll == 12, "12 in 0..100");
    CHECK(parse_ll("-3", -10, 10, &ll) == 0 && ll == -3, "-3 where negatives are allowed");
    static const char *const bad_int[] = {"", " 5", "5 ", "+5", "0x10", "1e3", "5.0", "-", "--1", "1-", "\t7"};
    for (size_t i = 0; i < sizeof bad_int / sizeof bad_int[0]; i++) {
        ll = 42;
        CHECK(parse_ll(bad_int[i], -100, 100, &ll) == -1 && ll == 42, "integer '%s' refused, output untouched",
              bad_int[i]);
    }
    CHECK(parse_ll("-3", 0, 10, &ll) == -1, "a minus sign where the range has no negatives");
    CHECK(parse_ll("101", 0, 100, &ll) == -1 && parse_ll("99999999999999999999", 0, LLONG_MAX, &ll) == -1,
          "out of range, and past 64 bits");

    CHECK(parse_ull("18446744073709551615", ULLONG_MAX, &u) == 0 && u == ULLONG_MAX, "largest unsigned");
    CHECK(parse_ull("18446744073709551616", ULLONG_MAX, &u) == -1, "one past it");
    CHECK(parse_ull("-5", ULLONG_MAX, &u) == -1 && parse_ull(" -5", ULLONG_MAX, &u) == -1,
          "'-5' and ' -5' do not wrap into huge unsigned values");
    CHECK(parse_ull("0", 0, &u) == 0 && u == 0, "0 in 0..0");

    CHECK(parse_real("12.5", 0, 100, &d) == 0 && d == 12.5, "12.5");
    CHECK(parse_real(".5", 0, 1, &d) == 0 && d == 0.5, ".5");
    CHECK(parse_real("1e-3", 0, 1, &d) == 0 && d == 1e-3, "1e-3");
    CHECK(parse_real("3", 0, 100, &d) == 0 && d == 3, "a whole number as a real");
    static const char *const bad_real[] = {"", "0x10", " 1", "1 ", "+1", "inf", "nan", "1e", ".", "1..2", "e5", "1e+"};
    for (size_t i = 0; i < sizeof bad_real / sizeof bad_real[0]; i++) {
        d = 42;
        CHECK(parse_real(bad_real[i], -1000, 1000, &d) == -1 && d == 42, "real '%s' refused", bad_real[i]);
    }
    CHECK(parse_real("-1", 0, 1000, &d) == -1 && parse_real("1001", 0, 1000, &d) == -1, "reals out of range");
    return test_failed_count ? 1 : 0;
}
