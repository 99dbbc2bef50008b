/* SPDX-License-Identifier: MIT */
/* pmctool serve's HTTP request parser (cli/serve_http.c) on arbitrary bytes: never reads past the request, and its
 * answer is one of the documented ones. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/serve_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_http_request rq;
	char *req;
	int code;

	if (size > PMC_HTTP_REQUEST_MAX)
		size = PMC_HTTP_REQUEST_MAX; /* the server never holds more */
	req = malloc(size + 1);
	if (!req)
		return 0;
	memcpy(req, data, size);
	code = pmc_http_request_parse(req, size, "/metrics", &rq);
	if (code != -1 && code != 0 && code != 400 && code != 404 && code != 405 && code != 413 && code != 505)
		abort();
	if (code == 0 && rq.accept && (rq.accept < req || rq.accept > req + size))
		abort();
	if (code == -1 && size == PMC_HTTP_REQUEST_MAX)
		abort();
	free(req);
	return 0;
}
