/* The CSV reader itself (analysis/csv.c): any bytes, record by record, and the number
 * parsers on every field. */
#include "analysis/csv.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct csv_reader rd;
    char err[512];
    if (csv_open(&rd, fuzz_file("in.csv", data, size), err, sizeof err) != 0)
        abort();   /* a regular file we just wrote must open */
    int got;
    while ((got = csv_next(&rd, err, sizeof err)) == 1)
        for (int i = 0; i < rd.nfields; i++) {
            double d;
            long l;
            (void)csv_parse_double(rd.fields[i], &d);
            (void)csv_parse_long(rd.fields[i], &l);
            (void)csv_find_column(rd.fields, rd.nfields, rd.fields[i]);
        }
    csv_close(&rd);
    return 0;
}
