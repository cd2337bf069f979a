/* Markdown escaping for every string from the data (variant names, commands, paths,
 * JSON strings) that goes into a Markdown file: report.md and compare's output. */
#ifndef GEMMPROF_ANALYSIS_MARKDOWN_H
#define GEMMPROF_ANALYSIS_MARKDOWN_H

/* Escapes s for Markdown (cut with "..." when over about 4 KiB). code = 1: an inline
 * code span, backticks included, with a fence longer than any backtick run in s;
 * code = 0: text, with every character that could end a table cell or start a code
 * span, link, HTML tag, emphasis or heading backslash-escaped. In both, '|' is escaped
 * (a table cell ends at a bare one even inside a code span) and control bytes (newline,
 * ESC, ...) are shown as \xNN, so a value can neither break a line nor colour a terminal.
 * The result lives in a ring of 16 buffers: valid for the next 15 calls. */
const char *md_escape(const char *s, int code);

static inline const char *mdc(const char *s) { return md_escape(s, 1); }   /* as `code` */
static inline const char *mdt(const char *s) { return md_escape(s, 0); }   /* as text */

#endif
