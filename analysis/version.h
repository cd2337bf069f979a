/* The one version string: --version, results.json's tool_version and the report all print
 * it, "0.1.0 (<short revision>)": the release and the git revision the binary was built from. */
#ifndef GEMMPROF_ANALYSIS_VERSION_H
#define GEMMPROF_ANALYSIS_VERSION_H

#define GP_VERSION_STRING GP_VERSION " (" GP_GIT_REV ")"

#endif
