/* SPDX-License-Identifier: MIT */
/* The reader of --per-thread's buffer (perf/ring.c), fed crafted buffers instead of the kernel's: records laid out
 * as include/uapi/linux/perf_event.h describes them (PERF_RECORD_READ/FORK/EXIT/COMM/LOST, each ending with the
 * event's id), a record that wraps the end of the buffer, lost and unknown records, and sizes that cannot be. The
 * kernel side is tested for real by tests/run/test_stat_per_thread.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "perf/ring.h"

#define ID0 0x1111
#define ID1 0x2222

/* A ring of size bytes written at head (wrapping), as the kernel writes it. */
struct ring {
	unsigned char buf[4096];
	uint64_t size, head;
};

static void put(struct ring *r, const void *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		r->buf[(r->head + i) % r->size] = ((const unsigned char *)p)[i];
	r->head += len;
}

static void header(struct ring *r, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };
	put(r, &h, sizeof(h));
}

static void rec_read(struct ring *r, uint32_t pid, uint32_t tid, uint64_t value, uint64_t id)
{
	uint32_t ids[2] = { pid, tid };
	uint64_t v[4] = { value, 1000, 1000, id };

	header(r, PERF_RECORD_READ, 8 + sizeof(ids) + sizeof(v));
	put(r, ids, sizeof(ids));
	put(r, v, sizeof(v));
}

static void rec_task(struct ring *r, bool fork, uint32_t pid, uint32_t tid, uint32_t ptid)
{
	uint32_t f[4] = { pid, pid, tid, ptid };
	uint64_t t[2] = { 123, ID0 };

	header(r, fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 8 + sizeof(f) + sizeof(t));
	put(r, f, sizeof(f));
	put(r, t, sizeof(t));
}

static void rec_comm(struct ring *r, uint32_t pid, uint32_t tid, const char *name)
{
	uint32_t ids[2] = { pid, tid };
	char comm[16] = { 0 };
	uint64_t id = ID0;

	strncpy(comm, name, sizeof(comm) - 1);
	header(r, PERF_RECORD_COMM, 8 + sizeof(ids) + sizeof(comm) + sizeof(id));
	put(r, ids, sizeof(ids));
	put(r, comm, sizeof(comm));
	put(r, &id, sizeof(id));
}

static void table(struct pmc_threads *th)
{
	assert_int_equal(pmc_threads_init(th, 2, 100, "main"), 0);
	th->ids[0] = ID0;
	th->ids[1] = ID1;
}

static void feed(struct pmc_threads *th, struct ring *r, uint64_t *tail)
{
	pmc_threads_feed(th, r->buf, r->size, tail, r->head);
	assert_true(*tail == r->head);
}

static void test_crafted_records_give_rows_in_creation_order_and_the_first_row_is_the_rest(void **state)
{
	struct pmc_threads th;
	struct ring r = { .size = 4096 };
	uint64_t tail = 0;
	struct pmc_count total[2] = { { .value = 100, .enabled = 5000, .running = 5000, .status = PMC_COUNT_OK },
				      { .value = 10, .enabled = 5000, .running = 5000, .status = PMC_COUNT_OK } };
	struct pmc_count rows[3 * 2];

	(void)state;
	table(&th);
	rec_comm(&r, 100, 100, "prog");
	rec_task(&r, true, 100, 101, 100);
	rec_comm(&r, 100, 101, "worker");
	rec_task(&r, true, 100, 102, 101);
	rec_read(&r, 100, 102, 12, ID0);
	rec_read(&r, 100, 101, 30, ID0);
	rec_read(&r, 100, 101, 4, ID1);
	rec_read(&r, 100, 102, 5, ID1);
	rec_task(&r, false, 100, 101, 100);
	feed(&th, &r, &tail);
	assert_int_equal(th.n, 3);
	assert_string_equal(th.t[0].comm, "prog");
	assert_string_equal(th.t[1].comm, "worker");
	assert_string_equal(th.t[2].comm, "worker"); /* created by worker, never renamed */
	assert_int_equal(th.t[1].tid, 101);
	assert_int_equal(th.t[2].tid, 102);
	assert_true(th.t[1].exited && !th.t[2].exited);
	assert_int_equal(pmc_threads_split(&th, total, rows), 0);
	assert_int_equal(rows[0].value, 58);
	assert_int_equal(rows[2].value, 30);
	assert_int_equal(rows[4].value, 12);
	assert_int_equal(rows[1].value, 1);
	assert_int_equal(rows[3].value, 4);
	assert_int_equal(rows[5].value, 5);
	assert_int_equal(rows[0].enabled, 3000);
	assert_int_equal(th.lost + th.corrupt + th.unknown + th.foreign, 0);
	pmc_threads_fini(&th);
}

static void test_a_crafted_record_that_wraps_the_end_of_the_buffer_is_read_whole(void **state)
{
	struct pmc_threads th;
	struct ring r = { .size = 64, .head = 40 };
	uint64_t tail = 40;
	struct pmc_count total[2] = { { .value = 1000, .status = PMC_COUNT_OK }, { .value = 0, .status = PMC_COUNT_OK } };
	struct pmc_count rows[2 * 2];

	(void)state;
	table(&th);
	rec_read(&r, 100, 101, 777, ID0); /* bytes 40..63, then 0..23 */
	assert_true(r.head % r.size < tail % r.size);
	feed(&th, &r, &tail);
	assert_int_equal(th.n, 2);
	assert_int_equal(th.counts[2].value, 777);
	pmc_threads_split(&th, total, rows);
	assert_int_equal(rows[0].value, 223);
	assert_int_equal(th.corrupt, 0);
	pmc_threads_fini(&th);
}

static void test_crafted_lost_unknown_and_foreign_records_are_counted_not_taken(void **state)
{
	struct pmc_threads th;
	struct ring r = { .size = 4096 };
	uint64_t tail = 0, lost[3] = { ID0, 7, ID0 }, pad[2] = { 0, 0 };
	struct pmc_count total[2] = { { .value = 50, .status = PMC_COUNT_OK }, { .value = 50, .status = PMC_COUNT_OK } };
	struct pmc_count rows[3 * 2];

	(void)state;
	table(&th);
	header(&r, PERF_RECORD_LOST, 8 + sizeof(lost));
	put(&r, lost, sizeof(lost));
	header(&r, 99, 8 + sizeof(pad)); /* a type this reader does not know */
	put(&r, pad, sizeof(pad));
	rec_read(&r, 100, 101, 9, 0x9999); /* an id of no event here */
	rec_task(&r, true, 100, 102, 100); /* created, but its READ never came (lost, or still running) */
	rec_read(&r, 100, 103, 20, ID0);   /* its FORK was lost: still a row, after the others */
	feed(&th, &r, &tail);
	assert_int_equal(th.lost, 7);
	assert_int_equal(th.unknown, 1);
	assert_int_equal(th.foreign, 1);
	assert_int_equal(th.n, 3);
	assert_int_equal(th.t[1].tid, 102);
	assert_int_equal(th.t[2].tid, 103);
	assert_int_equal(pmc_threads_split(&th, total, rows), 2); /* 102 lacks both, 103 lacks event 1 */
	assert_int_equal(pmc_threads_unnamed(&th), 1);            /* 103: neither FORK nor COMM, its name a guess */
	assert_int_equal(rows[0].value, 30);
	assert_int_equal(rows[2].status, PMC_COUNT_NOT_COUNTED);
	assert_int_equal(rows[4].value, 20);
	assert_int_equal(rows[1].value, 50);
	pmc_threads_fini(&th);
}

static void test_a_reused_tid_in_crafted_records_is_a_new_task(void **state)
{
	struct pmc_threads th;
	struct ring r = { .size = 4096 };
	uint64_t tail = 0;

	(void)state;
	table(&th);
	rec_task(&r, true, 100, 101, 100);
	rec_read(&r, 100, 101, 1, ID0);
	rec_task(&r, false, 100, 101, 100);
	rec_task(&r, true, 100, 101, 100);
	rec_read(&r, 100, 101, 2, ID0);
	feed(&th, &r, &tail);
	assert_int_equal(th.n, 3);
	assert_int_equal(th.counts[2].value, 1);
	assert_int_equal(th.counts[4].value, 2);
	pmc_threads_fini(&th);
}

static void test_crafted_exits_without_any_read_record_say_the_kernel_writes_none(void **state)
{
	struct pmc_threads th;
	struct ring r = { .size = 4096 };
	uint64_t tail = 0;

	(void)state;
	table(&th);
	rec_task(&r, true, 100, 101, 100);
	rec_task(&r, true, 100, 102, 100);
	rec_task(&r, false, 100, 101, 100);
	rec_task(&r, false, 100, 102, 100);
	feed(&th, &r, &tail);
	assert_int_equal(pmc_threads_kernel_silent(&th), 2);
	rec_task(&r, true, 100, 103, 100);
	rec_read(&r, 100, 103, 5, ID0); /* one record: this kernel writes them (the others were still running) */
	feed(&th, &r, &tail);
	assert_int_equal(pmc_threads_kernel_silent(&th), 0);
	pmc_threads_fini(&th);
}

static void test_crafted_sizes_that_cannot_be_stop_the_reading_without_reading_outside(void **state)
{
	static const struct {
		int line;
		uint16_t size;   /* the header's size */
		uint64_t avail;  /* head - tail */
	} cases[] = {
		{ __LINE__, 0, 64 },      /* a zero size would loop forever */
		{ __LINE__, 4, 64 },      /* smaller than a header */
		{ __LINE__, 200, 64 },    /* larger than what was written */
		{ __LINE__, 8, 5000 },    /* more written than the buffer holds */
		{ __LINE__, 8, 3 },       /* not even a header */
		{ __LINE__, 16, 16 },     /* a READ too short for its fields */
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pmc_threads th;
		struct ring r = { .size = 4096 };
		uint64_t tail = 0;

		table(&th);
		header(&r, PERF_RECORD_READ, cases[c].size);
		r.head = cases[c].avail;
		pmc_threads_feed(&th, r.buf, r.size, &tail, r.head);
		if (tail != r.head || th.corrupt == 0 || th.n != 1)
			fail_msg("line %d: tail %llu, corrupt %llu, tasks %zu", cases[c].line, (unsigned long long)tail,
				 (unsigned long long)th.corrupt, th.n);
		pmc_threads_fini(&th);
	}
}

static void test_random_crafted_bytes_never_read_outside_the_buffer(void **state)
{
	uint32_t x = 12345;

	(void)state;
	for (int round = 0; round < 2000; round++) {
		struct pmc_threads th;
		struct ring r = { .size = 256 };
		uint64_t tail;

		table(&th);
		for (size_t i = 0; i < r.size; i++) {
			x = x * 1103515245u + 12345u;
			r.buf[i] = (unsigned char)(x >> 16);
		}
		/* now and then a plausible header, so records of every type get parsed */
		if (round % 2)
			for (size_t o = 0; o + 8 <= r.size; o += 48) {
				struct perf_event_header h = { .type = (uint32_t)(round % 12), .size = (uint16_t)(8 + (round % 7) * 8) };
				memcpy(r.buf + o, &h, sizeof(h));
			}
		tail = x % 1000;
		pmc_threads_feed(&th, r.buf, r.size, &tail, tail + (x >> 8) % 300);
		pmc_threads_fini(&th);
	}
}

/* Issue 28 item 7: a new task takes its creator's name, and the table grows (16, 32, ...): with hundreds of tasks
 * the name must come from the creator's entry as it is after the table moved, never from freed memory (the ASan
 * build fails here when it does). Threads and child processes, each created by the one before, some renamed. */
static void test_hundreds_of_crafted_tasks_each_keep_their_creators_or_own_name(void **state)
{
	enum { TASKS = 600 };
	struct pmc_threads th;
	struct ring r = { .size = 4096 };
	uint64_t tail = 0;
	char want[TASKS + 1][16];

	(void)state;
	table(&th);
	snprintf(want[0], sizeof(want[0]), "main");
	for (uint32_t k = 1; k <= TASKS; k++) {
		uint32_t tid = 1000 + k, ptid = k == 1 ? 100 : tid - 1;
		uint32_t pid = k % 3 ? 100 : tid; /* every third is a child process */

		rec_task(&r, true, pid, tid, ptid);
		if (k % 5 == 0) {
			snprintf(want[k], sizeof(want[k]), "task-%u", k);
			rec_comm(&r, pid, tid, want[k]);
		} else {
			memcpy(want[k], want[k - 1], sizeof(want[k]));
		}
		feed(&th, &r, &tail); /* the ring holds a few records only */
	}
	assert_int_equal(th.n, TASKS + 1);
	assert_false(th.nomem);
	for (size_t k = 0; k <= TASKS; k++)
		if (strcmp(th.t[k].comm, want[k]) != 0 || (k && th.t[k].tid != (pid_t)(1000 + k)))
			fail_msg("task %zu: name '%.16s' tid %d, expected '%s' tid %zu", k, th.t[k].comm, th.t[k].tid, want[k],
				 k ? 1000 + k : 100);
	pmc_threads_fini(&th);
}

/* Rows missing against the tasks created (counted apart): a task seen only by its FORK has no row either, since its
 * count is in the first row; each case is {records, tasks created, rows missing}. */
static void test_rows_missing_are_the_tasks_created_less_those_with_a_final_count(void **state)
{
	static const struct {
		int line;
		unsigned forked, read; /* tasks 1..forked have a FORK record; tasks 1..read a READ */
		uint64_t created;
		size_t absent;
	} cases[] = {
		{ __LINE__, 0, 0, 1, 0 },  /* the command alone */
		{ __LINE__, 3, 3, 4, 0 },  /* every task its row */
		{ __LINE__, 3, 3, 10, 6 }, /* six tasks left no record at all */
		{ __LINE__, 3, 1, 4, 2 },  /* two seen, with no final count */
		{ __LINE__, 0, 2, 5, 2 },  /* known by their final count alone: rows, nameless */
		{ __LINE__, 3, 3, 2, 0 },  /* more rows than tasks created (a reused tid): none missing */
		{ __LINE__, 0, 0, 0, 0 },  /* nothing counted */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmc_threads th;
		struct ring r = { .size = 4096 };
		uint64_t tail = 0;

		table(&th);
		for (unsigned k = 1; k <= cases[i].forked; k++)
			rec_task(&r, true, 100, 100 + k, 100);
		for (unsigned k = 1; k <= cases[i].read; k++)
			rec_read(&r, 100, 100 + k, k, ID0);
		feed(&th, &r, &tail);
		if (pmc_threads_absent(&th, cases[i].created) != cases[i].absent)
			fail_msg("line %d: %zu rows missing, expected %zu", cases[i].line,
				 pmc_threads_absent(&th, cases[i].created), cases[i].absent);
		pmc_threads_fini(&th);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crafted_records_give_rows_in_creation_order_and_the_first_row_is_the_rest),
		cmocka_unit_test(test_a_crafted_record_that_wraps_the_end_of_the_buffer_is_read_whole),
		cmocka_unit_test(test_crafted_lost_unknown_and_foreign_records_are_counted_not_taken),
		cmocka_unit_test(test_a_reused_tid_in_crafted_records_is_a_new_task),
		cmocka_unit_test(test_crafted_exits_without_any_read_record_say_the_kernel_writes_none),
		cmocka_unit_test(test_crafted_sizes_that_cannot_be_stop_the_reading_without_reading_outside),
		cmocka_unit_test(test_random_crafted_bytes_never_read_outside_the_buffer),
		cmocka_unit_test(test_hundreds_of_crafted_tasks_each_keep_their_creators_or_own_name),
		cmocka_unit_test(test_rows_missing_are_the_tasks_created_less_those_with_a_final_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
