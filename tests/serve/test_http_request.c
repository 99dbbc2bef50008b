/* SPDX-License-Identifier: MIT */
/* pmctool serve's HTTP request parser (cli/serve_http.c): which requests are answered and which error each other
 * one gets, table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/serve_http.h"

static void test_requests_get_their_documented_answers(void **state)
{
	static const struct {
		int line;
		const char *req;
		int code;
		bool head;
		const char *accept;
	} rows[] = {
		{ __LINE__, "GET /metrics HTTP/1.1\r\nHost: h\r\nAccept: application/openmetrics-text\r\n\r\n", 0, false,
		  "application/openmetrics-text" },
		{ __LINE__, "GET /metrics HTTP/1.0\n\n", 0, false, NULL },
		{ __LINE__, "GET /metrics?name[]=x HTTP/1.1\r\naccept:  text/plain\r\n\r\n", 0, false, "text/plain" },
		{ __LINE__, "HEAD /metrics HTTP/1.1\r\n\r\n", 0, true, NULL },
		{ __LINE__, "GET /metrics HTTP/1.1\r\nHost: h\r\n", -1, false, NULL },   /* headers not ended yet */
		{ __LINE__, "GET /metr", -1, false, NULL },
		{ __LINE__, "", -1, false, NULL },
		{ __LINE__, "POST /metrics HTTP/1.1\r\n\r\n", 405, false, NULL },
		{ __LINE__, "DELETE /metrics HTTP/1.1\r\n\r\n", 405, false, NULL },
		{ __LINE__, "GET / HTTP/1.1\r\n\r\n", 404, false, NULL },
		{ __LINE__, "GET /metricsx HTTP/1.1\r\n\r\n", 404, false, NULL },
		{ __LINE__, "GET /metrics/ HTTP/1.1\r\n\r\n", 404, false, NULL },
		{ __LINE__, "GET metrics HTTP/1.1\r\n\r\n", 400, false, NULL },
		{ __LINE__, "GET /metrics\r\n\r\n", 400, false, NULL },
		{ __LINE__, "GET  /metrics HTTP/1.1\r\n\r\n", 400, false, NULL },
		{ __LINE__, "GET /metrics HTTP/1.1 x\r\n\r\n", 400, false, NULL },
		{ __LINE__, "NONSENSE\r\n\r\n", 400, false, NULL },
		{ __LINE__, "GET /metrics FTP/1.1\r\n\r\n", 400, false, NULL },
		{ __LINE__, "GET /metrics HTTP/2\r\n\r\n", 505, false, NULL },
		{ __LINE__, "GET /metrics HTTP/1.10\r\n\r\n", 505, false, NULL },
	};
	char buf[256];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_http_request rq;
		size_t n = strlen(rows[i].req);
		int code;

		memcpy(buf, rows[i].req, n + 1);
		code = pmc_http_request_parse(buf, n, "/metrics", &rq);
		if (code != rows[i].code)
			fail_msg("line %d: %d, expected %d", rows[i].line, code, rows[i].code);
		if (code)
			continue;
		if (rq.head != rows[i].head || !rq.accept != !rows[i].accept ||
		    (rq.accept && strcmp(rq.accept, rows[i].accept)))
			fail_msg("line %d: head %d accept '%s'", rows[i].line, rq.head, rq.accept ? rq.accept : "(none)");
	}
}

static void test_nul_in_request_is_400(void **state)
{
	char buf[] = "GET /met\0rics HTTP/1.1\r\n\r\n";
	struct pmc_http_request rq;

	(void)state;
	assert_int_equal(pmc_http_request_parse(buf, sizeof(buf) - 1, "/metrics", &rq), 400);
}

static void test_request_filling_the_buffer_without_end_is_413(void **state)
{
	char *buf = malloc(PMC_HTTP_REQUEST_MAX + 1);
	struct pmc_http_request rq;

	(void)state;
	assert_non_null(buf);
	memset(buf, 'a', PMC_HTTP_REQUEST_MAX);
	memcpy(buf, "GET /metrics HTTP/1.1\r\nX: ", 26);
	assert_int_equal(pmc_http_request_parse(buf, PMC_HTTP_REQUEST_MAX - 1, "/metrics", &rq), -1);
	buf[PMC_HTTP_REQUEST_MAX - 1] = 'a'; /* the next byte received goes where the parse put its NUL */
	assert_int_equal(pmc_http_request_parse(buf, PMC_HTTP_REQUEST_MAX, "/metrics", &rq), 413);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests_get_their_documented_answers),
		cmocka_unit_test(test_nul_in_request_is_400),
		cmocka_unit_test(test_request_filling_the_buffer_without_end_is_413),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
