/* results.json: write/read round trip of every gp_meta field (including strings that
 * need escaping and UTF-8), the reader's tolerance for unknown keys and arrays, and its
 * errors (file:line:column) on malformed input. */
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/meta.h"
#include "analysis/results.h"
#include "tests/test.h"

static char tmpdir[64];

static const char *write_text(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

static int read_text(const char *text, struct gp_meta *m, char *err, size_t errlen)
{
    const char *p = write_text("t.json", text);
    meta_init(m);
    return meta_read_json(p, m, err, errlen);
}

int main(void)
{
    char err[512] = "", path[256];
    strcpy(tmpdir, "/tmp/gp_meta_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp");
        TEST_EXIT();
    }

    /* round trip */
    struct gp_meta a, b;
    meta_init(&a);
    CHECK(a.schema == GP_SCHEMA_VERSION && isnan(a.sm_clock_measured_hz) && a.planned_rows == -1,
          "meta_init: schema current, doubles NaN, planned_rows -1");
    /* the longest the harness writes: GP_VERSION_STRING with a whole revision from .gitrev
     * (a build without git) and the dirty mark */
    static const char long_version[] = "0.1.0 (859a032c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f50-dirty)";
    snprintf(a.tool_version, sizeof a.tool_version, "%s", long_version);
    strcpy(a.gpu_name, "NVIDIA H200 \"NVL\" \\ test");
    strcpy(a.gpu_uuid, "GPU-1234");
    a.cc_major = 9;
    a.cc_minor = 0;
    a.sm_count = 132;
    a.sm_clock_max_hz = 1.98e9;
    a.sm_clock_measured_hz = 1.755e9 + 0.1234567;
    a.mem_clock_hz = 3.201e9;
    a.mem_bus_bits = 6144;
    a.l2_bytes = 62914560;
    a.smem_per_block_optin_bytes = 232448;
    a.global_mem_bytes = 150754820096.0;
    strcpy(a.driver_version, "13.0");
    strcpy(a.runtime_version, "13.0");
    strcpy(a.cublas_version, "13.0.0");
    strcpy(a.command, "gemmprof --out 'my dir' -k naive,tiled\n\t\x01 end / \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    /* a tag's `git describe` can be longer than a whole revision */
    static const char long_rev[] = "release-2026-12-06-candidate-42-1234-g859a032c0d1e-dirty";
    snprintf(a.git_rev, sizeof a.git_rev, "%s", long_rev);
    strcpy(a.date, "2026-11-30T12:00:00Z");
    strcpy(a.hostname, "h200-vm");
    strcpy(a.counters, "collected (3 passes)");
    a.l2_flush = 1;
    a.reps = 10;
    a.warmups = 2;
    a.seed = 18446744073709551615ULL;
    a.planned_rows = 20;
    a.rank = 3;
    a.world_size = 4;
    a.local_rank = 1;
    strcpy(a.mode, "shard");
    a.variants.n = 2;
    strcpy(a.variants.v[0].name, "naive");
    strcpy(a.variants.v[0].precision, "fp32");
    strcpy(a.variants.v[0].description, "one thread per C element, \"two\" loads\nper FMA");
    strcpy(a.variants.v[1].name, "mine");
    strcpy(a.variants.v[1].precision, "tf32");
    snprintf(path, sizeof path, "%s/results.json", tmpdir);
    CHECK(meta_write_json(path, &a, err, sizeof err) == 0, "meta_write_json writes %s", path);
    meta_init(&b);
    int rc = meta_read_json(path, &b, err, sizeof err);
    CHECK(rc == 0, "meta_read_json reads it back%s%s", rc ? ": " : "", rc ? err : "");
    CHECK(b.schema == a.schema, "schema round-trips");
    CHECK(strcmp(b.gpu_name, a.gpu_name) == 0, "quotes and backslashes round-trip: %s", b.gpu_name);
    CHECK(strcmp(b.command, a.command) == 0, "control characters and UTF-8 round-trip");
    CHECK(b.sm_clock_measured_hz == a.sm_clock_measured_hz && b.global_mem_bytes == a.global_mem_bytes,
          "doubles round-trip exactly");
    CHECK(b.seed == a.seed, "64-bit seed round-trips");
    CHECK(b.cc_major == 9 && b.sm_count == 132 && b.mem_bus_bits == 6144 && b.l2_flush == 1 &&
              b.reps == 10 && b.warmups == 2 && b.planned_rows == 20,
          "integers round-trip");
    CHECK(b.rank == 3 && b.world_size == 4 && b.local_rank == 1 && strcmp(b.mode, "shard") == 0,
          "rank, world_size, local_rank and mode round-trip");
    CHECK(strcmp(a.hostname, b.hostname) == 0 && strcmp(a.counters, b.counters) == 0 &&
              strcmp(a.git_rev, b.git_rev) == 0 && strcmp(a.date, b.date) == 0 &&
              strcmp(a.tool_version, b.tool_version) == 0 && strcmp(a.gpu_uuid, b.gpu_uuid) == 0 &&
              strcmp(a.cublas_version, b.cublas_version) == 0,
          "strings of every section round-trip");
    CHECK(strcmp(b.tool_version, long_version) == 0 && strcmp(b.git_rev, long_rev) == 0,
          "a version with a whole 40-digit revision and a tag's long describe round-trip whole: %s, %s",
          b.tool_version, b.git_rev);
    CHECK(b.variants.n == 2 && strcmp(b.variants.v[0].name, "naive") == 0 &&
              strcmp(b.variants.v[0].precision, "fp32") == 0 &&
              strcmp(b.variants.v[0].description, a.variants.v[0].description) == 0 &&
              strcmp(b.variants.v[1].name, "mine") == 0 && strcmp(b.variants.v[1].precision, "tf32") == 0 &&
              b.variants.v[1].description[0] == 0,
          "the variant list round-trips: names, precisions, descriptions (quotes, newline, empty)");
    CHECK(meta_variant_find(&b.variants, "mine") == &b.variants.v[1] && !meta_variant_find(&b.variants, "tiled"),
          "meta_variant_find finds a listed variant, and no other");
    CHECK(count_files_named(tmpdir, ".tmp.") == 0, "no temporary file left behind");

    /* the file is nested as documented, and NaN is null */
    a.sm_clock_measured_hz = NAN;
    CHECK(meta_write_json(path, &a, err, sizeof err) == 0, "rewrite with a NaN");
    FILE *f = fopen(path, "r");
    char text[8192] = "";
    if (f) {
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
    }
    CHECK(strstr(text, "\"gpu\": {") && strstr(text, "\"software\": {") && strstr(text, "\"run\": {"),
          "sections gpu/software/run present");
    CHECK(strstr(text, "\"sm_clock_measured_hz\": null") != NULL, "NaN written as null");
    {
        const char *run = strstr(text, "\"run\": {");
        CHECK(run && strstr(run, "\"rank\": 3") && strstr(run, "\"world_size\": 4") &&
                  strstr(run, "\"local_rank\": 1") && strstr(run, "\"mode\": \"shard\""),
              "rank fields written in the run object under the agreed keys");
    }
    CHECK(strstr(text, "\\u0001") && strstr(text, "\\n") && strstr(text, "\\\""),
          "control characters and quotes escaped in the file");
    meta_init(&b);
    CHECK(meta_read_json(path, &b, err, sizeof err) == 0 && isnan(b.sm_clock_measured_hz),
          "null reads back as NaN");

    /* json_write_string alone */
    snprintf(path, sizeof path, "%s/s.txt", tmpdir);
    f = fopen(path, "w");
    json_write_string(f, "a\"b\\c\x1f\x7f\xc3\xa9");
    fclose(f);
    f = fopen(path, "r");
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK(strcmp(text, "\"a\\\"b\\\\c\\u001f\\u007f\xc3\xa9\"") == 0, "json_write_string escapes: %s", text);

    /* reader: unknown keys, arrays, nested objects, escapes */
    struct gp_meta m;
    rc = read_text("{\"schema\": 1, \"extra\": [1, {\"a\": [true, null]}, \"x\"],\n"
                   " \"gpu\": {\"name\": \"G\\u00e9\\ud83d\\ude00\\/\", \"sm_count\": 132,"
                   " \"future\": {\"sm_count\": 7}, \"l2_bytes\": 6.0e7},\n"
                   " \"run\": {\"l2_flush\": true, \"reps\": 3, \"planned_rows\": -1}, \"software\": {}}",
                   &m, err, sizeof err);
    CHECK(rc == 0, "unknown keys, arrays and nested objects are skipped%s%s", rc ? ": " : "", rc ? err : "");
    CHECK(strcmp(m.gpu_name, "G\xc3\xa9\xf0\x9f\x98\x80/") == 0, "\\u escapes and surrogate pairs decode to UTF-8");
    CHECK(m.sm_count == 132, "a known key inside an unknown nested object does not leak (sm_count %d)", m.sm_count);
    CHECK(m.l2_bytes == 6.0e7 && m.l2_flush == 1 && m.reps == 3 && m.planned_rows == -1,
          "numbers with exponents, booleans, planned_rows -1 (unknown)");

    rc = read_text("{\"gpu\": {\"name\": \"x\"}}", &m, err, sizeof err);
    CHECK(rc == 0 && m.schema == 0, "a file without \"schema\" reads as schema 0");
    CHECK(rc == 0 && m.variants.n == 0, "a file without \"variants\" lists none (%d)", m.variants.n);
    {
        /* entries past the table, other keys and other types are skipped */
        char big[8192] = "{\"variants\": [";
        for (int i = 0; i < GP_META_VARIANTS + 3; i++)
            snprintf(big + strlen(big), sizeof big - strlen(big), "%s{\"name\": \"v%d\", \"extra\": 1}",
                     i ? ", " : "", i);
        strcat(big, "], \"x\": {\"variants\": [{\"name\": \"no\"}]}}");
        char last[16];
        snprintf(last, sizeof last, "v%d", GP_META_VARIANTS - 1);
        rc = read_text(big, &m, err, sizeof err);
        CHECK(rc == 0 && m.variants.n == GP_META_VARIANTS && strcmp(m.variants.v[GP_META_VARIANTS - 1].name, last) == 0 &&
                  !meta_variant_find(&m.variants, "no"),
              "a variant list longer than %d entries keeps the first ones; nested lookalikes are not read (%d)",
              GP_META_VARIANTS, m.variants.n);
        rc = read_text("{\"variants\": [{\"name\": 5, \"description\": \"d\"}, \"x\"]}", &m, err, sizeof err);
        CHECK(rc == 0 && m.variants.n == 1 && m.variants.v[0].name[0] == 0 && !meta_variant_find(&m.variants, "5"),
              "a name that is not a string is not read; the entry matches no variant");
    }

    /* reader errors name the file, line and column */
    rc = read_text("{\n  \"schema\": 1,\n  \"gpu\" {}\n}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "t.json:3:9:") && strstr(err, "':'"), "missing colon: %s", err);
    rc = read_text("{\"schema\": 1,}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, ":1:14:"), "trailing comma: %s", err);
    rc = read_text("{\"gpu\": {\"name\": \"abc}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "unterminated string"), "unterminated string: %s", err);
    rc = read_text("{\"gpu\": {\"name\": \"a\tb\"}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "control character"), "raw control character: %s", err);
    rc = read_text("{\"gpu\": {\"name\": \"\\x\"}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "invalid escape"), "invalid escape: %s", err);
    rc = read_text("{\"gpu\": {\"name\": \"\\ud83d\"}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "surrogate"), "unpaired surrogate: %s", err);
    rc = read_text("{\"gpu\": {\"sm_count\": \"132\"}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "gpu.sm_count") && strstr(err, "integer"), "type mismatch: %s", err);
    rc = read_text("{\"gpu\": {\"sm_count\": 1.5}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "gpu.sm_count"), "fraction into an integer: %s", err);
    rc = read_text("{\"schema\": 01}", &m, err, sizeof err);
    CHECK(rc < 0, "leading zero rejected: %s", err);
    rc = read_text("{\"schema\": 1} x", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "trailing"), "trailing garbage: %s", err);
    rc = read_text("", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "empty"), "empty file: %s", err);
    rc = read_text("[1,2]", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "object"), "top-level array: %s", err);
    rc = read_text("{\"gpu\": {\"name\": tru}}", &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "expected a value"), "bad literal: %s", err);
    char deep[400] = "{\"a\": ";
    for (int i = 0; i < 100; i++)
        strcat(deep, "[");
    rc = read_text(deep, &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "nested too deeply"), "deep nesting rejected without a crash: %s", err);
    snprintf(path, sizeof path, "%s/none.json", tmpdir);
    rc = meta_read_json(path, &m, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "none.json"), "missing file names it: %s", err);

    /* a string longer than its field is cut at a character boundary */
    char longname[300] = "{\"gpu\": {\"name\": \"";
    for (int i = 0; i < 60; i++)
        strcat(longname, "\xc3\xa9");   /* 120 bytes of two-byte characters */
    strcat(longname, "\"}}");
    rc = read_text(longname, &m, err, sizeof err);
    size_t len = strlen(m.gpu_name);
    CHECK(rc == 0 && len < sizeof m.gpu_name && len % 2 == 0, "overlong string cut at a UTF-8 boundary (%zu bytes)", len);

    /* a failed write leaves nothing behind and says why */
    snprintf(path, sizeof path, "%s/no/such/dir/results.json", tmpdir);
    rc = meta_write_json(path, &a, err, sizeof err);
    CHECK(rc < 0 && strstr(err, "cannot create"), "unwritable path: %s", err);

    /* the rank fields: absent is a single run; validated against each other */
    CHECK(read_text("{\"schema\": 1, \"run\": {\"reps\": 3}}", &m, err, sizeof err) == 0 && m.rank == 0 &&
              m.world_size == 1 && m.local_rank == 0 && strcmp(m.mode, "single") == 0,
          "no rank fields: rank 0 of 1, mode single");
    CHECK(read_text("{\"run\": {\"rank\": 1, \"world_size\": 2, \"local_rank\": 1, \"mode\": \"fleet\"}}",
                    &m, err, sizeof err) == 0 && m.rank == 1 && strcmp(m.mode, "fleet") == 0,
          "fleet rank 1 of 2 reads");
    CHECK(read_text("{\"run\": {\"mode\": \"shards\"}}", &m, err, sizeof err) == -1 && strstr(err, "run.mode") &&
              !strchr(err, '\n'), "unknown mode refused: %s", err);
    CHECK(read_text("{\"run\": {\"mode\": \"singleton-mode\"}}", &m, err, sizeof err) == -1,
          "overlong mode refused (not cut to a valid one): %s", err);
    CHECK(read_text("{\"run\": {\"rank\": 2, \"world_size\": 2}}", &m, err, sizeof err) == -1 &&
              strstr(err, "below"), "rank >= world_size refused: %s", err);
    CHECK(read_text("{\"run\": {\"local_rank\": 5, \"world_size\": 4}}", &m, err, sizeof err) == -1,
          "local_rank >= world_size refused: %s", err);
    CHECK(read_text("{\"run\": {\"world_size\": 0}}", &m, err, sizeof err) == -1 && strstr(err, "world_size"),
          "world_size 0 refused: %s", err);
    CHECK(read_text("{\"run\": {\"rank\": -1}}", &m, err, sizeof err) == -1, "negative rank refused: %s", err);
    CHECK(read_text("{\"run\": {\"mode\": 2}}", &m, err, sizeof err) == -1, "numeric mode refused: %s", err);

    snprintf(path, sizeof path, "rm -rf '%s'", tmpdir);
    if (system(path) != 0)
        printf("note: could not remove %s\n", tmpdir);
    TEST_EXIT();
}
