/* SPDX-License-Identifier: MIT */
/* The HTTP side of pmctool serve: one thread, non-blocking sockets in one poll loop, a bounded number of
 * connections each with a bounded request buffer and a deadline. It answers GET (and HEAD) of one path; any other
 * request gets its HTTP error and the connection is closed. One request per connection (Connection: close). */
#ifndef PMC_CLI_SERVE_HTTP_H
#define PMC_CLI_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define PMC_HTTP_REQUEST_MAX 8192     /* a request's line and headers; larger: 413 */
#define PMC_HTTP_CONN_MAX 64          /* connections served at once; more wait in the listen backlog */
#define PMC_HTTP_READ_TIMEOUT_MS 5000 /* a request not complete by then: closed (408) */
#define PMC_HTTP_WRITE_TIMEOUT_MS 10000 /* a response not taken by then: closed */

/* The body of a GET of the path: accept is the request's Accept header (NULL: none). Sets *body (malloc'd, the
 * server frees it), *len and *ctype (static). 0, or -errno (the client gets 500). */
typedef int (*pmc_http_body_fn)(void *ctx, const char *accept, char **body, size_t *len, const char **ctype);
/* The wake descriptor became readable (or the tick passed): non-zero ends pmc_http_serve with that value. */
typedef int (*pmc_http_wake_fn)(void *ctx);

/* Listen on "ADDR:PORT" or "[ADDR6]:PORT" (numeric; port 0: any free one). *ret_fd, and the address bound as
 * "ADDR:PORT" in bound. 0, or -errno / -EINVAL with the reason in err. */
int pmc_http_listen(const char *spec, int *ret_fd, char *bound, size_t blen, char *err, size_t elen);

/* What a complete request asks for. */
struct pmc_http_request {
	bool head;              /* HEAD: the headers of the response only */
	const char *accept;     /* its Accept header's value (in the request's buffer), NULL when none */
};

/* The n bytes received of a request in req (room for n + 1; req is NUL-terminated at n and cut up): -1 when its
 * line and headers are not complete yet (and fit in PMC_HTTP_REQUEST_MAX); 0 when it is a GET or HEAD of path (with
 * an optional "?query"), *ret filled; else the HTTP status of the error: 400 malformed (or holding a NUL), 404
 * another path, 405 another method, 413 too large, 505 not HTTP/1.x. */
int pmc_http_request_parse(char *req, size_t n, const char *path, struct pmc_http_request *ret);

struct pmc_http_opts {
	int listen_fd;          /* -1: no listener (the loop only waits for wake) */
	const char *path;       /* "/metrics" */
	pmc_http_body_fn body;
	int wake_fd;            /* readable: wake() is called (it drains it) */
	pmc_http_wake_fn wake;
	unsigned tick_ms;       /* > 0: wake() is also called every tick_ms (--textfile's rewrite), readable or not */
	void *ctx;              /* for body and wake */
};

/* Serve until wake returns non-zero; then every connection is closed (the listener is the caller's). Returns
 * wake's value, or -errno when poll failed. */
int pmc_http_serve(const struct pmc_http_opts *o);

#endif
