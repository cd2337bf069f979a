# Input check shared by the chart scripts, so a bad CSV stops with a clear message
# naming the file, line and column instead of a half-drawn chart.
#   call DIR."check.gp" FILE "NAMES" "NUMBERS" "OPTIONAL_NUMBERS"
#   NAMES             space-separated columns that must exist
#   NUMBERS           columns whose every cell must be a number >= 0
#   OPTIONAL_NUMBERS  columns whose cells must be a number >= 0 or empty
# Expects `set datafile separator comma` and `set datafile columnheaders` (common.gp).
# gnuplot 5.4 misreads an empty *last* field of a line (it returns stale text), so
# files for these scripts never end a line with an empty cell.
# Line numbers assume one header line and no blank lines, which is what gemmprof writes.

CHK_F = ARG1
if (strlen(CHK_F) == 0) { exit error "a CSV path argument is missing" }
# Counted by gnuplot itself: no path ever reaches a shell. A missing or unreadable file
# also draws gnuplot's own warning ("Cannot find or open file"), which gemmprof reports.
CHK_N = 0
stats CHK_F using (CHK_N = CHK_N + 1, 0) nooutput
if (CHK_N == 0) {
    exit error sprintf("%s: no data rows (missing, unreadable, empty, or a header alone)", CHK_F)
}

# The header, as a space-separated list of names.
CHK_HDR = ""
do for [chk_i = 1:200] {
    CHK_H = ""
    stats CHK_F every ::0::0 using (CHK_H = columnhead(chk_i), 0) nooutput
    if (strlen(CHK_H) == 0) { break }
    CHK_HDR = CHK_HDR . " " . CHK_H
}
do for [chk_c in ARG2] {
    if (strstrt(CHK_HDR . " ", " " . chk_c . " ") == 0) {
        exit error sprintf("%s:1: missing column '%s'", CHK_F, chk_c)
    }
}

# First offending data row of a numeric column (row index from 0, so line = row + 2).
chk_col(name) = sum [chk_j = 1:words(CHK_HDR)] (word(CHK_HDR, chk_j) eq name ? chk_j : 0)
do for [chk_pass = 1:2] {
    CHK_LIST = chk_pass == 1 ? ARG3 : ARG4
    do for [chk_c in CHK_LIST] {
        CHK_BAD = -1
        CHK_VAL = ""
        # !(x >= 0) holds for negatives and for NaN, which is what a non-number reads as.
        stats CHK_F using (CHK_BAD < 0 && !(column(chk_c) >= 0) && \
                           (chk_pass == 1 || strlen(strcol(chk_c)) > 0) \
                           ? (CHK_BAD = $0, CHK_VAL = strcol(chk_c)) : 0, 0) nooutput
        if (CHK_BAD >= 0) {
            exit error sprintf("%s:%d: column %s (%d): '%s' is not a number >= 0", \
                               CHK_F, CHK_BAD + 2, chk_c, chk_col(chk_c), CHK_VAL)
        }
    }
}
