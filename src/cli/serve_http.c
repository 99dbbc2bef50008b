/* SPDX-License-Identifier: MIT */
/* pmctool serve's HTTP server (cli/serve_http.h). */
#include "cli/serve_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DRAIN_MS 1000           /* after an error response: the rest of the request is read and dropped, so that
				   closing does not reset the connection before the client read the response */
#define DRAIN_MAX (256 * 1024)

enum conn_state { CONN_FREE = 0, CONN_READ, CONN_WRITE, CONN_DRAIN };

struct conn {
	int fd;
	enum conn_state st;
	char req[PMC_HTTP_REQUEST_MAX + 1];
	size_t nreq;
	char *out;
	size_t nout, off;
	bool drain_after;       /* an error response: drain the request after it */
	size_t drained;
	uint64_t deadline;      /* ms on the monotonic clock */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int pmc_http_listen(const char *spec, int *ret_fd, char *bound, size_t blen, char *err, size_t elen)
{
	char host[128], port[16], h[NI_MAXHOST], s[NI_MAXSERV];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	size_t hl;
	int fd, one = 1, r;

	if (!colon || colon == spec || !colon[1] || strlen(colon + 1) >= sizeof(port) ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1)) {
		snprintf(err, elen, "expected ADDR:PORT, such as 127.0.0.1:9464 or [::1]:9464");
		return -EINVAL;
	}
	hl = (size_t)(colon - spec);
	if (spec[0] == '[' && hl >= 2 && spec[hl - 1] == ']') { /* [ADDR6]:PORT */
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host) || atol(colon + 1) > 65535) {
		snprintf(err, elen, hl >= sizeof(host) ? "the address is too long" : "the port is above 65535");
		return -EINVAL;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%s", colon + 1);
	if ((r = getaddrinfo(host, port, &hints, &ai)) != 0) {
		snprintf(err, elen, "'%s' is not a numeric IPv4 or IPv6 address (%s)", host, gai_strerror(r));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		r = -errno;
		snprintf(err, elen, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return r;
	}
	freeaddrinfo(ai);
	if (getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), s, sizeof(s), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(bound, blen, "%s", spec);
	else
		snprintf(bound, blen, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", h, s);
	*ret_fd = fd;
	return 0;
}

static void conn_close(struct conn *c)
{
	close(c->fd);
	free(c->out);
	c->out = NULL;
	c->st = CONN_FREE;
}

static const char *status_text(int code)
{
	switch (code) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 413: return "Content Too Large";
	case 505: return "HTTP Version Not Supported";
	default: return "Internal Server Error";
	}
}

/* The response, whole, in c->out; body is taken (freed here). Errors get a one-line text body. */
static void respond(struct conn *c, int code, const char *ctype, char *body, size_t blen, bool head)
{
	char errbody[96];
	int hl;

	if (code != 200) {
		free(body);
		body = NULL;
		blen = (size_t)snprintf(errbody, sizeof(errbody), "%d %s\n", code, status_text(code));
		ctype = "text/plain; charset=utf-8";
	}
	free(c->out);
	c->out = malloc(512 + blen);
	if (!c->out) {
		free(body);
		conn_close(c);
		return;
	}
	hl = snprintf(c->out, 512, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
		      code, status_text(code), ctype, blen, code == 405 ? "Allow: GET, HEAD\r\n" : "");
	c->nout = (size_t)hl;
	if (!head) {
		memcpy(c->out + c->nout, body ? body : errbody, blen);
		c->nout += blen;
	}
	free(body);
	c->off = 0;
	c->st = CONN_WRITE;
	c->drain_after = code != 200;
	c->deadline = now_ms() + PMC_HTTP_WRITE_TIMEOUT_MS;
}

/* A header's value in the request's header lines (after the request line), or NULL; cut at its line's end. */
static const char *header(char *hdrs, const char *name)
{
	size_t nl = strlen(name);

	for (char *line = hdrs; line && *line; ) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (end && end > line && end[-1] == '\r')
			end[-1] = '\0';
		if (!strncasecmp(line, name, nl) && line[nl] == ':') {
			const char *v = line + nl + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			return v;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

/* A complete request's line and headers (NUL-terminated; modified): 0 and ret filled, or the HTTP error code. */
static int parse_complete(char *req, const char *path, struct pmc_http_request *ret)
{
	char *line = req, *eol = strchr(line, '\n'), *sp1, *sp2;
	const char *target, *version;
	size_t pl = strlen(path);

	*eol = '\0';
	if (eol > line && eol[-1] == '\r')
		eol[-1] = '\0';
	sp1 = strchr(line, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || sp1 == line || sp2 == sp1 + 1 || strchr(sp2 + 1, ' '))
		return 400;
	*sp1 = *sp2 = '\0';
	target = sp1 + 1;
	version = sp2 + 1;
	if (strncmp(version, "HTTP/1.", 7) || !version[7] || version[8])
		return strncmp(version, "HTTP/", 5) ? 400 : 505;
	ret->head = !strcmp(line, "HEAD");
	if (strncmp(target, path, pl) || (target[pl] && target[pl] != '?'))
		return target[0] == '/' || !strcmp(target, "*") ? 404 : 400;
	if (strcmp(line, "GET") && !ret->head)
		return 405;
	ret->accept = header(eol + 1, "Accept");
	return 0;
}

int pmc_http_request_parse(char *req, size_t n, const char *path, struct pmc_http_request *ret)
{
	*ret = (struct pmc_http_request){ .head = false, .accept = NULL };
	if (memchr(req, '\0', n))
		return 400;
	req[n] = '\0';
	if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
		return parse_complete(req, path, ret);
	return n >= PMC_HTTP_REQUEST_MAX ? 413 : -1;
}

static void on_readable(struct conn *c, const struct pmc_http_opts *o)
{
	struct pmc_http_request rq;
	char sink[4096], *body = NULL;
	const char *ctype = NULL;
	size_t blen = 0;
	ssize_t n;
	int code;

	if (c->st == CONN_DRAIN) {
		n = recv(c->fd, sink, sizeof(sink), 0);
		if (n <= 0 ? !(n < 0 && (errno == EAGAIN || errno == EINTR)) : (c->drained += (size_t)n) > DRAIN_MAX)
			conn_close(c);
		return;
	}
	n = recv(c->fd, c->req + c->nreq, PMC_HTTP_REQUEST_MAX - c->nreq, 0);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) { /* gone before its request was whole */
		conn_close(c);
		return;
	}
	c->nreq += (size_t)n;
	code = pmc_http_request_parse(c->req, c->nreq, o->path, &rq);
	if (code < 0)
		return; /* not complete yet */
	if (!code && o->body(o->ctx, rq.accept, &body, &blen, &ctype) < 0)
		code = 500;
	respond(c, code ? code : 200, ctype, body, blen, rq.head);
}

static void on_writable(struct conn *c)
{
	ssize_t n = send(c->fd, c->out + c->off, c->nout - c->off, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		conn_close(c);
		return;
	}
	c->off += (size_t)n;
	if (c->off < c->nout)
		return;
	if (!c->drain_after) {
		conn_close(c);
		return;
	}
	shutdown(c->fd, SHUT_WR); /* the response is complete; what the client still sends is read and dropped */
	free(c->out);
	c->out = NULL;
	c->st = CONN_DRAIN;
	c->drained = 0;
	c->deadline = now_ms() + DRAIN_MS;
}

static void accept_new(int lfd, struct conn *conns)
{
	for (size_t i = 0; i < PMC_HTTP_CONN_MAX; i++) {
		int fd;

		if (conns[i].st != CONN_FREE)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return; /* none waiting (EAGAIN), or one that went away before it was taken */
		conns[i] = (struct conn){ .fd = fd, .st = CONN_READ, .deadline = now_ms() + PMC_HTTP_READ_TIMEOUT_MS };
	}
}

int pmc_http_serve(const struct pmc_http_opts *o)
{
	struct conn *conns = calloc(PMC_HTTP_CONN_MAX, sizeof(*conns));
	struct pollfd pfd[PMC_HTTP_CONN_MAX + 2];
	size_t map[PMC_HTTP_CONN_MAX + 2];
	uint64_t tick = o->tick_ms ? now_ms() + o->tick_ms : 0;
	int rc = 0;

	if (!conns)
		return -ENOMEM;
	while (!rc) {
		nfds_t np = 0;
		size_t free_slots = 0;
		uint64_t now = now_ms(), next = tick;
		int timeout;

		pfd[np++] = (struct pollfd){ .fd = o->wake_fd, .events = POLLIN };
		for (size_t i = 0; i < PMC_HTTP_CONN_MAX; i++) {
			struct conn *c = &conns[i];
			if (c->st == CONN_FREE) {
				free_slots++;
				continue;
			}
			if (now >= c->deadline) { /* too slow: a request not sent, a response not read */
				if (c->st == CONN_READ && c->nreq) {
					respond(c, 408, NULL, NULL, 0, false);
					if (c->st == CONN_FREE)
						continue;
					c->drain_after = false;
					on_writable(c); /* one try; whatever does not fit is dropped */
					if (c->st != CONN_FREE)
						conn_close(c);
				} else
					conn_close(c);
				free_slots++;
				continue;
			}
			next = !next || c->deadline < next ? c->deadline : next;
			map[np] = i;
			pfd[np++] = (struct pollfd){ .fd = c->fd, .events = c->st == CONN_WRITE ? POLLOUT : POLLIN };
		}
		if (o->listen_fd >= 0 && free_slots) {
			map[np] = SIZE_MAX;
			pfd[np++] = (struct pollfd){ .fd = o->listen_fd, .events = POLLIN };
		}
		timeout = next ? (int)(next > now ? next - now : 0) + 1 : -1;
		if (poll(pfd, np, timeout) < 0) {
			if (errno == EINTR)
				continue; /* a signal: its handler wrote to the wake pipe */
			rc = -errno;
			break;
		}
		for (nfds_t k = 1; k < np; k++) {
			if (!pfd[k].revents)
				continue;
			if (map[k] == SIZE_MAX) {
				accept_new(o->listen_fd, conns);
				continue;
			}
			struct conn *c = &conns[map[k]];
			if (c->st == CONN_WRITE && (pfd[k].revents & (POLLOUT | POLLERR | POLLHUP)))
				on_writable(c);
			else if (c->st != CONN_WRITE)
				on_readable(c, o);
		}
		if (tick && now_ms() >= tick) {
			tick += o->tick_ms;
			if (tick <= now_ms()) /* late (a stop of the process): the next one a full tick away */
				tick = now_ms() + o->tick_ms;
			pfd[0].revents |= POLLIN;
		}
		if (pfd[0].revents)
			rc = o->wake(o->ctx);
	}
	for (size_t i = 0; i < PMC_HTTP_CONN_MAX; i++)
		if (conns[i].st != CONN_FREE)
			conn_close(&conns[i]);
	free(conns);
	return rc;
}
