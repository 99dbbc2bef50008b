/* SPDX-License-Identifier: MIT */
/* libpfm4's release (4.13.0): pfm_get_version() gives only the API's version (4.0 for every 4.x), and a newer release
 * knows newer CPUs, so info and every report's environment name the release itself. */
#include <dlfcn.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "pmu/event.h"

const char *pmc_pfm_release(char *buf, size_t len)
{
	Dl_info di;
	char *real = NULL;
	const char *base, *how = NULL;

	buf[0] = '\0';
	/* A shared libpfm4: the file this process loaded (libpfm.so.4 -> libpfm.so.4.13.0). */
	if (dladdr((void *)pfm_get_version, &di) && di.dli_fname && (real = realpath(di.dli_fname, NULL)) &&
	    (base = strrchr(real, '/')) && !strncmp(base + 1, "libpfm.so.", 10) && base[11]) {
		snprintf(buf, len, "%s", base + 11);
		how = "shared";
	} else if (PMC_LIBPFM_RELEASE[0]) {
		/* Linked statically: the release the build linked (meson.build reads it from the library's name). */
		snprintf(buf, len, "%s", PMC_LIBPFM_RELEASE);
		how = "static";
	}
	free(real);
	return how;
}
