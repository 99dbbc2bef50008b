// loop N: a static aarch64 program without libc whose user-mode instruction count is known exactly.
// The loop body is 4 instructions, run N times; parsing N costs 8 instructions per digit whatever its value, so two
// runs whose N have the same number of digits differ by exactly 4 x (difference of N) retired user instructions.
// Whole program: 4N + 8 x digits + 11 (5 before the parse, 2 for the terminating NUL, 1 check, 3 to exit).
// Exit status 0, or 2 when N is missing or not decimal.
	.text
	.global _start
_start:
	ldr	x1, [sp]		// argc
	cmp	x1, #2
	b.lt	usage
	ldr	x1, [sp, #16]		// argv[1]
	mov	x2, #0
parse:
	ldrb	w3, [x1], #1
	cbz	w3, run
	sub	w3, w3, #'0'
	cmp	w3, #9
	b.hi	usage
	mov	x4, #10
	madd	x2, x2, x4, x3
	b	parse
run:
	cbz	x2, done
trip:
	add	x5, x5, #1
	add	x6, x6, #1
	subs	x2, x2, #1
	b.ne	trip
done:
	mov	x0, #0
	mov	x8, #93			// exit
	svc	#0
usage:
	mov	x0, #2
	mov	x8, #93
	svc	#0
